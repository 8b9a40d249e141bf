// The reply renderer on generated hostile Markdown (the families the lexer's work property tries,
// test/ui/markdown/arbitraries.ts), in Chromium: each reply is rendered into the live
// document, and whatever it holds, rendering does not throw, nothing executable comes out (no
// element outside the renderer's whitelist, no `on*` or `style` attribute, no script, iframe,
// object, embed or style element, no javascript:, data: or vbscript: URL), every link is one the
// link-safety rules allow (http, https, mailto or tel, the URL they resolve it to, a new tab
// without opener or referrer), and words put in the reply as paragraphs of their own are shown.
// Seeded and short in `npm test`, long with `npm run fuzz`, as the Node fuzz tests.
import { executeServerCommand } from '@web/test-runner-commands';
import fc from 'fast-check';
import { render } from 'lit';
import { renderMarkdown, safeHref } from '../../src/ui/markdown/render.js';
import { fuzzParametersFrom, type FuzzEnv } from '../helpers/fuzz.js';
import { hostileMarkdown, REPLY_LENGTH } from '../ui/markdown/arbitraries.js';
import { assert } from '../helpers/browser/helpers.js';
import { inertProblems } from '../helpers/browser/inert-dom.js';

/** Room left in a reply for the words put in it. */
const WORDS_ROOM = 200;

/** A hostile reply with words put in it at random places, each a paragraph of its own: those words must show. */
const replyWithWords = fc.tuple(hostileMarkdown(REPLY_LENGTH - WORDS_ROOM), fc.array(fc.nat(), { maxLength: 8 })).map(([text, places]) => {
  const words = places.map((_, k) => `visibleword${k}`);
  const sorted = places.map((place) => place % (text.length + 1)).sort((a, b) => b - a);
  let reply = text;
  sorted.forEach((at, k) => (reply = `${reply.slice(0, at)}\n\n${words[k]}\n\n${reply.slice(at)}`));
  return { reply, words };
});

/** Everything the rendered reply in `root` must not hold; empty when all is well. */
function problems(root: HTMLElement): string[] {
  const found = inertProblems(root);
  for (const el of root.querySelectorAll('*')) {
    for (const { name, value } of el.attributes) {
      if (name === 'style') found.push(`${el.tagName} has a style attribute`);
      if ((name === 'href' || name === 'src') && /^\s*(?:javascript|data|vbscript):/i.test(value))
        found.push(`${el.tagName} ${name}=${value}`);
    }
  }
  if (root.querySelector('script, iframe, object, embed, style')) found.push('an executable element');
  for (const a of root.querySelectorAll('a')) {
    const href = a.getAttribute('href') ?? '';
    if (safeHref(href) !== href) found.push(`link to ${href}, which the link-safety rules do not give`);
  }
  return found;
}

describe('renderMarkdown on generated hostile replies', () => {
  it('renders them inert, with safe links only, and shows their words', async () => {
    const env = (await executeServerCommand('fuzz-env')) as FuzzEnv;
    const root = document.createElement('div');
    document.body.append(root);
    try {
      fc.assert(
        fc.property(replyWithWords, ({ reply, words }) => {
          render(renderMarkdown(reply), root);
          const found = problems(root);
          assert(found.length === 0, found.join('; '));
          const text = root.textContent ?? '';
          for (const word of words) assert(text.includes(word), `${word} is not shown`);
        }),
        fuzzParametersFrom(env, 80),
      );
    } finally {
      render(null, root);
      root.remove();
    }
  });
});
