// The README's React snippet, taken from the README itself, type-checked by tsc against the built
// package (resolved by name, through its exports map) with React 19's typings, as the React
// template tests check their fixtures (test/package/template-types-react.test.ts): an edit that
// names a prop, an event or an entry the package does not have breaks this test.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { assertBuilt, checkers, errorLines } from '../package/template-check.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');

test('the README React snippet compiles against chatbot-widget/react', async () => {
  assertBuilt();
  const snippets = [...readme.matchAll(/```tsx\n([^]*?)```/g)].map((m) => m[1]!);
  assert.equal(snippets.length, 1, 'the README has one React snippet');
  assert.match(snippets[0]!, /from 'chatbot-widget\/react'/);
  // Beside the React fixtures, so it resolves the package and React's typings as they do.
  const dir = mkdtempSync(join(root, 'test/fixtures/types/readme-'));
  try {
    writeFileSync(join(dir, 'snippet.tsx'), snippets[0]!);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.react19.json', files: ['snippet.tsx'] }));
    const output = await checkers.tsc(join(basename(dir), 'tsconfig.json'));
    assert.doesNotMatch(output, /error/i, output);
    assert.deepEqual(errorLines(output), [], output);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
