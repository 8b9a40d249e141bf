// `npm test`: the Node tests (node:test through tsx) and the real-browser tests
// (@web/test-runner in Chromium), then one line `N passed, N failed` summing both.
// `--node-only` / `--browser-only` run one side; extra arguments filter test files by substring.
// `--long-fuzz` (`npm run fuzz`) runs the fuzz properties long: CHATBOT_FUZZ=long (test/helpers/fuzz.ts).
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, readdirSync } from 'node:fs';
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

/** Runs a command to its end; its output goes to the terminal, or to the file `output` when given. */
function run(command, commandArgs, env = {}, output = undefined) {
  return new Promise((resolve) => {
    const out = output === undefined ? 'inherit' : openSync(output, 'w');
    const stdio = output === undefined ? 'inherit' : ['ignore', out, out];
    const child = spawn(command, commandArgs, { cwd: root, stdio, env: { ...process.env, ...env } });
    child.on('exit', (code, signal) => {
      if (typeof out === 'number') closeSync(out);
      resolve(code ?? (signal ? 1 : 0));
    });
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
let exitCode = 0;

/** Adds one suite's figures to the totals; a suite that reported nothing counts as a failure. */
function addCounts(suite, countFile, code) {
  const counts = readCounts(countFile);
  if (!counts) {
    console.error(`The ${suite} test run ended without reporting its results.`);
    totals.failed++;
  } else {
    for (const key of Object.keys(totals)) totals[key] += counts[key];
  }
  if (code !== 0) exitCode = 1;
}

async function nodeSuite(output) {
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
    '--test-concurrency=2',
    `--test-timeout=${process.env.CHATBOT_FUZZ === 'long' ? 3_600_000 : 120_000}`,
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    `--test-reporter=${join(root, 'scripts/node-test-counter.mjs')}`,
    `--test-reporter-destination=${countFile}`,
    ...files,
  ];
  const code = await run(process.execPath, nodeArgs, {}, output);
  addCounts('Node', countFile, code);
}

async function browserSuite(output) {
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
    { CHROME_PATH: browser, WTR_COUNT_FILE: countFile, WTR_FILES: JSON.stringify(files.map((f) => relative(root, f))) },
    output,
  );
  addCounts('browser', countFile, code);
}

if (nodeOnly) await nodeSuite();
else if (browserOnly) await browserSuite();
else {
  // Both sides at once: much of either is waiting (on builds, servers, the browser), so together
  // they finish well before one after the other. The Node side prints as it goes; the browser
  // side's report is held in a file and printed after it, so the two never interleave.
  const browserLog = join(work, 'browser-output.log');
  const browserDone = browserSuite(browserLog);
  await nodeSuite();
  await browserDone;
  process.stdout.write(`\n${readFileSync(browserLog, 'utf8')}`);
}

if (totals.failed > 0) exitCode = 1;
console.log(`\n${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(exitCode);
