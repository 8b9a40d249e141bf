// Files a reader can hold in their head: a source file longer than about 300 lines says at its top
// why it is kept whole (the words "kept whole", its length as "about N lines", and the reason), so
// a long file is a decision someone wrote down, never an accident; a file that grew well past the
// length its note gives asks for that decision again. Comments, styles and data count as lines too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../src', import.meta.url));

/** "About 300": a file a little over it is not worth a note. */
const LONG_FILE_LINES = 320;
/** How far a file may grow past (or shrink below) the length its note gives, as a share of it. */
const NOTED_LENGTH_SLACK = 0.1;

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

/** Why a long file's opening comment does not explain it; undefined when it does. */
function unexplained(comment: string, lines: number): string | undefined {
  if (!/\bkept whole\b/i.test(comment)) return 'no "kept whole" and reason';
  const noted = /\babout (\d+) lines\b/.exec(comment);
  if (!noted) return 'no "about N lines"';
  const length = Number(noted[1]);
  if (Math.abs(lines - length) > length * NOTED_LENGTH_SLACK) return `noted as about ${length} lines`;
  return undefined;
}

test('a source file over about 300 lines says at its top why it is kept whole, and about how long it is', () => {
  const found = files(src)
    .map((file) => ({ file: relative(src, file), text: readFileSync(file, 'utf8') }))
    .map(({ file, text }) => ({ file, lines: text.split('\n').length, text }))
    .filter(({ lines }) => lines > LONG_FILE_LINES)
    .map(({ file, lines, text }) => ({ file, lines, why: unexplained(openingComment(text), lines) }))
    .filter(({ why }) => why !== undefined)
    .map(({ file, lines, why }) => `${file} (${lines} lines): ${why}`);
  assert.deepEqual(found, [], 'split these files by job, or say at their top why each is kept whole and about how long it is');
});

test('a note counts only when it says "kept whole", and its length close to the file\'s', () => {
  const note = (text: string) => openingComment(`/**\n * ${text}\n */\nexport {};`);
  assert.equal(unexplained(note('One job, kept whole (about 400 lines): the steps guard each other.'), 396), undefined);
  assert.equal(unexplained(note('HTML tags are kept whole as their source text.'), 396), 'no "about N lines"');
  assert.equal(unexplained(note('The scan, about 400 lines.'), 396), 'no "kept whole" and reason');
  assert.equal(unexplained(note('Kept whole (about 300 lines): one job.'), 396), 'noted as about 300 lines');
});

test('the opening comment ends at the first line of code', () => {
  assert.equal(openingComment('// one\n/**\n * two\n */\nimport x from "y";\n// not this'), '// one /** * two */');
});
