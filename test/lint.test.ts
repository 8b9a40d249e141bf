// ESLint (eslint.config.js: unhandled promises, loose equality, unused code, Lit template and
// custom-element mistakes) and Prettier (.prettierrc.json, .prettierignore) over the whole tree.
// `npx eslint . --fix` and `npx prettier --write .` repair most of what these report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs a tool's command-line script with this Node, without blocking the other tests of the run. */
function run(script: string, args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`${root}node_modules/${script}`, ...args], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, output }));
  });
}

test('ESLint reports no problems', async () => {
  const result = await run('eslint/bin/eslint.js', ['.', '--max-warnings', '0']);
  assert.equal(result.status, 0, `eslint reported:\n${result.output}`);
});

test('every file Prettier formats is formatted', async () => {
  const result = await run('prettier/bin/prettier.cjs', ['--check', '.', '--log-level', 'warn']);
  assert.equal(result.status, 0, `prettier --check reported (run npx prettier --write .):\n${result.output}`);
});
