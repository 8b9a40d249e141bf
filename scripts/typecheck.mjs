// `npm run typecheck`: every type check of the project, two at a time, each named with its time:
// - the project's own TypeScript (src, test, demo, bench, scripts) with tsc --strict;
// - the package's typings as each framework's checker sees them in a site's templates
//   (test/fixtures/types): the Ok files compile, and in the Wrong files exactly the lines marked
//   `wrong` (a wrong attribute value, property type or event detail) fail;
// - the README's React snippet, against the built package;
// - the framework examples, each with its own checker (and the React one with React 18's
//   typings too), as a site owner checks them.
// All but the first read the built package (dist/, resolved by name through its exports map), so
// they need `npm run build` (which `npm install` runs). CI runs this before `npm test`; any check
// failing fails it.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = (name) => join(root, 'node_modules/.bin', name);
const fixtures = join(root, 'test/fixtures/types');
const examples = join(root, 'examples');
/** TypeScript's incremental state of the typing checks, one file per configuration: a second run re-checks only what changed. */
const incrementalState = join(root, 'node_modules/.cache/chatbot-widget-typecheck');
/** Checks at once: each checker is mostly one thread, and CI runs lint beside this. */
const CHECKS_AT_ONCE = 2;

/** Runs `command` and answers whether it started, its exit code and everything it printed. */
function run(command, args, cwd = root) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ started: false, code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolve({ started: true, code: code ?? 1, output }));
  });
}

/**
 * tsc or vue-tsc on the project `tsconfig` with its incremental state. The state is copied to a
 * folder of this run and renamed back into place after, so two runs at once never write one file.
 */
