import { test } from 'node:test';
import assert from 'node:assert/strict';
import { excerpt, splitBlocks, splitSections, tablesAsLists, unlinkRelative } from '../../../src/emulator/replies/markdown-sections.js';

test('splits by headings, with the enclosing titles as context, ignoring "#" inside code fences', () => {
  const markdown = [
    'Intro before any heading.',
    '# Guide',
    '<!-- section:widget -->',
    '## Install',
    'Run this:',
    '```sh',
    '# not a heading',
    'npm install chatbot-widget',
    '```',
    '### Check',
    'It works.',
    '## Empty',
    '<!-- /section:widget -->',
  ].join('\n');
  const sections = splitSections(markdown, 'docs/guide.md');
  assert.deepEqual(
    sections.map(({ id, title, context, level }) => ({ id, title, context, level })),
    [
      { id: 0, title: 'docs/guide.md', context: '', level: 1 },
      { id: 1, title: 'Install', context: 'Guide', level: 2 },
      { id: 2, title: 'Check', context: 'Guide › Install', level: 3 },
    ],
  );
  assert.equal(sections[1]!.body, 'Run this:\n```sh\n# not a heading\nnpm install chatbot-widget\n```');
  assert.ok(
    sections.every((s) => !s.body.includes('<!--')),
    'HTML comments are dropped',
  );
});

test('a fenced block with blank lines is one block', () => {
  assert.deepEqual(splitBlocks('a\n\n```js\nx\n\ny\n```\n\nb'), ['a', '```js\nx\n\ny\n```', 'b']);
});

test('an excerpt keeps whole blocks, and closes a fence it has to cut', () => {
  assert.deepEqual(excerpt('one\n\ntwo\n\nthree', 8), { text: 'one\n\ntwo', truncated: true });
  assert.deepEqual(excerpt('one\n\ntwo', 100), { text: 'one\n\ntwo', truncated: false });
  const code = ['```js', ...Array.from({ length: 100 }, (_, i) => `line(${i});`), '```'].join('\n');
  const { text, truncated } = excerpt(code, 200);
  assert.ok(truncated);
  assert.ok(text.length <= 220, `${text.length}`);
  assert.match(text, /^```js\n/);
  assert.match(text, /\n```$/);
});

test('an excerpt never ends on a paragraph that introduces what it leaves out', () => {
  const code = '```ts\nexport default handler;\n```';
  const section = ['Intro.', 'Put this in src/index.ts:', code, 'Then deploy.'].join('\n\n');
  // What the paragraph introduces comes too while the excerpt stays within half again its length…
  assert.deepEqual(excerpt(section, 50), { text: ['Intro.', 'Put this in src/index.ts:', code].join('\n\n'), truncated: true });
  // …and past that, the paragraph goes.
  const long = section.replace('handler;', `handler;\n${'// more\n'.repeat(20)}`);
  assert.deepEqual(excerpt(long, 50), { text: 'Intro.', truncated: true });
  // A paragraph ending otherwise is kept as it is.
  assert.deepEqual(excerpt('one\n\ntwo.\n\nthree', 12), { text: 'one\n\ntwo.', truncated: true });
});

test('links to other docs files and to headings become text; absolute links stay', () => {
  assert.equal(
    unlinkRelative('See [Deploying](deployment.md), [site](https://example.com), [top](#top), ![logo](logo.png).'),
    'See Deploying, [site](https://example.com), top, ![logo](logo.png).',
  );
});

test('tables become lists (a chat bubble shows no tables), except inside code blocks', () => {
  const markdown = [
    'Attributes:',
    '',
    '| attribute | meaning | default |',
    '|---|:---:|---|',
    '| `endpoint` | the handler (required) | |',
    '| `theme` | `light` \\| `dark` | `light` |',
    '| `a|b` in code | ``x | y`` stays one cell | |',
    '| | | |',
    '| ends in a pipe | \\| |',
    '',
    'no | outer | pipes',
    ':-- | --- | ---',
    'one | two | three',
    '',
    '```md',
    '| a | b |',
    '|---|---|',
    '| 1 | 2 |',
    '```',
    '| not | a table without its delimiter row |',
  ].join('\n');
  assert.equal(
    tablesAsLists(markdown),
    [
      'Attributes:',
      '',
      '- `endpoint` — the handler (required)',
      '- `theme` — `light` | `dark`; default: `light`',
      '- `a|b` in code — ``x | y`` stays one cell',
      '- ends in a pipe — |',
      '',
      '- one — two; pipes: three',
      '',
      '```md',
      '| a | b |',
      '|---|---|',
      '| 1 | 2 |',
      '```',
      '| not | a table without its delimiter row |',
    ].join('\n'),
  );
});
