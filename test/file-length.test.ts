// Files a reader can hold in their head: a source file longer than about 300 lines says at its top
// why it is kept whole (the words "kept whole" and the reason), so a long file is a decision
// someone wrote down, never an accident. Comments, styles and data count as lines too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../src', import.meta.url));

/** "About 300": a file a little over it is not worth a note. */
const LONG_FILE_LINES = 320;

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The comment lines a file opens with, before its first line of code. */
function openingComment(text: string): string {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!(trimmed.startsWith('//') || trimmed.startsWith('/*') || trimmed.startsWith('*') || trimmed === '')) break;
    lines.push(trimmed);
  }
  return lines.join(' ');
}

test('a source file over about 300 lines says at its top why it is kept whole', () => {
  const unexplained = files(src)
    .map((file) => ({ file: relative(src, file), text: readFileSync(file, 'utf8') }))
    .filter(({ text }) => text.split('\n').length > LONG_FILE_LINES && !/kept whole/i.test(openingComment(text)))
    .map(({ file, text }) => `${file} (${text.split('\n').length} lines)`);
  assert.deepEqual(unexplained, [], 'split these files by job, or say at their top why each is kept whole');
});

test('the opening comment ends at the first line of code', () => {
  assert.equal(openingComment('// one\n/**\n * two\n */\nimport x from "y";\n// not this'), '// one /** * two */');
});
