// The typings for framework templates, checked by each framework's own checker against the built
// package (resolved by name, through the exports map): `tsc` for JSX with React 19's and React
// 18's typings, `vue-tsc` for Vue templates, `svelte-check` for Svelte. In test/fixtures/types,
// the Ok files must compile cleanly, and in the Wrong files exactly the lines marked `wrong`
// (a wrong attribute value, property type or event detail) must fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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

/** `file:line` of every error in a checker's output (tsc/vue-tsc `file(line,col): error`, svelte-check machine output). */
function errorLines(output: string): string[] {
  const tsc = [...output.matchAll(/^(\S+?)\((\d+),\d+\): error TS\d+/gm)].map((m) => `${m[1]!.split('/').pop()}:${m[2]}`);
  const svelte = [...output.matchAll(/^\d+ ERROR "([^"]+)" (\d+):\d+/gm)].map((m) => `${m[1]!.split('/').pop()}:${m[2]}`);
  return [...tsc, ...svelte].sort();
}

/** `file:line` of every line marked wrong in the given fixture files. */
function markedLines(...files: string[]): string[] {
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

test('JSX, Vue and Svelte templates: right uses compile, each wrong attribute, property or event detail fails', async () => {
  assert.ok(builtTypes, 'dist/ is missing: run `npm run build`');
  const [react19, react18, vue, svelte] = await Promise.all([
    run(bin('tsc'), ['-p', join(fixtures, 'tsconfig.react19.json'), '--pretty', 'false']),
    run(bin('tsc'), ['-p', join(fixtures, 'tsconfig.react18.json'), '--pretty', 'false', '--listFiles']),
    run(bin('vue-tsc'), ['-p', join(fixtures, 'tsconfig.vue.json'), '--pretty', 'false']),
    run(bin('svelte-check'), ['--workspace', join(fixtures, 'svelte'), '--tsconfig', join(fixtures, 'svelte/tsconfig.json'), '--output', 'machine']),
  ]);
  assert.match(react18, /@types\/react-18\/index\.d\.ts/, 'the React 18 check reads React 18 typings');
  const react = markedLines('react/ok.tsx', 'react/wrong.tsx');
  assert.ok(react.length >= 8, 'the React fixture marks its wrong lines');
  assert.deepEqual(errorLines(react19), react, `React 19 typings:\n${react19}`);
  assert.deepEqual(errorLines(react18), react, `React 18 typings:\n${react18}`);
  assert.deepEqual(errorLines(vue), markedLines('vue/Ok.vue', 'vue/Wrong.vue'), `vue-tsc:\n${vue}`);
  assert.match(svelte, /COMPLETED/, `svelte-check ran:\n${svelte}`);
  assert.deepEqual(errorLines(svelte), markedLines('svelte/Ok.svelte', 'svelte/Wrong.svelte'), `svelte-check:\n${svelte}`);
});
