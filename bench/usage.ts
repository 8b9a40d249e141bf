/**
 * `<chatbot-usage>`'s first view on the 1,000,000-message demo database: the built standalone
 * bundle (dist/chatbot-widget.js and its usage chunk) in real Chromium, the real signing handler
 * in front of the real emulator over loopback HTTP, as on a site.
 *
 * For two ranges (the last 12 months of the data, and all 25 months, which the chart groups by
 * year) it prints the median of several fresh page loads of:
 *   answers  from the first admin request to the last answer of the handler (Resource Timing);
 *   render   from that last answer to the element's complete first render (all figures, bars,
 *            totals and busiest users in the DOM: the `chatbot-usage:rendered` mark), target
 *            <= 300 ms; and to the next painted frame;
 * and, as the baseline, the same monthly figures put into a plain table row by row with
 * textContent (the simplest page one could write) on the same page.
 * It also checks the figures at this scale: each bar against count-by-month, the total against
 * count, and both against `chatbot-api usage --table` and `count` for the same range.
 *
 * The seed file is bench/emulator.ts's (bench/.cache); the imported database is kept there too
 * (bench/.cache/usage-bench.sqlite), so only the first run pays the import.
 *
 *   npm run bench -- usage
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { findFullBrowser, BROWSER_ARGS, INSTALL_HINT } from '../scripts/find-browser.mjs';
import { createEmulator, type ChatbotConfig } from '../src/emulator/index.js';
import { adminTokenAuthorizer, createSigningHandler } from '../src/server/index.js';
import { toNodeListener } from '../src/server/adapters/node.js';
import { BENCH_CACHE, cachedSeedFile } from './support/seed-cache.js';

const COUNT = 1_000_000;
const RUNS = 9;
const TARGET_MS = 300;
const root = new URL('..', import.meta.url).pathname;
const BOT: ChatbotConfig = { id: 'bench', apiKey: 'pk_bench', apiSecret: 'sk_bench', tier: 'premium' };
const ADMIN_TOKEN = 'bench-admin-token-0123456789';
const dbPath = join(BENCH_CACHE, 'usage-bench.sqlite');
const RANGES = [
  { name: '12 months', from: '2024-07-01', to: '2025-07-01' },
  { name: '25 months, by year', from: '2023-06-01', to: '2025-07-01' },
];

const executablePath = await findFullBrowser();
if (!executablePath) throw new Error(INSTALL_HINT);

// 1. The bundle, as a site serves it.
const build = spawnSync(`${root}node_modules/.bin/vite`, ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const dist = join(root, 'dist');
const bundleFiles = new Map(
  readdirSync(dist)
    .filter((name) => /^chatbot-widget[\w.-]*\.js$/.test(name))
    .map((name) => [`/${name}`, readFileSync(join(dist, name))]),
);
// The chunk this build's bundle imports (dist/ may still hold those of earlier builds).
const chunkName = /import\([`'"]\.\/(chatbot-widget-usage-view-[\w-]+\.js)[`'"]\)/.exec(
  bundleFiles.get('/chatbot-widget.js')?.toString('utf8') ?? '',
)?.[1];
const usageChunk = chunkName ? ([`/${chunkName}`, bundleFiles.get(`/${chunkName}`)!] as const) : undefined;
if (!usageChunk?.[1]) throw new Error('the bundle imports no usage-view chunk: <chatbot-usage> is not loaded lazily');

// 2. The 1M-message database, imported once.
const seedPath = await cachedSeedFile(COUNT, BOT.id);
const fresh = !existsSync(dbPath);
const emulator = createEmulator({ db: dbPath, chatbots: [BOT], replySource: { name: 'none', reply: async () => 'ok' } });
if (fresh) {
  const started = performance.now();
  try {
    const { imported } = await emulator.importSeed(seedPath);
    console.log(
      `imported ${imported.toLocaleString('en')} messages into ${dbPath} in ${((performance.now() - started) / 1000).toFixed(1)} s (kept for the next run)`,
    );
  } catch (error) {
    emulator.close();
    for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
    throw error;
  }
}
const upstream = await emulator.listen({ port: 0, host: '127.0.0.1' });

// 3. Handler and page on one origin.
const handler = toNodeListener(
  createSigningHandler({
    apiBaseUrl: upstream.url,
    apiKey: BOT.apiKey,
    apiSecret: BOT.apiSecret,
    chatbotId: BOT.id,
    basePath: '/chatbot',
    authorizeAdmin: adminTokenAuthorizer(ADMIN_TOKEN),
    logger: { warn() {}, error() {} },
  }),
);
const pageOf = (from: string, to: string) => `<!doctype html><html lang="en"><meta charset="utf-8"><title>usage</title><body>
<script type="module" src="/chatbot-widget.js"></script>
<chatbot-usage endpoint="/chatbot" admin-token="${ADMIN_TOKEN}" from="${from}" to="${to}"></chatbot-usage>`;
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname.startsWith('/chatbot/')) return handler(req, res);
  const file = bundleFiles.get(url.pathname);
  if (file) {
    res.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store' });
    return res.end(file);
  }
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(pageOf(url.searchParams.get('from') ?? '', url.searchParams.get('to') ?? ''));
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Run {
  answers: number;
  render: number;
  paint: number;
  baseline: number;
  bars: { month: string; messages: number }[];
  total: number;
}

async function firstView(from: string, to: string): Promise<Run> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${origin}/?from=${from}&to=${to}`);
  await page.waitForFunction(() => performance.getEntriesByName('chatbot-usage:rendered').length > 0, null, { timeout: 60_000 });
  const run = await page.evaluate(async () => {
    const el = document.querySelector('chatbot-usage')!;
    const rendered = performance.getEntriesByName('chatbot-usage:rendered')[0]!.startTime;
    const painted = await new Promise<number>((resolve) =>
      requestAnimationFrame(() => requestAnimationFrame(() => resolve(performance.now()))),
    );
    const admin = performance.getEntriesByType('resource').filter((e) => e.name.includes('/chatbot/admin/')) as PerformanceResourceTiming[];
    const firstRequest = Math.min(...admin.map((e) => e.startTime));
    const lastAnswer = Math.max(...admin.map((e) => e.responseEnd));
    const bars = [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part~="bar"]')].map((bar) => ({
      month: bar.dataset.month!,
      messages: Number(bar.querySelector('.figure')!.textContent!.replace(/\D/g, '')),
    }));
    const total = Number(el.shadowRoot!.querySelector('[data-total="messages"] dd')!.textContent!.replace(/\D/g, ''));
    // Baseline: the same monthly figures into a plain table, row by row through textContent.
    const months = await (
      await fetch(admin.find((e) => e.name.includes('count-by-month'))!.name, {
        headers: { 'X-Admin-Token': el.getAttribute('admin-token')! },
      })
    ).json();
    const started = performance.now();
    const table = document.createElement('table');
    for (const m of months.data) {
      const tr = table.insertRow();
      for (const value of [m.month, m.messageCount, m.userMessageCount, m.distinctUsers, m.distinctSessions, m.tokenTotal])
        tr.insertCell().textContent = Number.isFinite(value) ? value.toLocaleString() : value;
    }
    document.body.append(table);
    table.getBoundingClientRect();
    const baseline = performance.now() - started;
    return { answers: lastAnswer - firstRequest, render: rendered - lastAnswer, paint: painted - lastAnswer, baseline, bars, total };
  });
  await page.close();
  return run;
}

/** The chatbot-api command, asynchronously: the emulator it talks to answers from this process. */
async function apiCli(args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/chatbot-api.ts', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH ?? '',
      CHATBOT_API_BASE_URL: upstream.url,
      CHATBOT_API_KEY: BOT.apiKey,
      CHATBOT_API_SECRET: BOT.apiSecret,
      CHATBOT_ID: BOT.id,
    },
  });
  return stdout;
}

