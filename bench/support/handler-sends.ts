// The POST message section of `npm run bench -- handler`: the real emulator alone versus the
// signing handler in front of it, for both reply sources (the knowledge base and an instant one)
// in one run. The handler runs twice: with keep-alive node:http upstream calls (keepAliveFetch,
// what the Node adapters use) and with Node's global fetch, so the difference is measured too.
// Beside them a plain proxy, a Node server that only passes each request on: the extra hop's own
// cost, which no handler in front of upstream can go below.
// Several short rounds rather than one long run each: on a shared machine another job's burst
// then spoils a round, not the figure.
// Each server is its own process; autocannon runs in the bench's process. Beside the throughput
// it prints the CPU time each server process spent per send (its process.cpuUsage() over the
// run), which does not depend on what else the machine is doing: on a busy machine the
// throughput ratio mostly measures the scheduler, the CPU per send still measures the code.
import type { ChildProcess } from 'node:child_process';
import { Agent, createServer, request as httpRequest, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { createEmulator, type ReplySource } from '../../src/emulator/index.js';
import { createDefaultReplySource } from '../../src/emulator/replies/index.js';
import { createSigningHandler } from '../../src/server/index.js';
import { keepAliveFetch, toNodeListener } from '../../src/server/adapters/node.js';
import { sign, unixSeconds } from '../../src/shared/signature.js';

const BOT = { id: 'bot_sends', apiKey: 'pk_sends', apiSecret: 'sk_sends_secret_0123456789abcdef' };
const QUESTION = 'How do I embed the widget on my site?';
/** High enough that no limit of the handler or the emulator is what gets measured. */
const UNLIMITED = 1_000_000_000;

const SOURCES = { 'knowledge base': 'knowledge-base', instant: 'instant' } as const;
type SourceName = (typeof SOURCES)[keyof typeof SOURCES];

/** A reply source that answers at once: what remains is the emulator's own work. */
const instantReplies: ReplySource = { name: 'instant', reply: async ({ content }) => `You asked: ${content}` };

/**
 * The hop alone: a `node:http` server that passes each request as it came (already signed) to
 * upstream over a keep-alive agent and writes the answer back, the way the handler's Node adapter
 * does (whole body, one `writeHead`, one `end`), with none of the handler's work between. What it
 * costs is what any Node server in front of upstream costs, before it does anything.
 */
function plainProxy(upstreamOrigin: string): RequestListener {
  const { hostname, port } = new URL(upstreamOrigin);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.connection;
      const forwarded = httpRequest({ hostname, port, path: req.url, method: req.method, headers, agent }, (answer) => {
        const body: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => body.push(chunk));
        answer.on('end', () => {
          const bytes = Buffer.concat(body);
          res.writeHead(answer.statusCode ?? 502, {
            'content-type': answer.headers['content-type'] ?? 'application/json',
            'content-length': bytes.length,
          });
          res.end(bytes);
        });
      });
      forwarded.on('error', () => res.writeHead(502).end());
      forwarded.end(Buffer.concat(chunks));
    });
  };
}

/**
 * Child mode: `emulator <source>`, `handler <keep-alive|global> <upstream base URL>` or
 * `proxy - <upstream base URL>`; prints `PORT n`.
 */
