// `npm run bench -- handler`: what the signing handler costs.
//
// 1. Over HTTP (autocannon): a stub upstream alone versus the handler (behind node:http) in
//    front of the same stub, each server in its own process. Prints requests per second,
//    latency, their ratio, and the latency the handler adds at the median.
// 2. In process: the handler's own work per request (route, token check, signing, envelope)
//    with a `fetch` that answers at once, so no network is measured. Target: under 1 ms median.
// 3. POST message against the real emulator (bench/support/handler-sends.ts), for both reply sources
//    side by side: the emulator alone versus the handler in front of it, with upstream calls over
//    keep-alive node:http (what the Node adapters use) and over Node's global fetch, beside a
//    plain proxy that only passes requests on (the hop's own cost), in rounds
//    (BENCH_ROUNDS, default 5, of BENCH_SEND_SECONDS, default 3, per run).
//    Target: handler/direct at least 0.8 with the instant reply source.
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { createSigningHandler } from '../src/server/index.js';
import { toNodeListener } from '../src/server/adapters/node.js';
import { sendsSection, serveSendsChild } from './support/handler-sends.js';

const BOT = { apiKey: 'pk_bench', apiSecret: 'sk_bench_secret_0123456789abcdef', chatbotId: 'bot_bench' };
const STUB_BODY = JSON.stringify({
  data: [{ id: 's1', chatUserId: 'USER', createdAt: '2026-01-01T00:00:00Z', lastMessageAt: '2026-01-01T00:00:00Z', messageCount: 2 }],
  error: null,
  totalItems: 1,
  pageSize: 20,
  currentPage: 1,
  totalPages: 1,
});
const DURATION = Number(process.env.BENCH_SECONDS ?? 5);
/** Rounds of the POST message comparison, and the seconds of each run in them. */
const SEND_ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SEND_SECONDS = Number(process.env.BENCH_SEND_SECONDS ?? 3);
const CONNECTIONS = 10;

/** Child mode: serve the stub upstream, or the handler in front of it, and print the port. */
async function serveChild(mode: string, upstreamUrl?: string): Promise<void> {
  const listener =
    mode === 'stub'
      ? (_req: unknown, res: import('node:http').ServerResponse) => {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.end(STUB_BODY);
        }
      : toNodeListener(
          createSigningHandler({
            apiBaseUrl: upstreamUrl!,
            ...BOT,
            logger: { warn() {}, error() {} },
            // Listings do not count against limits, so the limits are not what is measured.
          }),
        );
  const server = createServer(listener);
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  console.log(`PORT ${(server.address() as AddressInfo).port}`);
}

function startChild(args: string[]): Promise<{ port: number; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /PORT (\d+)/.exec(out);
      if (match) resolve({ port: Number(match[1]), child });
    });
    child.once('exit', (code) => reject(new Error(`bench child exited with ${code}`)));
  });
}

async function load(url: string, headers: Record<string, string> = {}) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, mean: result.latency.average };
}

/** Sub-millisecond latency of sequential keep-alive requests (autocannon reports whole ms). */
async function sequentialLatency(url: string, headers: Record<string, string>, count: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const start = performance.now();
      const req = httpRequest(url, { agent, headers }, (res) => {
        res.resume();
        res.on('end', () => (res.statusCode === 200 ? resolve(performance.now() - start) : reject(new Error(`${url}: ${res.statusCode}`))));
      });
      req.on('error', reject);
      req.end();
    });
  for (let i = 0; i < 200; i++) await once(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < count; i++) times.push(await once());
  agent.destroy();
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(count / 2)]!, p99: times[Math.floor(count * 0.99)]! };
}

/** Median and 99th percentile of the handler's own time per request, network left out. */
async function inProcess(iterations: number) {
  let token = '';
  const handler = createSigningHandler({
    apiBaseUrl: 'http://upstream.invalid/api',
    ...BOT,
    logger: { warn() {}, error() {} },
    fetch: async () =>
      new Response(STUB_BODY.replace('USER', userIdOf(token)), { status: 200, headers: { 'Content-Type': 'application/json' } }),
  });
  const visitor = await handler(
    new Request('http://localhost/chatbot/visitor', { method: 'POST', headers: { 'Content-Type': 'application/json' } }),
  );
  token = ((await visitor.json()) as { data: { token: string } }).data.token;
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    const response = await handler(
      new Request('http://localhost/chatbot/sessions?page=1', { headers: { Authorization: `Bearer ${token}` } }),
    );
    await response.arrayBuffer();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(iterations / 2)]!, p99: times[Math.floor(iterations * 0.99)]! };
}

