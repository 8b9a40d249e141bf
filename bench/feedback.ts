// `npm run bench -- feedback`: what the site owner's feedback view costs as ratings pile up.
//
// For each store that runs here (memory; Redis, on a throwaway redis-server on a free port), the
// handler's own feedback code answers page 1 of the listing (20 newest), page 1 of one value, and
// the month counts of the last 13 months, over 1,000 ratings (the baseline) and over 100,000,
// filled side by side in the same run. Printed: the median time of each, and the ratio of 100,000
// to 1,000: near 1 means a page and the counts do not grow with the number of ratings kept.
// BENCH_FEEDBACK_RATINGS overrides 100,000; BENCH_FEEDBACK_RUNS (default 200) the timed runs.
import { createClient } from 'redis';
import { resolveOptions } from '../src/server/core/options.js';
import { countRatingsByMonth, listRatings, rate } from '../src/server/feedback/ratings.js';
import { MemoryStore } from '../src/server/stores/memory.js';
import { createRedisStore } from '../src/server/stores/redis.js';
import type { HandlerStore } from '../src/server/stores/store.js';
import { startRedisServer } from '../test/helpers/redis-server.js';

const BASELINE = 1_000;
const MANY = Number(process.env.BENCH_FEEDBACK_RATINGS ?? 100_000);
const RUNS = Number(process.env.BENCH_FEEDBACK_RUNS ?? 200);
const NOW = Date.UTC(2026, 10, 28);
const YEAR_MS = 365 * 86_400_000;

type Options = ReturnType<typeof resolveOptions>;

function optionsFor(store: HandlerStore, chatbotId: string): Options {
  const quiet = { warn: () => {}, error: () => {} };
  return resolveOptions({ apiBaseUrl: 'https://upstream.invalid/api', apiKey: 'pk_b', apiSecret: 'sk_b', chatbotId, store, logger: quiet });
}

/** `count` ratings spread evenly over the last year, a third of them down, 200 at a time. */
async function fill(options: Options, count: number): Promise<void> {
  for (let first = 0; first < count; first += 200) {
    await Promise.all(
      Array.from({ length: Math.min(200, count - first) }, (_, j) => {
        const i = first + j;
        const at = NOW - YEAR_MS + Math.floor((i * YEAR_MS) / count);
        const details = { comment: i % 5 ? null : `comment ${i}`, chatUserId: `v_${i % 997}`, chatSessionId: `s_${i}` };
        return rate(options, { messageId: `m${i}`, value: i % 3 ? 'up' : 'down', ...details }, at);
      }),
    );
  }
}

/** Median milliseconds of `run`, after a few untimed runs. */
async function median(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 5; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

const QUERIES: [string, (options: Options) => Promise<unknown>][] = [
  ['listing, page 1 (20 newest)', (options) => listRatings(options, { page: 1, pageSize: 20 }, NOW)],
  ['listing of down, page 1', (options) => listRatings(options, { value: 'down', page: 1, pageSize: 20 }, NOW)],
  ['month counts, 13 months', (options) => countRatingsByMonth(options, Date.UTC(2025, 10, 1), Date.UTC(2026, 11, 1), NOW)],
];

async function benchStore(name: string, store: HandlerStore): Promise<void> {
  const few = optionsFor(store, 'bench_few');
  const many = optionsFor(store, 'bench_many');
  let started = performance.now();
  await fill(few, BASELINE);
  await fill(many, MANY);
  console.log(
    `\n${name}: ${BASELINE.toLocaleString('en')} and ${MANY.toLocaleString('en')} ratings filled in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  for (const [label, query] of QUERIES) {
    // Side by side: each size timed in turn, so both meet the same machine load.
    started = performance.now();
    const baseline = await median(() => query(few));
    const measured = await median(() => query(many));
    console.log(
      `  ${label.padEnd(30)} ${BASELINE.toLocaleString('en')}: ${baseline.toFixed(3)} ms   ${MANY.toLocaleString('en')}: ${measured.toFixed(3)} ms   ratio ${(measured / baseline).toFixed(2)}`,
    );
  }
}

await benchStore('memory (MemoryStore)', new MemoryStore({ maxKeys: MANY * 2, now: () => NOW }));
const redis = await startRedisServer();
const client = await createClient({ url: redis.url }).connect();
try {
  await benchStore('Redis (createRedisStore, node-redis, loopback)', createRedisStore(client));
} finally {
  client.destroy();
  await redis.stop();
}
