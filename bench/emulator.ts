/**
 * The emulator on a million messages over 24 months, in a SQLite file, against these targets:
 *
 *   --seed import of 1,000,000 messages                       < 60 s
 *   count and count-by-month over the whole range (median)    < 50 ms each
 *   page 1 of messages, with any filter (median)               < 10 ms
 *   page 5,000 of 100 (median)                                 < 100 ms
 *
 * Every read is a real signed HTTP request to the emulator (keep-alive, loopback). Beside each
 * figure is its baseline: the same answer computed the naive way on the same database file
 * (a GROUP BY scan of the messages for monthly figures, an index range count for counts, and
 * LIMIT/OFFSET over full rows for deep pages), so the ratio shows what the rollups and the
 * month-skipping buy.
 *
 * The 1M-line seed file is generated once (generateDemoMessages, fixed PRNG seed and clock, random
 * UUID ids as real data would have) and cached in bench/.cache (git-ignored).
 *
 *   npx tsx bench/emulator.ts [count=1000000]
 */
import Database from 'better-sqlite3';
import { createHmac } from 'node:crypto';
import { rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createEmulator, type ChatbotConfig } from '../src/emulator/index.js';
import { BENCH_CACHE, cachedSeedFile } from './support/seed-cache.js';

const COUNT = Number(process.argv[2] ?? 1_000_000);
const RUNS = 21;
const dbPath = join(BENCH_CACHE, 'emulator-bench.sqlite');
const BOT: ChatbotConfig = { id: 'bench', apiKey: 'pk_bench', apiSecret: 'sk_bench', tier: 'premium' };

// 1. The seed file, generated once (shared with bench/usage.ts).
const seedPath = await cachedSeedFile(COUNT, BOT.id);

// 2. Import into a fresh database file.
for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
const emulator = createEmulator({ db: dbPath, chatbots: [BOT], replySource: { name: 'none', reply: async () => 'ok' } });
const importStarted = performance.now();
const { imported } = await emulator.importSeed(seedPath);
const importSeconds = (performance.now() - importStarted) / 1000;
console.log(`imported ${imported} in ${importSeconds.toFixed(1)} s`);