function userIdOf(token: string): string {
  const payload = token.split('.')[1] ?? '';
  try {
    return (JSON.parse(Buffer.from(payload, 'base64url').toString()) as { sub: string }).sub;
  } catch {
    return '';
  }
}

async function main(): Promise<void> {
  const children: ChildProcess[] = [];
  try {
    const stub = await startChild(['--serve', 'stub']);
    children.push(stub.child);
    const handler = await startChild(['--serve', 'handler', `http://127.0.0.1:${stub.port}/api`]);
    children.push(handler.child);

    const visitor = await fetch(`http://127.0.0.1:${handler.port}/chatbot/visitor`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    const { token } = ((await visitor.json()) as { data: { token: string } }).data;

    console.log(`autocannon: ${CONNECTIONS} connections, ${DURATION} s each, GET sessions listing`);
    const baseline = await load(`http://127.0.0.1:${stub.port}/api/Dev/${BOT.chatbotId}/sessions?userId=x&page=1`);
    const withHandler = await load(`http://127.0.0.1:${handler.port}/chatbot/sessions?page=1`, { Authorization: `Bearer ${token}` });
    const stubLatency = await sequentialLatency(
      `http://127.0.0.1:${stub.port}/api/Dev/${BOT.chatbotId}/sessions?userId=x&page=1`,
      {},
      3000,
    );
    const handlerLatency = await sequentialLatency(
      `http://127.0.0.1:${handler.port}/chatbot/sessions?page=1`,
      { Authorization: `Bearer ${token}` },
      3000,
    );
    const core = await inProcess(20_000);

    const row = (name: string, r: { rps: number; p50: number; p99: number; mean: number }) =>
      console.log(
        `  ${name.padEnd(28)} ${r.rps.toFixed(0).padStart(7)} req/s   latency p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms   mean ${r.mean.toFixed(2)} ms`,
      );
    row('stub upstream alone', baseline);
    row('handler -> stub upstream', withHandler);
    console.log(`  throughput ratio (handler / stub alone): ${(withHandler.rps / baseline.rps).toFixed(3)}`);
    console.log(
      `  latency under load, added at the median:  ${(withHandler.p50 - baseline.p50).toFixed(0)} ms (autocannon, whole ms; mean ${(withHandler.mean - baseline.mean).toFixed(2)} ms)`,
    );
    console.log(`sequential keep-alive requests (3000 each, one at a time):`);
    console.log(`  stub upstream alone      p50 ${stubLatency.p50.toFixed(3)} ms   p99 ${stubLatency.p99.toFixed(3)} ms`);
    console.log(`  handler -> stub upstream p50 ${handlerLatency.p50.toFixed(3)} ms   p99 ${handlerLatency.p99.toFixed(3)} ms`);
    console.log(
      `  latency added at the median over HTTP: ${(handlerLatency.p50 - stubLatency.p50).toFixed(3)} ms (the handler's hop includes a second HTTP round trip to upstream)`,
    );
    console.log(`in process (20000 requests, upstream fetch answered at once):`);
    console.log(
      `  handler's own work: p50 ${core.p50.toFixed(3)} ms, p99 ${core.p99.toFixed(3)} ms (target: under 1 ms at the median) ${core.p50 < 1 ? 'OK' : 'OVER TARGET'}`,
    );
    await sendsSection(startChild, SEND_SECONDS, CONNECTIONS, SEND_ROUNDS);
  } finally {
    for (const child of children) child.kill();
  }
}

const serveIndex = process.argv.indexOf('--serve');
if (process.argv.includes('--serve-sends')) {
  void serveSendsChild(process.argv.slice(process.argv.indexOf('--serve-sends') + 1));
} else if (serveIndex !== -1) {
  void serveChild(process.argv[serveIndex + 1]!, process.argv[serveIndex + 2]);
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
