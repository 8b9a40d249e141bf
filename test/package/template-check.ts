// Helpers of the template typing tests (template-types-*.test.ts): each framework's own checker
// runs on test/fixtures/types against the built package (resolved by name, through the exports
// map). The Ok files must compile cleanly, and in the Wrong files exactly the lines marked `wrong`
// (a wrong attribute value, property type or event detail) must fail.
//
// tsc and vue-tsc keep their incremental state in the tests' cache (test-cache.ts), one per
// configuration: TypeScript checks again every file whose text changed since, and those that
// depend on it, and reports the errors of the others from the state, so a run over unchanged
// typings skips re-checking the frameworks' own declarations. svelte-check does the same with
// its --incremental, whose state is the fixture folder's .svelte-check/ (ignored by git).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testCache } from '../helpers/test-cache.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixtures = join(root, 'test/fixtures/types');
const bin = (name: string) => join(root, 'node_modules/.bin', name);

function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', () => resolve(output));
  });
}

/**
 * Runs tsc or vue-tsc (`command`) on the project `tsconfig` with its incremental state. The state
 * is copied to a folder of this run and renamed back into place after, so two checks at once
 * never write one file.
 */
async function runIncremental(command: string, tsconfig: string, args: string[]): Promise<string> {
  const key = createHash('sha256')
    .update([command, readFileSync(tsconfig, 'utf8'), ...args].join('\0'))
    .digest('hex')
    .slice(0, 16);
  const kept = join(testCache, `types-${key}.tsbuildinfo`);
  mkdirSync(testCache, { recursive: true });
  const scratch = mkdtempSync(join(testCache, 'checking-'));
  const state = join(scratch, 'state.tsbuildinfo');
  try {
    if (existsSync(kept)) copyFileSync(kept, state);
    const output = await run(command, ['-p', tsconfig, ...args, '--incremental', '--tsBuildInfoFile', state]);
    if (existsSync(state)) renameSync(state, kept);
    return output;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `file:line` of every error in a checker's output (tsc/vue-tsc `file(line,col): error`, svelte-check machine output). */
export function errorLines(output: string): string[] {
  const tsc = [...output.matchAll(/^(\S+?)\((\d+),\d+\): error TS\d+/gm)].map((m) => `${m[1]!.split('/').pop()}:${m[2]}`);
  const svelte = [...output.matchAll(/^\d+ ERROR "([^"]+)" (\d+):\d+/gm)].map((m) => `${m[1]!.split('/').pop()}:${m[2]}`);
  return [...tsc, ...svelte].sort();
}

/** `file:line` of every line marked wrong in the given fixture files. */
export function markedLines(...files: string[]): string[] {
  return files
    .flatMap((file) =>
      readFileSync(join(fixtures, file), 'utf8')
        .split('\n')
        .map((line, index) => (/\/\* wrong \*\/|<!-- wrong -->/.test(line) ? `${file.split('/').pop()}:${index + 1}` : undefined))
        .filter((entry): entry is string => !!entry),
    )
    .sort();
}

const builtTypes = ['react', 'vue', 'svelte'].every((entry) => existsSync(join(root, `dist/lib/${entry}/index.d.ts`)));

/** Fails unless the built typings of every framework entry are there. */
export function assertBuilt(): void {
  assert.ok(builtTypes, 'dist/ is missing: run `npm run build`');
}

export const checkers = {
  tsc: (tsconfig: string, ...extra: string[]) => runIncremental(bin('tsc'), join(fixtures, tsconfig), ['--pretty', 'false', ...extra]),
  vueTsc: (tsconfig: string) => runIncremental(bin('vue-tsc'), join(fixtures, tsconfig), ['--pretty', 'false']),
  svelteCheck: (folder: string) =>
    run(bin('svelte-check'), [
      '--workspace',
      join(fixtures, folder),
      '--tsconfig',
      join(fixtures, folder, 'tsconfig.json'),
      '--output',
      'machine',
      '--incremental',
    ]),
};
