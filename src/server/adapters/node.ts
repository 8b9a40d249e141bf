/**
 * The Node bridge: runs the Web-standard handler behind `node:http` (and, through
 * `./express.ts`, Express). Translation only: request line, headers and body stream in,
 * status, headers and body out, and the socket's peer address as the client address.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HandlerContext, SigningHandlerOptions } from '../core/options.js';
import { StreamTooLarge } from '../core/capped-stream.js';
import { holdBody, type HeldBody } from '../core/held-body.js';
import { bodyTextOf } from '../core/responses.js';
import { answersWithoutBodies, createSigningHandler, type SigningHandler } from '../signing-handler.js';
import { keepAliveFetch } from './keep-alive-fetch.js';

export { keepAliveFetch } from './keep-alive-fetch.js';

/** A `node:http` request listener. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

const SAFE_HOST = /^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]{2,60}\](:[0-9]{1,5})?$/;

/** Scheme and authority of an absolute-form target (`http://host:port`), matched as text. */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The origin-form (`/path?query`) of a request target. Absolute-form targets (`GET http://host/path`,
 * what proxies send) lose scheme and authority as text: parsing them with URL would resolve `..`,
 * `%2e%2e` and `\` before the route table saw them, and the route table refuses those only while
 * they are still in the raw target.
 */
export function originForm(target: string): string {
  if (target.startsWith('/')) return target;
  const authority = ABSOLUTE_FORM.exec(target);
  const rest = authority ? target.slice(authority[0].length) : '/';
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * An absolute URL for the request: a fixed scheme (https when the socket is TLS), the Host
 * header only when it is a plain host[:port] (else `localhost`), and the target as received.
 */
function requestUrl(req: IncomingMessage): { url: string; rawPath: string } {
  const secure = !!(req.socket as { encrypted?: boolean }).encrypted;
  const hostHeader = req.headers.host;
  const host = hostHeader && SAFE_HOST.test(hostHeader) ? hostHeader : 'localhost';
  const rawPath = originForm(req.url ?? '/');
  const scheme = secure ? 'https' : 'http';
  // Concatenated, not resolved against a base: a target like `//evil.example/x` stays a path.
  // A Host that passes the pattern but not URL (a port over 65535) falls back to localhost
  // rather than losing the path.
  for (const name of [host, 'localhost']) {
    try {
      return { url: new URL(`${scheme}://${name}${rawPath}`).href, rawPath };
    } catch {
      // try the next host
    }
  }
  return { url: `${scheme}://localhost/`, rawPath: '/' };
}

/**
 * The request body as a Web stream. Cancelling it (the handler does when a body is too large)
 * stops reading without destroying the socket, so the 413 answer can still be written.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let cancelled = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      // Something before the handler (an Express middleware) already read the body without
      // leaving it in req.body: 'end' has fired and will not fire again, so waiting for it
      // would hang the request forever. The handler gets an empty body instead.
      if (req.readableEnded) {
        controller.close();
        return;
      }
      req.on('data', (chunk: Buffer) => {
        if (cancelled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      });
      req.once('end', () => {
        if (!cancelled) controller.close();
      });
      req.once('error', (error) => {
        if (!cancelled) controller.error(error);
      });
      req.pause();
    },
    pull() {
      req.resume();
    },
    cancel() {
      cancelled = true;
      req.pause();
    },
  });
}

/**
 * The request's body held aside (held-body.ts): read straight from the socket when the handler
 * asks, as bodyStream would deliver it (an already-read body is empty, a cancelled one stops
 * reading without destroying the socket), without a Web stream in between.
 */
function heldBody(req: IncomingMessage): HeldBody {
  return {
    read: (maxBytes) =>
      new Promise<Uint8Array>((resolve, reject) => {
        if (req.readableEnded) return resolve(new Uint8Array(0));
        const chunks: Buffer[] = [];
        let total = 0;
        const stop = () => {
          req.off('data', onData);
          req.off('end', onEnd);
          req.off('error', onError);
        };
        const onData = (chunk: Buffer) => {
          total += chunk.byteLength;
          if (total <= maxBytes) return void chunks.push(chunk);
          stop();
          req.pause();
          reject(new StreamTooLarge(`more than ${maxBytes} bytes`));
        };
        const onEnd = () => {
          stop();
          resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
        };
        const onError = (error: Error) => {
          stop();
          reject(error);
        };
        req.on('data', onData);
        req.on('end', onEnd);
        req.on('error', onError);
      }),
    cancel: () => req.pause(),
    stream: () => bodyStream(req),
  };
}