async function runIncremental(command, tsconfig, args = []) {
  const key = createHash('sha256')
    .update([command, readFileSync(tsconfig, 'utf8'), ...args].join('\0'))
    .digest('hex')
    .slice(0, 16);
  const kept = join(incrementalState, `${basename(command)}-${key}.tsbuildinfo`);
  mkdirSync(incrementalState, { recursive: true });
  const scratch = mkdtempSync(join(incrementalState, 'checking-'));
  const state = join(scratch, 'state.tsbuildinfo');
  try {
    if (existsSync(kept)) copyFileSync(kept, state);
    const result = await run(command, ['-p', tsconfig, '--pretty', 'false', ...args, '--incremental', '--tsBuildInfoFile', state]);
    if (existsSync(state)) renameSync(state, kept);
    return result;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** `file:line` of every error in a checker's output (tsc/vue-tsc `file(line,col): error`, svelte-check machine output). */
function errorLines(output) {
  const tsc = [...output.matchAll(/^(\S+?)\((\d+),\d+\): error TS\d+/gm)].map((m) => `${basename(m[1])}:${m[2]}`);
  const svelte = [...output.matchAll(/^\d+ ERROR "([^"]+)" (\d+):\d+/gm)].map((m) => `${basename(m[1])}:${m[2]}`);
  return [...tsc, ...svelte].sort();
}

/** `file:line` of every line marked wrong in the given fixture files. */
function markedLines(...files) {
  return files
    .flatMap((file) =>
      readFileSync(join(fixtures, file), 'utf8')
        .split('\n')
        .map((line, index) => (/\/\* wrong \*\/|<!-- wrong -->/.test(line) ? `${basename(file)}:${index + 1}` : undefined))
        .filter(Boolean),
    )
    .sort();
}

/** What is in `all` and not in `taken`, each line as often as it is in one more than the other. */
function without(all, taken) {
  const left = [...taken];
  return all.filter((line) => {
    const at = left.indexOf(line);
    if (at === -1) return true;
    left.splice(at, 1);
    return false;
  });
}

/**
 * The verdict of a checker run over typing fixtures: it passes when its errors are exactly the
 * lines the fixture `files` mark wrong, each once. Otherwise it says whether the checker did not
 * run at all, or which marked lines compiled (the typings let a wrong use through) and which
 * other lines failed (the typings refuse a right use), with the checker's output.
 */
function fixtureVerdict({ started, output }, files) {
  if (!started) return notStarted(output);
  const marked = markedLines(...files);
  if (marked.length === 0)
    return failedWith(`${files.join(' and ')} mark no line \`wrong\`: the Wrong file marks each line that must fail`);
  const unplaced = output.split('\n').filter((line) => /error TS\d+/.test(line) && !/^\S+?\(\d+,\d+\): error TS\d+/.test(line));
  if (unplaced.length) return failedWith(`the checker failed before it checked the fixtures:\n${output}`);
  const found = errorLines(output);
  const compiled = without(marked, found);
  const unexpected = without(found, marked);
  if (!compiled.length && !unexpected.length) return passed();
  return failedWith(
    [
      compiled.length ? `lines marked wrong that compiled (the typings let a wrong use through): ${compiled.join(', ')}` : '',
      unexpected.length
        ? `errors on lines not marked wrong, or more than one on a marked line (the typings refuse a right use): ${unexpected.join(', ')}`
        : '',
      output,
    ]
      .filter(Boolean)
      .join('\n'),
  );
}

/** A check's verdict: `problem` says what is wrong, in words and with the checker's output. */
const passed = () => ({});
const failedWith = (problem) => ({ problem });
const notStarted = (output) => failedWith(`the checker could not be started: ${output.trim()} (run \`npm install\`)`);
const byExitCode = ({ started, code, output }) => (!started ? notStarted(output) : code === 0 ? passed() : failedWith(output));

/**
 * The package as the examples resolve it by name: examples/node_modules/chatbot-widget, a link
 * to the repository (each example depends on `"chatbot-widget": "file:../.."`, and a lookup from
 * an example's folder reaches this parent node_modules). The example tests make the same link
 * (test/examples/support/run-example.ts); scripts do not import from test/.
 */
function linkPackage() {
  const link = join(examples, 'node_modules/chatbot-widget');
  mkdirSync(join(examples, 'node_modules'), { recursive: true });
  try {
    lstatSync(link);
  } catch {
    symlinkSync('../..', link, 'dir');
  }
}

/** A typing fixture check: `checker` on the fixtures' `tsconfig`, its errors exactly the lines `files` mark wrong. */
const fixtureCheck = (checker, tsconfig, files) => async () =>
  fixtureVerdict(await runIncremental(bin(checker), join(fixtures, tsconfig)), files);
const REACT_FIXTURES = ['react/ok.tsx', 'react/wrong.tsx'];

const CHECKS = [
  {
    name: 'the project (tsc --strict)',
    readsDist: false,
    run: () => run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit']).then(byExitCode),
  },
  {
    name: 'typings in JSX, React 19 (test/fixtures/types/react)',
    readsDist: true,
    run: fixtureCheck('tsc', 'tsconfig.react19.json', REACT_FIXTURES),
  },
  {
    name: "typings in JSX, React 18's typings",
    readsDist: true,
    async run() {
      const result = await runIncremental(bin('tsc'), join(fixtures, 'tsconfig.react18.json'), ['--listFiles']);
      if (result.started && !/@types\/react-18\/index\.d\.ts/.test(result.output))
        return failedWith(`the React 18 check did not read React 18's typings:\n${result.output}`);
      return fixtureVerdict(result, REACT_FIXTURES);
    },
  },
  {
    name: 'typings in Vue templates (vue-tsc)',
    readsDist: true,
    run: fixtureCheck('vue-tsc', 'tsconfig.vue.json', ['vue/Ok.vue', 'vue/Wrong.vue']),
  },
  {
    name: 'typings in Svelte components (svelte-check)',
    readsDist: true,
    async run() {
      const svelte = join(fixtures, 'svelte');
      const args = ['--workspace', svelte, '--tsconfig', join(svelte, 'tsconfig.json'), '--output', 'machine', '--incremental'];
      const result = await run(bin('svelte-check'), args);
      if (result.started && !/COMPLETED/.test(result.output)) return failedWith(`svelte-check did not finish:\n${result.output}`);
      return fixtureVerdict(result, ['svelte/Ok.svelte', 'svelte/Wrong.svelte']);
    },
  },
  {
    name: "the README's React snippet",
    readsDist: true,
    async run() {
      const readme = readFileSync(join(root, 'README.md'), 'utf8');
      const snippets = [...readme.matchAll(/```tsx\n([^]*?)```/g)].map((m) => m[1]);
      if (snippets.length !== 1) return failedWith(`the README should have one React (tsx) snippet; it has ${snippets.length}`);
      if (!snippets[0].includes("from 'chatbot-widget/react'"))
        return failedWith("the README's React snippet does not import chatbot-widget/react");
      // Beside the React fixtures, so it resolves the package and React's typings as they do.
      const dir = mkdtempSync(join(fixtures, 'readme-'));
      try {
        writeFileSync(join(dir, 'snippet.tsx'), snippets[0]);
        writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ extends: '../tsconfig.react19.json', files: ['snippet.tsx'] }));
        const { code, output } = await run(bin('tsc'), ['-p', join(dir, 'tsconfig.json'), '--pretty', 'false']);
        return code === 0 && errorLines(output).length === 0 ? passed() : failedWith(output);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  },
  {
    name: 'examples/react (tsc)',
    readsDist: true,
    run: () => run(bin('tsc'), ['-p', 'tsconfig.json'], join(examples, 'react')).then(byExitCode),
  },
  {
    name: "examples/react with React 18's typings (tsc)",
    readsDist: true,
    run() {
      const dir = join(examples, 'react');
      // Beside the example (in its node_modules, where `npm install` writes too), so its `types`
      // resolve from there as they do for the example's own tsconfig.
      const tsconfig = join(dir, 'node_modules/.tsconfig.react18.json');
      const react18 = (pkg) => join(root, 'node_modules', pkg);
      mkdirSync(join(dir, 'node_modules'), { recursive: true });
      writeFileSync(
        tsconfig,
        JSON.stringify({
          extends: join(dir, 'tsconfig.json'),
          compilerOptions: { paths: { react: [react18('@types/react-18/index.d.ts')], 'react/*': [react18('@types/react-18/*')] } },
          include: [join(dir, 'src')],
        }),
      );
      return run(bin('tsc'), ['-p', tsconfig], dir).then(byExitCode);
    },
  },
  {
    name: 'examples/vue (vue-tsc)',
    readsDist: true,
    run: () => run(bin('vue-tsc'), ['-p', 'tsconfig.json'], join(examples, 'vue')).then(byExitCode),
  },
  {
    name: 'examples/svelte (svelte-check)',
    readsDist: true,
    run: () => run(bin('svelte-check'), ['--fail-on-warnings'], join(examples, 'svelte')).then(byExitCode),
  },
];

const built = ['react', 'vue', 'svelte'].every((entry) => existsSync(join(root, `dist/lib/${entry}/index.d.ts`)));
if (built) linkPackage();

/** Runs one check and prints its line; answers whether it passed. */
async function runCheck(check) {
  const started = performance.now();
  const verdict =
    check.readsDist && !built
      ? failedWith('dist/ is missing: run `npm run build` first (npm install runs it too).')
      : await check.run().catch((error) => failedWith(String(error?.stack ?? error)));
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  if (!verdict.problem) console.log(`ok      ${check.name} (${seconds} s)`);
  else console.log(`FAILED  ${check.name} (${seconds} s)\n${verdict.problem.trimEnd().replace(/^/gm, '        ')}`);
  return !verdict.problem;
}

const queue = [...CHECKS];
const results = [];
await Promise.all(
  Array.from({ length: CHECKS_AT_ONCE }, async () => {
    while (queue.length) results.push(await runCheck(queue.shift()));
  }),
);
const failures = results.filter((ok) => !ok).length;
console.log(failures ? `\n${failures} of ${CHECKS.length} type checks failed` : `\nAll ${CHECKS.length} type checks passed`);
process.exit(failures ? 1 : 0);