// 3. Reads over signed HTTP.
const server = await emulator.listen({ port: 0 });
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
function get(path: string): Promise<{ status: number; body: string }> {
  const target = `/api${path}`;
  const ts = Math.floor(Date.now() / 1000);
  const signature = createHmac('sha256', BOT.apiSecret).update(`GET\n${target}\n\n${ts}`).digest('base64');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: target,
        agent,
        headers: { 'X-API-Key': BOT.apiKey, 'X-Timestamp': String(ts), 'X-Signature': signature },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function median(run: () => Promise<unknown> | unknown): Promise<number> {
  await run(); // warm
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

async function timedGet(path: string): Promise<number> {
  const first = await get(path);
  if (first.status !== 200) throw new Error(`${path}: HTTP ${first.status} ${first.body.slice(0, 200)}`);
  return median(() => get(path));
}

// The naive answers, on a second connection to the same file.
const naive = new Database(dbPath, { readonly: true });
naive.pragma('cache_size = -65536');
const from = Date.UTC(2023, 5, 1);
const to = Date.UTC(2025, 6, 1);
const naiveMonthly = naive.prepare(
  `SELECT strftime('%Y-%m', created_at / 1000, 'unixepoch') AS month, count(*), sum(sender_type = 'User'),
          count(DISTINCT CASE WHEN sender_type = 'User' THEN user_id END), count(DISTINCT session_id), sum(token_count)
   FROM messages NOT INDEXED WHERE chatbot_id = ? AND created_at >= ? AND created_at < ? GROUP BY month`,
);
const naiveCount = naive.prepare('SELECT count(*) FROM messages WHERE chatbot_id = ? AND created_at >= ? AND created_at < ?');
const naiveCountScan = naive.prepare(
  'SELECT count(*) FROM messages NOT INDEXED WHERE chatbot_id = ? AND created_at >= ? AND created_at < ?',
);
const naiveDeep = naive.prepare('SELECT * FROM messages WHERE chatbot_id = ? ORDER BY created_at DESC, seq DESC LIMIT 100 OFFSET 499900');
const naivePage1Total = naive.prepare('SELECT count(*) FROM messages WHERE chatbot_id = ?');

const sample = JSON.parse((await get('/Dev/bench/messages?page=1&pageSize=1')).body).data[0];
const userId = encodeURIComponent(sample.chatUserId);
const sessionId = encodeURIComponent(sample.chatSessionId);
const range = 'from=2023-06-01&to=2025-07-01';
const edgeRange = 'from=2023-06-21T12:00:00Z&to=2025-06-10T12:00:00Z';

interface Row {
  figure: string;
  target: number;
  ms: number;
  baseline?: number;
  baselineName?: string;
}
const rows: Row[] = [];
const baselines: [Row, () => unknown][] = [];
// HTTP figures first; the naive baselines block the event loop for seconds, so they run after the
// server is closed (an idle keep-alive socket would time out under them).
const add = async (figure: string, target: number, path: string, baseline?: [string, () => unknown]) => {
  const row: Row = { figure, target, ms: await timedGet(path) };
  rows.push(row);
  if (baseline) {
    row.baselineName = baseline[0];
    baselines.push([row, baseline[1]]);
  }
};

await add('count, whole range', 50, `/Dev/bench/messages/count?${range}`, ['index range count', () => naiveCount.get(BOT.id, from, to)]);
await add('count, whole range, sent=true', 50, `/Dev/bench/messages/count?${range}&sent=true`, [
  'table scan count',
  () => naiveCountScan.get(BOT.id, from, to),
]);
await add('count, partial months at both edges', 50, `/Dev/bench/messages/count?${edgeRange}`);
await add('count-by-month, whole range', 50, `/Dev/bench/messages/count-by-month?${range}`, [
  'GROUP BY scan',
  () => naiveMonthly.all(BOT.id, from, to),
]);
await add('count-by-month, partial edges', 50, `/Dev/bench/messages/count-by-month?${edgeRange}`, [
  'GROUP BY scan',
  () => naiveMonthly.all(BOT.id, Date.parse('2023-06-21T12:00:00Z'), Date.parse('2025-06-10T12:00:00Z')),
]);
await add('messages page 1, no filter', 10, '/Dev/bench/messages', ['count(*) for totalItems alone', () => naivePage1Total.get(BOT.id)]);
await add('messages page 1, userId', 10, `/Dev/bench/messages?userId=${userId}`);
await add('messages page 1, sessionId', 10, `/Dev/bench/messages?sessionId=${sessionId}`);
await add('messages page 1, userId + sessionId', 10, `/Dev/bench/messages?userId=${userId}&sessionId=${sessionId}`);
await add('users page 1', 10, '/Dev/bench/users');
await add('sessions page 1', 10, '/Dev/bench/sessions');
await add('messages page 5,000 of 100', 100, '/Dev/bench/messages?page=5000&pageSize=100', [
  'LIMIT/OFFSET over rows',
  () => naiveDeep.all(BOT.id),
]);

await server.close();
agent.destroy();
for (const [row, run] of baselines) row.baseline = await median(run);
naive.close();
emulator.close();
// The seed file is the cache worth keeping; the database is rebuilt by every run.
for (const suffix of ['', '-wal', '-shm']) rmSync(dbPath + suffix, { force: true });

const pass = (ok: boolean) => (ok ? 'ok' : 'OVER');
console.log(`\nemulator on ${imported.toLocaleString('en')} messages over 24 months (${dbPath}), median of ${RUNS} signed HTTP requests\n`);
console.log(
  `  --seed import of ${imported.toLocaleString('en')} messages: ${importSeconds.toFixed(1)} s (target < 60 s) ${pass(importSeconds < 60)}`,
);
console.log('');
const pad = (s: string, n: number) => s.padEnd(n);
console.log(`  ${pad('figure', 38)} ${pad('ours', 10)} ${pad('target', 9)} ${pad('', 5)} baseline (naive)`);
for (const r of rows) {
  const base = r.baseline === undefined ? '' : `${r.baseline.toFixed(2)} ms ${r.baselineName}, ratio ${(r.baseline / r.ms).toFixed(1)}x`;
  console.log(
    `  ${pad(r.figure, 38)} ${pad(`${r.ms.toFixed(2)} ms`, 10)} ${pad(`< ${r.target} ms`, 9)} ${pad(pass(r.ms < r.target), 5)} ${base}`,
  );
}
const failed = importSeconds >= 60 || rows.some((r) => r.ms >= r.target);
process.exit(failed ? 1 : 0);
