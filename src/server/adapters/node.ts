/**
 * The Node bridge: runs the Web-standard handler behind `node:http` (and, through
 * `./express.ts`, Express). Translation only: request line, headers and body in (a light
 * Request, light-request.ts), status, headers and body out, and the socket's peer address as the
 * client address.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SigningHandlerOptions } from '../core/options.js';
import { readCapped } from '../core/capped-stream.js';
import { createSigningHandler, type SigningHandler } from '../signing-handler.js';
import { keepAliveFetch } from './keep-alive-fetch.js';
import { LightResponse, useLightResponses } from './light-response.js';
import { RawHeaders } from './raw-headers.js';
import { toWebRequest } from './node-request.js';

export { keepAliveFetch } from './keep-alive-fetch.js';
export { originForm, toWebRequest } from './node-request.js';

/** A `node:http` request listener. */
export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Writes a Web `Response` to a Node response: its whole body read first, then status line,
 * headers and body in one go (one `writeHead`, one `end`), with the body's length declared.
 */
export async function writeWebResponse(response: Response, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const head: string[] = [];
  const addHeader = (value: string, name: string) => {
    if (name.toLowerCase() !== 'content-length') head.push(name, value);
  };
  // A light answer (light-response.ts) is written from its parts, without a Web stream between.
  const parts = LightResponse.partsOf(response);
  let body: string | Uint8Array | null | undefined = parts?.body;
  if (!parts) body = response.body === null || req.method === 'HEAD' ? null : await readCapped(response.body, Number.POSITIVE_INFINITY);
  const headers = parts ? parts.headers : response.headers;
  const pairs = RawHeaders.pairsOf(headers);
  if (pairs) for (let i = 0; i + 1 < pairs.length; i += 2) addHeader(pairs[i + 1]!, pairs[i]!);
  else if (headers instanceof Headers) headers.forEach(addHeader);
  else if (headers) for (const name in headers) addHeader(headers[name]!, name);
  if (req.method === 'HEAD') body = null;
  if (body !== null && body !== undefined)
    head.push('content-length', String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength));
  // A body left unread (refused early, or too large) is not worth draining: close after answering.
  if (!req.complete) head.push('connection', 'close');
  res.writeHead(response.status, head);
  res.end(body ?? undefined);
}

/**
 * Methods the Fetch standard forbids in a `Request` (its constructor throws, so a site's own code
 * asking for the real Request would fail). No route of the handler takes them, so they get the 405
 * the handler would give, here, before any Request is made.
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
    useLightResponses();
    const { request, context } = toWebRequest(req, bodyOverride, rawPath, res);
    await writeWebResponse(await handler(request, context), req, res);
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
