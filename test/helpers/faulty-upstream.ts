// A fault-injecting upstream for tests: a real HTTP proxy on 127.0.0.1 in front of an upstream
// (normally the emulator). It forwards each request byte for byte, so signatures stay valid, and
// can (1) hold a request before forwarding it (upstream slow to store), (2) hold the answer after
// upstream produced it (slow to answer) and (3) drop the connection AFTER upstream answered:
// the message is stored upstream, yet the caller sees a broken connection and cannot tell
// "sent" from "not sent". Faults are deterministic: scripted with `dropNext`, or drawn from a
// seeded generator, so a failing run can be replayed.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createRandom } from '../../src/emulator/demo-data.js';

/** The longest delay a test may ask for: keeps every test bounded. */
const MAX_DELAY_MS = 10_000;

/** What the proxy saw of one request. */
export interface ProxiedRequest {
  method: string;
  /** Path and query exactly as received. */
  target: string;
  /** Whether this request was subject to faults (see `appliesTo`). */
  faulty: boolean;
  /** `answered`: passed on; `dropped`: upstream answered, the caller's socket was destroyed instead. */
  outcome: 'pending' | 'answered' | 'dropped' | 'unreachable';
  /** Upstream's status, once it answered. */
  upstreamStatus?: number;
}

export interface FaultyUpstreamOptions {
  /** The upstream's origin, e.g. `http://127.0.0.1:8787`. */
  target: string;
  /** Held before forwarding a faulty request (upstream stores late). Default 0. */
  delayBeforeMs?: number;
  /** Held after upstream answered a faulty request, before answering or dropping. Default 0. */
  delayAfterMs?: number;
  /** Probability (0–1) that a faulty request is dropped after upstream answered. Default 0. */
  dropProbability?: number;
  /** Seed of the generator behind `dropProbability`. Default 1. */
  seed?: number;
  /** Which requests faults apply to. Default: sends only (`POST …/message`), reads pass untouched. */
  appliesTo?: (method: string, target: string) => boolean;
  /**
   * Awaited before every request is forwarded, faulty or not: a test moves its fake clock here to
   * make upstream slow without waiting for real.
   */
  beforeForward?: (method: string, target: string) => void | Promise<void>;
}

export interface FaultyUpstream {
  /** `http://127.0.0.1:PORT/api`: give it to the handler as `apiBaseUrl`. */
  baseUrl: string;
  origin: string;
  port: number;
  /** Every request, in arrival order. */
  requests: ProxiedRequest[];
  /** Drops the next `count` faulty requests after upstream answered them (on top of the probability). */
  dropNext(count?: number): void;
  /** Changes the delays and drop probability from now on. */
  configure(change: Partial<Pick<FaultyUpstreamOptions, 'delayBeforeMs' | 'delayAfterMs' | 'dropProbability'>>): void;
  /** Faulty requests forwarded to upstream so far (each one upstream may have stored). */
  readonly forwardedSends: number;
  /** Resolves once no request is being held or forwarded. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const isSend = (method: string, target: string) => method === 'POST' && /\/message(\?|$)/.test(target);
const bounded = (ms: number | undefined) => Math.min(MAX_DELAY_MS, Math.max(0, ms ?? 0));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Hop-by-hop headers are the proxy's own business, not forwarded. */
function forwardable(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const copy = { ...headers };
  for (const name of ['connection', 'keep-alive', 'transfer-encoding', 'proxy-connection']) delete copy[name];
  return copy;
}

export async function startFaultyUpstream(options: FaultyUpstreamOptions): Promise<FaultyUpstream> {
  const target = new URL(options.target);
  // The emulator's seeded generator: the same seed drops the same sends.
  const random = createRandom(options.seed ?? 1);
  const appliesTo = options.appliesTo ?? isSend;
  let delayBeforeMs = bounded(options.delayBeforeMs);
  let delayAfterMs = bounded(options.delayAfterMs);
  let dropProbability = options.dropProbability ?? 0;
  let scriptedDrops = 0;
  let forwardedSends = 0;
  let inFlight = 0;
  let idleWaiters: Array<() => void> = [];
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();

  const settle = () => {
    inFlight--;
    if (inFlight === 0) for (const resolve of idleWaiters.splice(0)) resolve();
  };

  async function forward(
    req: IncomingMessage,
    body: Buffer,
  ): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer } | undefined> {
    return new Promise((resolve) => {
      const out = httpRequest(
        {
          host: target.hostname,
          port: target.port,
          method: req.method,
          path: req.url,
          headers: { ...forwardable(req.headers), 'content-length': String(body.length) },
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
          res.on('error', () => resolve(undefined));
        },
      );
      out.on('error', () => resolve(undefined));
      out.end(body);
    });
  }

  const server: Server = createServer((req, res) => {
    inFlight++;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const method = req.method ?? 'GET';
        const entry: ProxiedRequest = { method, target: req.url ?? '/', faulty: appliesTo(method, req.url ?? '/'), outcome: 'pending' };
        requests.push(entry);
        try {
          // Decided on arrival, so the sequence of drops does not depend on timing.
          const drop = entry.faulty && (scriptedDrops > 0 ? (scriptedDrops--, true) : random() < dropProbability);
          if (entry.faulty && delayBeforeMs > 0) await sleep(delayBeforeMs);
          await options.beforeForward?.(method, entry.target);
          // Forwarded even when the caller has gone meanwhile: upstream received the request.
          if (entry.faulty) forwardedSends++;
          const answer = await forward(req, Buffer.concat(chunks));
          if (!answer) {
            entry.outcome = 'unreachable';
            req.socket.destroy();
            return;
          }
          entry.upstreamStatus = answer.status;
          if (entry.faulty && delayAfterMs > 0) await sleep(delayAfterMs);
          if (drop) {
            entry.outcome = 'dropped';
            req.socket.destroy();
            return;
          }
          entry.outcome = 'answered';
          res.writeHead(answer.status, { ...forwardable(answer.headers), 'content-length': String(answer.body.length) });
          res.end(answer.body);
        } finally {
          settle();
        }
      })();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    baseUrl: `${origin}${target.pathname.replace(/\/+$/, '') || '/api'}`,
    origin,
    port,
    requests,
    dropNext(count = 1) {
      scriptedDrops += count;
    },
    configure(change) {
      if (change.delayBeforeMs !== undefined) delayBeforeMs = bounded(change.delayBeforeMs);
      if (change.delayAfterMs !== undefined) delayAfterMs = bounded(change.delayAfterMs);
      if (change.dropProbability !== undefined) dropProbability = change.dropProbability;
    },
    get forwardedSends() {
      return forwardedSends;
    },
    idle: () => (inFlight === 0 ? Promise.resolve() : new Promise<void>((resolve) => idleWaiters.push(resolve))),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        idleWaiters = [];
        server.close(() => resolve());
      }),
  };
}