async function adminGet(route: string): Promise<{ data: unknown }> {
  const response = await fetch(`${origin}/chatbot/admin/${route}`, { headers: { 'X-Admin-Token': ADMIN_TOKEN } });
  return (await response.json()) as { data: unknown };
}

let failed = false;
const lines: string[] = [];
for (const range of RANGES) {
  await firstView(range.from, range.to); // warm: the browser's module cache, SQLite's page cache
  const runs: Run[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await firstView(range.from, range.to));

  // The figures at this scale: the element against the routes and the command, for the same range.
  const months = (await adminGet(`messages/count-by-month?from=${range.from}&to=${range.to}`)).data as {
    month: string;
    messageCount: number;
  }[];
  const count = (await adminGet(`messages/count?from=${range.from}&to=${range.to}`)).data as number;
  const table = await apiCli(['usage', '--from', range.from, '--to', range.to, '--table']);
  const cliCount = JSON.parse(await apiCli(['count', '--from', range.from, '--to', range.to])).data as number;
  const cliMonths = months.map((m) =>
    Number(
      table
        .split('\n')
        .find((l) => l.startsWith(m.month))
        ?.trim()
        .split(/\s{2,}/)[1]
        ?.replace(/\D/g, ''),
    ),
  );
  const shown = runs.at(-1)!;
  const equalFigures =
    JSON.stringify(shown.bars) === JSON.stringify(months.map((m) => ({ month: m.month, messages: m.messageCount }))) &&
    shown.total === count &&
    cliCount === count &&
    JSON.stringify(cliMonths) === JSON.stringify(months.map((m) => m.messageCount));

  const render = median(runs.map((r) => r.render));
  const ok = render <= TARGET_MS && equalFigures;
  failed ||= !ok;
  lines.push(
    `  ${range.name.padEnd(20)} ${`${median(runs.map((r) => r.answers)).toFixed(0)} ms`.padStart(8)} ${`${render.toFixed(1)} ms`.padStart(9)} ${`${median(runs.map((r) => r.paint)).toFixed(1)} ms`.padStart(9)}  ${
      render <= TARGET_MS ? 'ok  ' : 'OVER'
    } ${`${median(runs.map((r) => r.baseline)).toFixed(2)} ms`.padStart(9)}   ${shown.bars.length} bars, ${count.toLocaleString('en')} messages, ${
      equalFigures ? 'equal to count-by-month, count and chatbot-api' : 'FIGURES DIFFER from the routes or chatbot-api'
    }`,
  );
}

await browser.close();
server.close();
await upstream.close();
emulator.close();

const kB = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;
const main = bundleFiles.get('/chatbot-widget.js')!;
console.log(
  `\n<chatbot-usage> first view on ${COUNT.toLocaleString('en')} messages (handler + emulator over loopback, Chromium), median of ${RUNS} page loads\n`,
);
console.log(
  `  ${'range'.padEnd(20)} ${'answers'.padStart(8)} ${'render'.padStart(9)} ${'painted'.padStart(9)}  ${'<= ' + TARGET_MS}  ${'baseline'.padStart(9)}   figures`,
);
for (const line of lines) console.log(line);
console.log(
  "\n  answers: first admin request to the handler's last answer; render/painted: from that answer to the complete first render / the next frame",
);
console.log('  baseline: the same monthly figures as plain table rows through textContent (the simplest page one could write)');
console.log(
  `\n  weight: dist/chatbot-widget.js ${kB(gzipSync(main, { level: 9 }).length)} gzip (loads for every page), ${usageChunk[0].slice(1)} ${kB(gzipSync(usageChunk[1], { level: 9 }).length)} gzip (only where <chatbot-usage> is used)`,
);
process.exit(failed ? 1 : 0);
