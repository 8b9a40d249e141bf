// The code, tests and docs stand on their own: none cites a document the repository does not
// ship (a brief kept beside the project while it was built). What a behaviour is gets said where
// it is used, or linked to a page under docs/.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// Spelled in pieces so this file does not match itself.
const OUTSIDE = new RegExp(['CONT', 'RACT ?§|api-', 'spec(\\.md)?'].join(''));
// A brief, a ticket or a meeting that is not in the repository, named as if the reader had it:
// the word "the" (or "the security") before contract, spec, issue or review.
const UNSHIPPED = new RegExp(['\\bthe (security )?(contr', 'act|sp', 'ec|iss', 'ue|rev', "iew)('s)?\\b"].join(''), 'i');

test('no file of the project cites the outside brief documents', () => {
  const tracked = execFileSync(
    'git',
    ['ls-files', '-z', '--', 'src', 'test', 'docs', 'demo', 'bench', 'scripts', 'examples', 'README.md'],
    { cwd: root, encoding: 'utf8' },
  )
    .split('\0')
    .filter((file) => /\.(ts|tsx|js|mjs|md|html|vue|svelte|json)$/.test(file));
  assert.ok(tracked.length > 100, 'the project files were listed');
  const citing = tracked.filter((file) => OUTSIDE.test(readFileSync(join(root, file), 'utf8')));
  assert.deepEqual(citing, []);
});

test('no comment, test or doc points at a document the repository does not hold', () => {
  const tracked = execFileSync(
    'git',
    ['ls-files', '-z', '--', 'src', 'test', 'docs', 'demo', 'bench', 'scripts', 'examples', 'README.md'],
    {
      cwd: root,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter((file) => /\.(ts|tsx|js|mjs|cjs|md|html|vue|svelte)$/.test(file));
  const pointing = tracked.flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (UNSHIPPED.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );
  assert.deepEqual(pointing, []);
});

// Words that tell how the code came to be rather than why it is so; spelled in pieces so this file
// does not match itself. ("No longer" is left out: it also says what a running widget finds.)
const NARRATING = new RegExp(['\\b(as be', 'fore|previ', 'ously|form', 'erly|used to ', 'be)\\b'].join(''), 'i');

test("no comment in src/ narrates the code's history", () => {
  const tracked = execFileSync('git', ['ls-files', '-z', '--', 'src'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((file) => /\.(ts|js|mjs|css|html)$/.test(file));
  const narrating = tracked.flatMap((file) =>
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (NARRATING.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );
  assert.deepEqual(narrating, []);
});
