// tsx runs the tests and `npm start` without checking types; this keeps the whole tree —
// sources, tests, demo and benchmarks — passing `tsc --strict`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

test('the whole project type-checks under strict TypeScript', () => {
  const result = spawnSync(process.execPath, [`${root}node_modules/typescript/bin/tsc`, '-p', 'tsconfig.json', '--noEmit'], {
    cwd: root,
    encoding: 'utf8',
  });
  assert.equal(result.status, 0, `tsc reported:\n${result.stdout}${result.stderr}`);
});
