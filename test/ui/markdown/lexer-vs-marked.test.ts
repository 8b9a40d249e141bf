// The widget's own Markdown lexer (src/ui/markdown/) against `marked`, the reference it
// replaced: both token trees go through the widget's renderer, and the HTML must be the same,
// for every block of this repository's README and docs (the demo answers from them), the sample
// replies of the widget's browser tests and typical model replies. The few inputs where they differ
// on purpose are listed below with the reason, and the test holds that they still differ so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Lexer } from 'marked';
import { renderTokens } from '../../../src/ui/markdown/render.js';
import { lexMarkdown } from '../../../src/ui/markdown/block.js';
import type { Token } from '../../../src/ui/markdown/tokens.js';
import { testReplies } from '../../helpers/browser/backend.js';
import { MODEL_REPLIES } from './replies.js';
import { serialize } from './serialize.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const ours = (markdown: string) => serialize(renderTokens(lexMarkdown(markdown)));
// `marked`'s tokens have the shapes the renderer reads (ours were modelled on them).
const reference = (markdown: string) => serialize(renderTokens(Lexer.lex(markdown, { gfm: true, breaks: false }) as unknown as Token[]));

/** Where we differ from `marked` on purpose: the input, what we render, and why. */
const DEVIATIONS: { markdown: string; ours: string; why: string }[] = [
  {
    markdown: '- [ ] write the docs\n- [x] ship the widget',
    ours: '<ul><li>[ ] write the docs</li><li>[x] ship the widget</li></ul>',
    why: 'task items: `marked` adds a checkbox token, which the renderer can only show as a paragraph `[ ]` above the text; we keep `[ ] ` as the start of the text',
  },
  {
    markdown: 'ab_a_**_**`_',
    ours: 'ab_a_<strong>_</strong>`_',
    why: 'pathological emphasis: we pair delimiters as CommonMark does (a strong `_`), `marked` pairs them otherwise',
  },
  {
    markdown: '**__b*`  `__',
    ours: '*<em>__b</em><code> </code>__',
    why: 'pathological emphasis: CommonMark pairing, where `marked` lets a strong run across a lone `*`',
  },
  {
    markdown: '> \t2: ++|\n`~| ',
    ours: '<blockquote><p> 2: ++| `~| </p></blockquote>',
    why: 'a tab right after a quote marker is one column short of indented code for us; `marked` makes it code',
  },
  {
    markdown: '<div>\n*Note:* keep the key secret.\n</div>',
    ours: '&lt;div&gt; <em>Note:</em> keep the key secret. &lt;/div&gt;',
    why: 'HTML blocks: raw HTML is shown as its text either way, and we read the Markdown between tags as anywhere else; `marked` keeps an HTML block (up to a blank line) unread',
  },
  {
    markdown: 'See the steps:\n<details>\n<summary>More</summary>',
    ours: 'See the steps: &lt;details&gt; &lt;summary&gt;More&lt;/summary&gt;',
    why: 'HTML blocks: a line starting with a tag continues the paragraph for us; `marked` starts an HTML block there',
  },
  {
    markdown: '<!-- a comment with *stars* -->',
    ours: '&lt;!-- a comment with <em>stars</em> --&gt;',
    why: 'HTML comments, `<?…?>`, `<!X …>` and CDATA: text for us, Markdown inside included (tags are still read as one piece of text, as `marked` does); `marked` keeps them unread',
  },
  {
    markdown: '1. Open it\nat ```the top```\nand save',
    ours: '<ol start=1><li>Open it at <code>the top</code> and save</li></ol>',
    why: 'a lazy line after a lazy line: `marked` judges the earlier one by its text past the item\'s indentation (here a fence, "```the top```"), which ends the item; we judge a line as written, as CommonMark does',
  },
  {
    markdown: 'Install it\n2. then run it\n---',
    ours: '<p><strong>Install it 2. then run it</strong></p>',
    why: 'a setext underline after a list-like line that cannot start a list there (only `1.` may interrupt a paragraph): a heading for us, as in CommonMark; `marked` lets the line start a list',
  },
  {
    markdown: '    indented\nafter',
    ours: '<pre><code>indented</code></pre><p>after</p>',
    why: "line breaks at the end of a code block (not shown either way): `marked` keeps one or not depending on what follows; we add none after the code's last line",
  },
].map((deviation) => ({ ...deviation, ours: deviation.ours.startsWith('<') ? deviation.ours : `<p>${deviation.ours}</p>` }));

/** Each file whole, and each of its top-level blocks on its own. */
function corpusOf(text: string): string[] {
  const blocks = Lexer.lex(text, { gfm: true, breaks: false }).filter((token) => token.type !== 'space');
  return [text, ...blocks.map((token) => token.raw)];
}

/** The input and both renderings around their first difference. */
function whereItDiffers(markdown: string): { markdown: string; ours: string; marked: string } {
  const [mine, theirs] = [ours(markdown), reference(markdown)];
  let at = 0;
  while (mine[at] === theirs[at]) at++;
  const around = (html: string) => html.slice(Math.max(0, at - 120), at + 120);
  return { markdown: markdown.slice(0, 300), ours: around(mine), marked: around(theirs) };
}

async function sampleReplies(): Promise<string[]> {
  const replies = ['markdown-sample', 'rtl-sample', 'soft-break-sample', 'layout-sample'].map((content) =>
    testReplies.reply({ content } as Parameters<typeof testReplies.reply>[0]),
  );
  return (await Promise.all(replies)).map(String);
}

test('our lexer renders like marked for the docs, the test replies and typical model replies', async () => {
  const docs = [
    'README.md',
    ...readdirSync(`${root}docs`)
      .filter((file) => file.endsWith('.md'))
      .map((file) => `docs/${file}`),
  ];
  const corpus = [
    ...docs.flatMap((file) => corpusOf(readFileSync(`${root}${file}`, 'utf8'))),
    ...(await sampleReplies()),
    ...MODEL_REPLIES.filter((reply) => !DEVIATIONS.some((deviation) => deviation.markdown === reply)),
  ];
  assert.ok(corpus.length > 400, `a corpus of ${corpus.length} inputs`);
  const differing = corpus.filter((markdown) => ours(markdown) !== reference(markdown));
  assert.deepEqual(differing.slice(0, 3).map(whereItDiffers), [], `${differing.length} of ${corpus.length} inputs render differently`);
});

test('the deliberate deviations from marked are as listed', () => {
  for (const { markdown, ours: expected, why } of DEVIATIONS) {
    assert.equal(ours(markdown), expected, why);
    assert.notEqual(reference(markdown), expected, `no longer a deviation: ${why}`);
  }
});
