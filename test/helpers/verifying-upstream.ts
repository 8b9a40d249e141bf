// A small stand-in for the upstream Developer API, for tests of anything that signs requests
// (the client, the command line, the signing handler). It verifies every request with its own
// code (independent-signer.ts, node:crypto), over the RAW request target and the RAW body bytes
// it received, records each request for assertions, and answers from a script or from a
// minimal canned upstream. It is not the emulator: no storage, no validation beyond auth.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { independentVerify } from './independent-signer.js';

/** One request as it arrived. */
export interface RecordedRequest {
  method: string;
  /** The raw request target (`req.url`): path and query exactly as sent on the wire. */
  url: string;
  /** The path part of `url`, undecoded. */
  pathname: string;
  /** The query, decoded (`+` stays a plus; the API's clients encode spaces as %20). */
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The raw body bytes, and their UTF-8 text. */
  bodyBytes: Buffer;
  body: string;
  /** Whether key, timestamp window and signature all checked out. */
  verified: boolean;
  /** Why not, when `verified` is false. */
  failure?: string;
}

/** An answer to script. `body` is JSON-serialized unless it is a string (sent as it is). */
export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait this long before answering (for timeout tests). */
  delayMs?: number;
  /** Destroy the connection instead of answering (for network-error tests). */
  hangUp?: boolean;
}

export type Responder = (request: RecordedRequest) => ScriptedResponse | Promise<ScriptedResponse>;

export interface VerifyingUpstreamOptions {
  apiKey?: string;
  apiSecret?: string;
  chatbotId?: string;
  /** Accepted skew of X-Timestamp either way, seconds. Default 300 (docs/api.md). */
  windowSeconds?: number;
  /** The server's clock in ms. Default Date.now. */
  now?: () => number;
  /** Answers verified requests once the script is used up. Default: the canned upstream below. */
  respond?: Responder;
}

export interface VerifyingUpstream {
  /** `http://127.0.0.1:PORT/api`. */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  chatbotId: string;
  /** Every request so far, in arrival order (also those refused with 401). */
  requests: RecordedRequest[];
  /** Queues answers for the next verified requests, one each, before the default responder. */
  script(...responses: Array<ScriptedResponse | Responder>): void;
  close(): Promise<void>;
}

export const DEFAULT_CREDENTIALS = {
  apiKey: 'pk_test_verifying',
  // Non-ASCII on purpose: the secret is UTF-8 on both sides.
  apiSecret: 'sk_test_vérifying_secret',
  chatbotId: 'bot_test',
};

export async function startVerifyingUpstream(options: VerifyingUpstreamOptions = {}): Promise<VerifyingUpstream> {
  const apiKey = options.apiKey ?? DEFAULT_CREDENTIALS.apiKey;
  const apiSecret = options.apiSecret ?? DEFAULT_CREDENTIALS.apiSecret;
  const chatbotId = options.chatbotId ?? DEFAULT_CREDENTIALS.chatbotId;
  const windowSeconds = options.windowSeconds ?? 300;
  const now = options.now ?? Date.now;
  const respond = options.respond ?? cannedUpstream(chatbotId);
  const requests: RecordedRequest[] = [];
  const queue: Array<ScriptedResponse | Responder> = [];
  const sockets = new Set<Socket>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const bodyBytes = Buffer.concat(chunks);
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      url,
      pathname: queryAt === -1 ? url : url.slice(0, queryAt),
      query: new URLSearchParams(queryAt === -1 ? '' : url.slice(queryAt + 1)),
      headers: req.headers,
      bodyBytes,
      body: bodyBytes.toString('utf8'),
      verified: false,
    };
    requests.push(recorded);

    const failure = authenticate(recorded);
    let answer: ScriptedResponse;
    if (failure) {
      recorded.failure = failure;
      answer = { status: 401, body: { data: null, error: failure } };
    } else {
      recorded.verified = true;
      const next = queue.shift() ?? respond;
      answer = typeof next === 'function' ? await next(recorded) : next;
    }
    if (answer.delayMs) {
      // Stop waiting when the client gives up, so no timer outlives the test.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, answer.delayMs);
        res.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
      });
      if (res.destroyed) return;
    }
    if (answer.hangUp) {
      req.socket.destroy();
      return;
    }
    const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status ?? 200, { 'Content-Type': 'application/json; charset=utf-8', ...answer.headers });
    res.end(text);
  };
  // A responder that throws fails the request the client is waiting on, not the test process.
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => res.destroy(error instanceof Error ? error : new Error(String(error))));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function authenticate(request: RecordedRequest): string | null {
    const header = (name: string) => {
      const value = request.headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    if (!/^application\/json\b/.test(header('content-type') ?? '')) return 'Content-Type must be application/json';
    if (header('x-api-key') !== apiKey) return 'Invalid API key';
    const timestamp = header('x-timestamp') ?? '';
    if (!/^\d+$/.test(timestamp)) return 'X-Timestamp must be Unix seconds';
    if (Math.abs(Number(timestamp) - Math.floor(now() / 1000)) > windowSeconds) return 'X-Timestamp outside the accepted window';
    const signature = header('x-signature') ?? '';
    if (!independentVerify(apiSecret, request.method, request.url, request.body, timestamp, signature)) return 'Invalid signature';
    return null;
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    apiKey,
    apiSecret,
    chatbotId,
    requests,
    script: (...responses) => void queue.push(...responses),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The next UTC midnight in Unix seconds: when a daily quota resets. */
export function nextUtcMidnight(now: number = Date.now()): number {
  const date = new Date(now);
  return Math.floor(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1) / 1000);
}

/**
 * Just enough of the upstream to answer each endpoint with a well-formed envelope: a send
 * echoes the content with the three X-RateLimit headers, listings are empty pages, counts 0,
 * an unknown message or route 404. Tests that care about content script their answers.
 */
export function cannedUpstream(chatbotId: string): Responder {
  const prefix = `/api/Dev/${encodeURIComponent(chatbotId)}`;
  const emptyPage = (request: RecordedRequest) => ({
    data: [],
    error: null,
    totalItems: 0,
    pageSize: Number(request.query.get('pageSize') ?? 20),
    currentPage: Number(request.query.get('page') ?? 1),
    totalPages: 0,
  });
  return (request) => {
    const route = request.pathname.startsWith(`${prefix}/`) ? request.pathname.slice(prefix.length) : null;
    if (route === null) return { status: 404, body: { data: null, error: 'Chatbot not found' } };
    if (request.method === 'POST' && route === '/message') {
      const sent = JSON.parse(request.body) as { message: { content: string } };
      return {
        headers: { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '99', 'X-RateLimit-Reset': String(nextUtcMidnight()) },
        body: { data: `You said: ${sent.message.content}`, error: null, totalItems: 0, pageSize: 0, currentPage: 0, totalPages: 0 },
      };
    }
    if (request.method !== 'GET') return { status: 404, body: { data: null, error: 'Not found' } };
    if (route === '/messages' || route === '/users' || route === '/sessions') return { body: emptyPage(request) };
    if (route === '/messages/count') return { body: { data: 0, error: null } };
    if (route === '/messages/count-by-month') return { body: { data: [], error: null } };
    if (route.startsWith('/messages/')) return { status: 404, body: { data: null, error: 'Message not found' } };
    return { status: 404, body: { data: null, error: 'Not found' } };
  };
}
