// `npm run bench -- refusals`: what refused attempts leave in the handler's memory.
//
// Two runs side by side in one process, each with a fresh handler and MemoryStore, 1,000
// addresses (half IPv4, half IPv6 /64s of one /48) that each spent their day's share of sends (one,
// with dailyQuotaSharePerAddress at a millionth of upstream's quota). Then 1,000 refused attempts in
// one run and 100,000 in the other, each by a new visitor identity (the clock moves on a minute
// whenever the addresses have issued 30 each), in turn: no content (400), no content with an
// Idempotency-Key (400), a malformed key (400), a send over the address's day (429). Prints, for
// both, the heap after a full collection and the store's keys, before and after the refusals, and
// the ratio of the large run to the small one (the goal: the same order, since a refusal writes
// nothing). Upstream answers in process, at once; refused attempts never reach it.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createSigningHandler, MemoryStore } from '../src/server/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const BOT = { apiKey: 'pk_bench', apiSecret: 'sk_bench_secret_0123456789abcdef', chatbotId: 'bot_bench' };
const ADDRESSES = 1_000;
const SMALL = 1_000;
const LARGE = 100_000;
const MINUTE_MS = 60_000;

const address = (i: number) => (i % 2 === 0 ? `198.18.${i >> 8}.${i & 255}` : `2001:db8:7:${i.toString(16)}::1`);

/** An upstream that accepts every send at once, with a roomy daily quota. */
const instantUpstream: typeof fetch = async () =>
  new Response(JSON.stringify({ data: 'ok', error: null, totalItems: 0, pageSize: 0, currentPage: 0, totalPages: 0 }), {
    status: 200,
    headers: { 'Content-Type': 'application/json', 'X-RateLimit-Limit': '1000000', 'X-RateLimit-Remaining': '999999' },
  });

const REFUSED = [
  { body: '{"content":""}', headers: {}, status: 400 },
  { body: '{"content":"   "}', headers: { 'Idempotency-Key': 'k-1' }, status: 400 },
  { body: '{"content":"hi"}', headers: { 'Idempotency-Key': 'not a key!' }, status: 400 },
  { body: '{"content":"hi"}', headers: { 'Idempotency-Key': 'k-2' }, status: 429 },
] as const;
/** New visitors an address may have a minute (the default limit). */
const VISITORS_PER_MINUTE = 30;

async function run(refusals: number) {
  let now = Date.now();
  const store = new MemoryStore({ maxKeys: 10_000_000, now: () => now });
  const handler = createSigningHandler({
    apiBaseUrl: 'http://upstream.invalid/api',
    ...BOT,
    store,
    now: () => now,
    limits: { dailyQuotaSharePerAddress: 1e-6 },
    logger: { warn() {}, error() {} },
    fetch: instantUpstream,
  });
  const post = (path: string, headers: Record<string, string>, body: string, clientAddress: string) =>
    handler(
      new Request(`http://localhost/chatbot${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body }),
      { clientAddress },
    );
  const newVisitor = async (clientAddress: string) =>
    ((await (await post('/visitor', {}, '{}', clientAddress)).json()) as { data: { token: string } }).data.token;
  for (let i = 0; i < ADDRESSES; i++) {
    const sent = await post('/message', { Authorization: `Bearer ${await newVisitor(address(i))}` }, '{"content":"hello"}', address(i));
    if (sent.status !== 200) throw new Error(`setting up: a send answered ${sent.status}`);
  }
  now += MINUTE_MS;
  gc();
  const before = { heap: process.memoryUsage().heapUsed, keys: store.size };
  for (let n = 0; n < refusals; n++) {
    const i = n % ADDRESSES;
    if (n > 0 && n % (ADDRESSES * VISITORS_PER_MINUTE) === 0) now += MINUTE_MS;
    const attempt = REFUSED[n % REFUSED.length]!;
    const token = await newVisitor(address(i));
    const answer = await post('/message', { Authorization: `Bearer ${token}`, ...attempt.headers }, attempt.body, address(i));
    await answer.arrayBuffer();
    if (answer.status !== attempt.status) throw new Error(`a refused attempt answered ${answer.status}, not ${attempt.status}`);
  }
  gc();
  const after = { heap: process.memoryUsage().heapUsed, keys: store.size };
  return { before, after };
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

async function main() {
  const small = await run(SMALL);
  gc();
  const large = await run(LARGE);
  console.log(
    `${ADDRESSES.toLocaleString('en')} identities from ${ADDRESSES.toLocaleString('en')} addresses, each with its day's share spent; then refused attempts (400 and 429), each by a new identity:`,
  );
  for (const [label, figures] of [
    [`${SMALL.toLocaleString('en')} refused`, small],
    [`${LARGE.toLocaleString('en')} refused`, large],
  ] as const) {
    console.log(
      `  ${label.padEnd(16)} heap after GC ${mb(figures.before.heap)} -> ${mb(figures.after.heap)}   store keys ${figures.before.keys} -> ${figures.after.keys}`,
    );
  }
  console.log(
    `  ratio (${LARGE.toLocaleString('en')} / ${SMALL.toLocaleString('en')}): heap after GC ${(large.after.heap / small.after.heap).toFixed(2)}×, ` +
      `store keys ${(large.after.keys / small.after.keys).toFixed(2)}× (for ${LARGE / SMALL}× the attempts)`,
  );
}

await main();
