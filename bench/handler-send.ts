// `npm run bench -- handler`: the send path with idempotency on.
//
// 1. Added handler time per send, p50 and p99, in process with an upstream `fetch` that answers at
//    once (so only the handler's own work is measured): sends without a key and sends with a new
//    Idempotency-Key each, interleaved one for one in the same run, so both see the same machine.
//    A keyed send also reads the visitor's newest messages to name the stored pair (`stored`):
//    with a real upstream that is one more round trip, which this figure leaves out on purpose.
// 2. Memory per 100,000 remembered keys in MemoryStore: 100,000 keyed sends through the handler,
//    heap measured after a full collection, before and after.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createSigningHandler, MemoryStore } from '../src/server/index.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const BOT = { apiKey: 'pk_bench', apiSecret: 'sk_bench_secret_0123456789abcdef', chatbotId: 'bot_bench' };
const ROOMY = { sendsPerMinute: 1e9, sendsPerDay: 1e9, sendsPerMinutePerAddress: 1e9, dailyQuotaSharePerAddress: 1 };
const SAMPLES = Number(process.env.BENCH_SENDS ?? 20_000);
const REMEMBERED = 100_000;

/** An upstream that stores each send as a question and a reply, answering at once. */
function instantUpstream(): typeof fetch {
  let seq = 0;
  let newest: object[] = [];
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input);
    if (init?.method === 'POST') {
      // The handler sends the signed body as bytes.
      const text = typeof init.body === 'string' ? init.body : new TextDecoder().decode(init.body as Uint8Array);
      const { user, message } = JSON.parse(text) as { user: { id: string }; message: { content: string } };
      const at = Date.now();
      const record = (senderType: string, text: string, offset: number) => ({
        id: `m${++seq}`,
        chatbotId: BOT.chatbotId,
        chatSessionId: 's1',
        chatUserId: user.id,
        senderType,
        text,
        tokenCount: 3,
        responseTime: null,
        createdAt: new Date(at + offset).toISOString(),
      });
      // Newest first, and only a few: the look-up needs the latest pair, the heap should not grow here.
      newest = [record('Bot', `Echo: ${message.content}`, 1), record('User', message.content, 0), ...newest].slice(0, 4);
      const headers = {
        'Content-Type': 'application/json',
        'X-RateLimit-Limit': '1000000000',
        'X-RateLimit-Remaining': '999999999',
        'X-RateLimit-Reset': String(Math.floor(at / 1000) + 3600),
      };
      return new Response(
        JSON.stringify({ data: `Echo: ${message.content}`, error: null, totalItems: 0, pageSize: 0, currentPage: 0, totalPages: 0 }),
        { status: 200, headers },
      );
    }
    void url;
    return new Response(
      JSON.stringify({ data: newest, error: null, totalItems: newest.length, pageSize: 50, currentPage: 1, totalPages: 1 }),
      { status: 200, headers: { 'Content-Type': 'application/json' } },
    );
  };
}

async function setUp(store: MemoryStore) {
  const handler = createSigningHandler({
    apiBaseUrl: 'http://upstream.invalid/api',
    ...BOT,
    limits: ROOMY,
    store,
    logger: { warn() {}, error() {} },
    fetch: instantUpstream(),
  });
  const visitor = await handler(
    new Request('http://localhost/chatbot/visitor', { method: 'POST', headers: { 'Content-Type': 'application/json' } }),
  );
  const { token } = ((await visitor.json()) as { data: { token: string } }).data;
  let n = 0;
  const send = async (key: string | undefined) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` };
    if (key) headers['Idempotency-Key'] = key;
    const response = await handler(
      new Request('http://localhost/chatbot/message', { method: 'POST', headers, body: JSON.stringify({ content: `question ${n++}` }) }),
    );
    if (response.status !== 200) throw new Error(`send answered ${response.status}: ${await response.text()}`);
    await response.arrayBuffer();
  };
  return send;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function sidebySide() {
  const send = await setUp(new MemoryStore({ maxKeys: 10_000_000 }));
  const plain: number[] = [];
  const keyed: number[] = [];
  for (let i = 0; i < 500; i++) await send(i % 2 ? `warm-${i}` : undefined);
  for (let i = 0; i < SAMPLES; i++) {
    let start = performance.now();
    await send(undefined);
    plain.push(performance.now() - start);
    start = performance.now();
    await send(`key-${i}`);
    keyed.push(performance.now() - start);
  }
  plain.sort((a, b) => a - b);
  keyed.sort((a, b) => a - b);
  return {
    plain: { p50: percentile(plain, 0.5), p99: percentile(plain, 0.99) },
    keyed: { p50: percentile(keyed, 0.5), p99: percentile(keyed, 0.99) },
  };
}

async function memoryPerHundredThousand() {
  const store = new MemoryStore({ maxKeys: 10_000_000 });
  const send = await setUp(store);
  for (let i = 0; i < 200; i++) await send(undefined); // counters and caches in place first
  gc();
  const before = process.memoryUsage().heapUsed;
  const keysBefore = store.size;
  for (let i = 0; i < REMEMBERED; i++) await send(`remembered-${i.toString(36).padStart(8, '0')}`);
  gc();
  const after = process.memoryUsage().heapUsed;
  return { bytes: after - before, storeKeys: store.size - keysBefore };
}

async function main() {
  console.log(`send path in process, upstream answered at once; ${SAMPLES} sends of each kind, interleaved:`);
  const { plain, keyed } = await sidebySide();
  console.log(`  without Idempotency-Key  p50 ${plain.p50.toFixed(3)} ms   p99 ${plain.p99.toFixed(3)} ms`);
  console.log(`  with Idempotency-Key     p50 ${keyed.p50.toFixed(3)} ms   p99 ${keyed.p99.toFixed(3)} ms`);
  console.log(`  added by idempotency:    p50 ${(keyed.p50 - plain.p50).toFixed(3)} ms   p99 ${(keyed.p99 - plain.p99).toFixed(3)} ms`);
  console.log(`  ratio (keyed / without): p50 ${(keyed.p50 / plain.p50).toFixed(2)}   p99 ${(keyed.p99 / plain.p99).toFixed(2)}`);
  const started = performance.now();
  const memory = await memoryPerHundredThousand();
  console.log(
    `memory per ${REMEMBERED.toLocaleString('en')} remembered keys in MemoryStore (${memory.storeKeys.toLocaleString('en')} store keys: outcome records and message claims; ${((performance.now() - started) / 1000).toFixed(1)} s to fill):`,
  );
  console.log(`  ${(memory.bytes / 1024 / 1024).toFixed(1)} MB heap, ${(memory.bytes / REMEMBERED).toFixed(0)} bytes a key`);
  console.log(
    `  ${(memory.bytes / memory.storeKeys).toFixed(0)} bytes a store key; MemoryStore's default bound (200,000 keys) is then about ${(((memory.bytes / memory.storeKeys) * 200_000) / 1024 / 1024).toFixed(0)} MB`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