export async function serveSendsChild([mode, variant, upstreamUrl]: string[]): Promise<void> {
  const listener =
    mode === 'proxy'
      ? plainProxy(new URL(upstreamUrl!).origin)
      : mode === 'emulator'
        ? createEmulator({
            db: ':memory:',
            chatbots: [{ ...BOT, tier: 'enterprise', dailyLimit: UNLIMITED }],
            replySource: (variant as SourceName) === 'instant' ? instantReplies : createDefaultReplySource(),
          }).listener
        : toNodeListener(
            createSigningHandler({
              apiBaseUrl: upstreamUrl!,
              apiKey: BOT.apiKey,
              apiSecret: BOT.apiSecret,
              chatbotId: BOT.id,
              logger: { warn() {}, error() {} },
              limits: {
                sendsPerMinute: UNLIMITED,
                sendsPerDay: UNLIMITED,
                sendsPerMinutePerAddress: UNLIMITED,
                dailyQuotaSharePerAddress: 1,
              },
              ...(variant === 'keep-alive' ? { fetch: keepAliveFetch } : {}),
            }),
          );
  // The bench reads this process's CPU time here, before and after each load run.
  const server = createServer((req, res) => {
    if (req.url === CPU_PATH) return void res.end(String(cpuMicros()));
    listener(req, res);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  console.log(`PORT ${(server.address() as AddressInfo).port}`);
}

const CPU_PATH = '/__bench/cpu';
const cpuMicros = () => {
  const { user, system } = process.cpuUsage();
  return user + system;
};

type StartChild = (args: string[]) => Promise<{ port: number; child: ChildProcess }>;

/** Throughput of a run, and the CPU microseconds per answered request of each server process named. */
interface Run {
  rps: number;
  cpuPerSend: number[];
}

const readCpu = (port: number) => fetch(`http://127.0.0.1:${port}${CPU_PATH}`).then(async (r) => Number(await r.text()));

async function measure(options: autocannon.Options, cpuPorts: number[]): Promise<Run> {
  const before = await Promise.all(cpuPorts.map(readCpu));
  const result = await autocannon(options);
  const after = await Promise.all(cpuPorts.map(readCpu));
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${options.url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return { rps: result.requests.average, cpuPerSend: after.map((a, i) => (a - before[i]!) / Math.max(1, result.requests.total)) };
}

/**
 * Sends signed as the handler would sign them, straight to the emulator at `port`, or through
 * the plain proxy in front of it (`upstreamPort`: the emulator's, whose CPU is read too).
 */
async function direct(port: number, user: string, duration: number, connections: number, upstreamPort?: number): Promise<Run> {
  const path = `/api/Dev/${BOT.id}/message`;
  const body = JSON.stringify({ user: { id: user, name: 'Visitor' }, message: { content: QUESTION } });
  const timestamp = unixSeconds(Date.now());
  const signature = await sign({ method: 'POST', path, body, timestamp, secret: BOT.apiSecret });
  return measure(
    {
      url: `http://127.0.0.1:${port}${path}`,
      method: 'POST',
      body,
      connections,
      duration,
      headers: { 'Content-Type': 'application/json', 'X-API-Key': BOT.apiKey, 'X-Timestamp': String(timestamp), 'X-Signature': signature },
    },
    upstreamPort === undefined ? [port] : [port, upstreamPort],
  );
}

/** Sends through the handler as one visitor. */
async function throughHandler(port: number, upstreamPort: number, duration: number, connections: number): Promise<Run> {
  const visitor = await fetch(`http://127.0.0.1:${port}/chatbot/visitor`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  const { token } = ((await visitor.json()) as { data: { token: string } }).data;
  return measure(
    {
      url: `http://127.0.0.1:${port}/chatbot/message`,
      method: 'POST',
      body: JSON.stringify({ content: QUESTION }),
      connections,
      duration,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    },
    [port, upstreamPort],
  );
}

/** The middle value of `values` (the mean of the two middle ones for an even count). */
function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/**
 * Prints handler/direct for both reply sources, side by side, and the CPU each process spent per
 * send. The machine may be shared: each source runs `rounds` rounds of emulator alone, the plain
 * proxy, handler with keep-alive, handler with global fetch, one after the other, so each round's
 * ratio compares runs seconds apart; the median round is the figure, the range shows the noise.
 * The plain proxy's ratio is the ceiling of any Node server in front of upstream on this machine:
 * what the handler loses beyond it is its own work.
 */
export async function sendsSection(startChild: StartChild, duration: number, connections: number, rounds: number): Promise<void> {
  console.log(
    `POST message against the emulator, autocannon ${connections} connections, ${rounds} rounds of ${duration} s each (emulator alone, a plain proxy, then the handler both ways); median round, range in brackets:`,
  );
  console.log(
    `  ${'reply source'.padEnd(16)} ${'emulator alone'.padStart(16)} ${'plain proxy (the hop alone)'.padStart(36)} ${'handler, keep-alive'.padStart(36)} ${'handler, global fetch'.padStart(36)}`,
  );
  const cpuRows: string[] = [];
  for (const [label, source] of Object.entries(SOURCES)) {
    const children: ChildProcess[] = [];
    try {
      const emulator = await startChild(['--serve-sends', 'emulator', source]);
      children.push(emulator.child);
      const upstream = `http://127.0.0.1:${emulator.port}/api`;
      const keepAlive = await startChild(['--serve-sends', 'handler', 'keep-alive', upstream]);
      const global = await startChild(['--serve-sends', 'handler', 'global', upstream]);
      const proxy = await startChild(['--serve-sends', 'proxy', '-', upstream]);
      children.push(keepAlive.child, global.child, proxy.child);

      const alone: Run[] = [];
      const viaProxy: Run[] = [];
      const viaKeepAlive: Run[] = [];
      const viaGlobal: Run[] = [];
      for (let round = 0; round < rounds; round++) {
        alone.push(await direct(emulator.port, `u_direct_${round}`, duration, connections));
        viaProxy.push(await direct(proxy.port, `u_proxy_${round}`, duration, connections, emulator.port));
        viaKeepAlive.push(await throughHandler(keepAlive.port, emulator.port, duration, connections));
        viaGlobal.push(await throughHandler(global.port, emulator.port, duration, connections));
      }
      const ratios = (runs: Run[]) => runs.map((run, round) => run.rps / alone[round]!.rps);
      const cell = (runs: Run[]) => {
        const each = ratios(runs);
        const rps = median(runs.map((run) => run.rps));
        return `${rps.toFixed(0)} req/s ${median(each).toFixed(2)}x [${Math.min(...each).toFixed(2)}–${Math.max(...each).toFixed(2)}]`.padStart(
          36,
        );
      };
      console.log(
        `  ${label.padEnd(16)} ${`${median(alone.map((run) => run.rps)).toFixed(0)} req/s`.padStart(16)} ${cell(viaProxy)} ${cell(viaKeepAlive)} ${cell(viaGlobal)}`,
      );
      const µs = (value: number) => `${value.toFixed(0)} µs`;
      const cpu = (runs: Run[], server: number) => median(runs.map((run) => run.cpuPerSend[server]!));
      cpuRows.push(
        `  ${label.padEnd(16)} emulator alone ${µs(cpu(alone, 0))}; plain proxy ${µs(cpu(viaProxy, 0))} + emulator ${µs(cpu(viaProxy, 1))}; through the handler: handler ${µs(cpu(viaKeepAlive, 0))} (global fetch ${µs(cpu(viaGlobal, 0))}) + emulator ${µs(cpu(viaKeepAlive, 1))}`,
      );
    } finally {
      for (const child of children) child.kill();
    }
  }
  console.log('  (the ratio is handler/emulator alone; target at least 0.80x with the instant reply source and keep-alive)');
  console.log('CPU time per send of each server process (user + system, median round):');
  for (const row of cpuRows) console.log(row);
}