/** A Web `Request` for a Node request; `bodyOverride` stands in for a stream a body parser already read. */
export function toWebRequest(
  req: IncomingMessage,
  bodyOverride?: string,
  rawPathOverride?: string,
): { request: Request; context: HandlerContext } {
  const { url, rawPath } = requestUrl(req);
  const method = (req.method ?? 'GET').toUpperCase();
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // A body a parser already read goes as text: its declared length no longer applies.
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (name.startsWith(':') || (bodyOverride !== undefined && name.toLowerCase() === 'content-length')) continue;
    pairs.push([name, req.rawHeaders[i + 1]!]);
  }
  const init: RequestInit & { duplex?: 'half' } = { method, headers: pairs };
  if (hasBody && bodyOverride !== undefined) {
    init.body = bodyOverride;
    init.duplex = 'half';
  }
  const context: HandlerContext = {
    clientAddress: req.socket.remoteAddress,
    rawPath: rawPathOverride === undefined ? rawPath : originForm(rawPathOverride),
  };
  let request: Request;
  try {
    request = new Request(url, init);
  } catch {
    // Some header value Web Headers cannot hold: those are left out rather than failing the request.
    const headers = new Headers();
    for (const [name, value] of pairs) {
      try {
        headers.append(name, value);
      } catch {
        // left out
      }
    }
    request = new Request(url, { ...init, headers });
  }
  // The body stays on the socket until the handler reads it (held-body.ts).
  return { request: hasBody && bodyOverride === undefined ? holdBody(request, heldBody(req)) : request, context };
}

/** Writes a Web `Response` to a Node response. */
export async function writeWebResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // The handler's own answers come with their text on the side (responses.ts): written as it is,
  // status line, headers and text in one go.
  const text = bodyTextOf(response);
  if (text !== undefined && req.method !== 'HEAD') {
    const head: string[] = [];
    response.headers.forEach((value, name) => head.push(name, value));
    head.push('content-length', String(Buffer.byteLength(text)));
    // A body left unread (refused early, or too large) is not worth draining: close after answering.
    if (!req.complete) head.push('connection', 'close');
    res.writeHead(response.status, head);
    res.end(text);
    return;
  }
  const body = req.method === 'HEAD' ? undefined : Buffer.from(await response.arrayBuffer());
  res.statusCode = response.status;
  response.headers.forEach((value, name) => res.setHeader(name, value));
  if (!req.complete) res.setHeader('Connection', 'close');
  res.end(body);
}

/**
 * Methods the Fetch standard forbids in a `Request` (its constructor throws). No route of the
 * handler takes them, so they get the 405 the handler would give instead of failing as a 500.
 */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

/** Runs `handler` for one Node request and writes its answer; never throws. */
export async function runNodeRequest(
  handler: SigningHandler,
  req: IncomingMessage,
  res: ServerResponse,
  bodyOverride?: string,
  rawPath?: string,
): Promise<void> {
  if (FORBIDDEN_METHODS.has((req.method ?? '').toUpperCase())) {
    res.writeHead(405, {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      Allow: 'GET, POST, OPTIONS',
      Connection: 'close',
    });
    res.end(JSON.stringify({ data: null, error: 'This address does not accept that method.' }));
    return;
  }
  try {
    const { request, context } = toWebRequest(req, bodyOverride, rawPath);
    // The handler's own function, when it has one, answers without putting the text in the Response.
    const answer = answersWithoutBodies(handler) ?? handler;
    await writeWebResponse(await answer(request, context), req, res);
  } catch {
    if (!res.headersSent) {
      res.statusCode = 500;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store');
      res.end(JSON.stringify({ data: null, error: 'Something went wrong on this server. Please try again.' }));
    } else {
      res.destroy();
    }
  }
}

/**
 * A `node:http` listener for the handler.
 *
 * @example
 * import { createServer } from 'node:http';
 * createServer(toNodeListener(createSigningHandler(options))).listen(8080);
 */
export function toNodeListener(handler: SigningHandler): NodeListener {
  return (req, res) => {
    void runNodeRequest(handler, req, res);
  };
}

/**
 * Creates the signing handler, with upstream calls over keep-alive `node:http` (unless the
 * `fetch` option says otherwise), as a `node:http` listener.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { createNodeListener } from 'chatbot-widget/server/node';
 * createServer(createNodeListener({ apiBaseUrl, apiKey, apiSecret, chatbotId })).listen(8080);
 */
export function createNodeListener(options: SigningHandlerOptions): NodeListener {
  return toNodeListener(createSigningHandler({ fetch: keepAliveFetch, ...options }));
}
