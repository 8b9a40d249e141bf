// `npm test`: the Node tests (node:test through tsx) and the real-browser tests
// (@web/test-runner in Chromium), then one line `N passed, N failed` summing both.
// `--node-only` / `--browser-only` run one side; extra arguments filter test files by substring.
// `--long-fuzz` (`npm run fuzz`) runs the fuzz properties long: CHATBOT_FUZZ=long (test/helpers/fuzz.ts).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { findBrowser, INSTALL_HINT } from './find-browser.mjs';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const nodeOnly = args.includes('--node-only');
const browserOnly = args.includes('--browser-only');
const filters = args.filter((a) => !a.startsWith('--'));
if (args.includes('--long-fuzz')) process.env.CHATBOT_FUZZ = 'long';
const work = mkdtempSync(join(tmpdir(), 'chatbot-widget-test-'));

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : [path];
  });
}

const matches = (file) => filters.length === 0 || filters.some((f) => file.includes(f));

// Tests mirror src/: the two elements' folders run in Chromium, except `*.node.test.ts` files
// there (an element's plain modules, tested under Node); everything else runs under Node.
const BROWSER_TEST_FOLDERS = ['test/chatbot-widget/', 'test/chatbot-usage/'];
const runsInBrowser = (file) =>
  BROWSER_TEST_FOLDERS.some((folder) => relative(root, file).startsWith(folder)) && !file.endsWith('.node.test.ts');

function run(command, commandArgs, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, commandArgs, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

function readCounts(file) {
  try {
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    return JSON.parse(lines[lines.length - 1]);
  } catch {
    return undefined;
  }
}

const totals = { passed: 0, failed: 0, skipped: 0 };
/** Each failed Node test, named again at the end of the run. */
const failures = [];
let exitCode = 0;

/** Adds one suite's figures to the totals; a suite that reported nothing counts as a failure. */
function addCounts(suite, countFile, code) {
  const counts = readCounts(countFile);
  if (!counts) {
    console.error(`The ${suite} test run ended without reporting its results.`);
    totals.failed++;
  } else {
    for (const key of Object.keys(totals)) totals[key] += counts[key];
    failures.push(...(counts.failures ?? []));
  }
  if (code !== 0) exitCode = 1;
}

/**
 * Node test files run three at a time: many spend part of their time waiting (a server starting,
 * `next build` writing, a page loading), and a third file fills that time. On a two-core machine
 * the Node side took 292 s two at a time and 236 to 252 s three at a time (four: 231 s, with more
 * contention for the tests of races and time-outs).
 */
const NODE_FILES_AT_ONCE = 3;

async function nodeSuite() {
  const files = walk(join(root, 'test'))
    .filter((f) => f.endsWith('.test.ts') && !runsInBrowser(f))
    .map((f) => relative(root, f))
    .filter(matches)
    .sort();
  if (!files.length) return;
  const countFile = join(work, 'node-counts.json');
  const nodeArgs = [
    '--import',
    'tsx',
    '--test',
    `--test-concurrency=${NODE_FILES_AT_ONCE}`,
    `--test-timeout=${process.env.CHATBOT_FUZZ === 'long' ? 3_600_000 : 120_000}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${join(root, 'scripts/node-test-counter.mjs')}`,
    `--test-reporter-destination=${countFile}`,
    ...files,
  ];
  const code = await run(process.execPath, nodeArgs);
  addCounts('Node', countFile, code);
}

async function browserSuite() {
  const files = walk(join(root, 'test'))
    .filter((f) => f.endsWith('.test.ts') && runsInBrowser(f))
    .filter(matches);
  if (!files.length) return;
  const browser = await findBrowser();
  if (!browser) {
    console.error(INSTALL_HINT);
    totals.failed++;
    exitCode = 1;
    return;
  }
  const countFile = join(work, 'browser-counts.json');
  const code = await run(
    process.execPath,
    [join(root, 'node_modules/@web/test-runner/dist/bin.js'), '--config', 'web-test-runner.config.mjs'],
    // The config finds its two browsers itself (scripts/find-browser.mjs): screenshots in the full one.
    { WTR_COUNT_FILE: countFile, WTR_FILES: JSON.stringify(files.map((f) => relative(root, f))) },
  );
  addCounts('browser', countFile, code);
}

// One side after the other: on a two-core machine both are CPU-bound, and running them at once
// measured no faster (7 min 35 s against about 7 min) while making timing-sensitive tests busier.
if (!browserOnly) await nodeSuite();
if (!nodeOnly) await browserSuite();

if (totals.failed > 0) exitCode = 1;
if (failures.length) {
  console.log('\nFailed:');
  for (const f of failures) console.log(`  ${f.file ? relative(root, f.file) : '?'}: ${f.name}\n${f.error.replace(/^/gm, '      ')}`);
}
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(exitCode);
