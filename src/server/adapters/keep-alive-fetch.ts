/**
 * A `fetch` for the handler's upstream calls on Node, over `node:http`/`node:https` with
 * keep-alive agents. Node's global fetch also reuses connections, but its Web-streams plumbing
 * costs more per request than the upstream call itself on a fast network; this one is a thin
 * translation of the few things the handler uses (method, headers, a text or byte body,
 * `redirect: 'manual'`, an abort signal) and falls back to the global fetch for anything else.
 * Node only: the Web-standard handler core never imports it.
 *
 * It also carries the handler's shorter way upstream over the same agents (upstream-transport.ts):
 * the whole answer read into one buffer, no Web Response, Headers or abort signal in between.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import {
  TransportFailure,
  UPSTREAM_TRANSPORT,
  type HeaderReader,
  type TransportRequest,
  type TransportResponse,
} from '../core/upstream-transport.js';

/** Sockets kept open per upstream host; more requests queue rather than open new sockets. */
const MAX_SOCKETS_PER_HOST = 64;
const httpAgent = new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_HOST });
const httpsAgent = new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS_PER_HOST });

/** Statuses whose Response may not carry a body (the Response constructor throws otherwise). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/** A fetch failure shaped like the global fetch's: a TypeError whose `cause` has the socket error's `code`. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** The answer's body as a Web stream that pauses the socket while nobody reads. */
function responseBody(res: IncomingMessage): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      res.on('data', (chunk: Buffer) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) res.pause();
      });
      res.once('end', () => controller.close());
      res.once('error', (error) => controller.error(fetchFailed(error)));
    },
    pull() {
      res.resume();
    },
    cancel() {
      res.destroy();
    },
  });
}

function toHeaders(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) {
    try {
      headers.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
    } catch {
      // A header value Web Headers cannot hold is left out, as fetch would refuse it too.
    }
  }
  return headers;
}

/**
 * `fetch` over keep-alive `node:http(s)` agents. Pass it as the handler's `fetch` option on Node
 * (`createExpressHandler`, the Fastify plugin and `createNodeListener` do so by default).
 *
 * @example
 * createSigningHandler({ ...options, fetch: keepAliveFetch });
 */
export const keepAliveFetch: typeof fetch = (input, init = {}) => {
  const body = init.body;
  const plainBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
  if (input instanceof Request || !plainBody || (init.redirect !== undefined && init.redirect !== 'manual')) {
    // Outside the subset translated here: the global fetch does it right, just slower.
    return fetch(input, init);
  }
  const url = typeof input === 'string' ? new URL(input) : input;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fetch(input, init);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);

  return new Promise<Response>((resolve, reject) => {
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    if (body !== null && body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const secure = url.protocol === 'https:';
    const request = (secure ? httpsRequest : httpRequest)(
      url,
      { method: init.method ?? 'GET', headers, agent: secure ? httpsAgent : httpAgent },
      (res) => {
        const status = res.statusCode ?? 0;
        const hasBody = !NULL_BODY_STATUSES.has(status) && init.method !== 'HEAD';
        if (!hasBody) res.resume();
        resolve(new Response(hasBody ? responseBody(res) : null, { status, statusText: res.statusMessage ?? '', headers: toHeaders(res) }));
      },
    );
    const onAbort = () => request.destroy(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
    signal?.addEventListener('abort', onAbort, { once: true });
    request.once('close', () => signal?.removeEventListener('abort', onAbort));
    request.once('error', (error) => reject(signal?.aborted ? signal.reason : fetchFailed(error)));
    request.end(body ?? undefined);
  });
};

/** The answer's headers as received, read by name as Headers.get reads them (duplicates joined with ", "). */
function headerReader(raw: string[]): HeaderReader {
  let byName: Map<string, string> | undefined;
  return {
    get(name) {
      if (!byName) {
        byName = new Map();
        for (let i = 0; i + 1 < raw.length; i += 2) {
          const key = raw[i]!.toLowerCase();
          const earlier = byName.get(key);
          byName.set(key, earlier === undefined ? raw[i + 1]! : `${earlier}, ${raw[i + 1]!}`);
        }
      }
      return byName.get(name.toLowerCase()) ?? null;
    },
  };
}

/** An absolute URL's origin (`http://host:port`) and the path with its query after it, as text. */
function splitUrl(url: string): { origin: string; path: string } {
  const slash = url.indexOf('/', url.indexOf('//') + 2);
  return slash === -1 ? { origin: url, path: '/' } : { origin: url.slice(0, slash), path: url.slice(slash) };
}

/** Request options of each origin called, parsed once: a handler calls one origin for its whole life. */
const origins = new Map<string, RequestOptions>();
const ORIGINS_KEPT = 16;

function originOptions(origin: string): RequestOptions {
  let options = origins.get(origin);
  if (!options) {
    const { protocol, hostname, port } = urlToHttpOptions(new URL(origin));
    options = { protocol, hostname, port };
    if (origins.size >= ORIGINS_KEPT) origins.delete(origins.keys().next().value as string);
    origins.set(origin, options);
  }
  return options;
}

/** The handler's upstream calls over the keep-alive agents: one timer for the whole call, the body capped. */
function keepAliveTransport(call: TransportRequest): Promise<TransportResponse> {
  const { origin, path } = splitUrl(call.url);
  const target = originOptions(origin);
  const secure = target.protocol === 'https:';
  const headers: Record<string, string> = { ...call.headers };
  if (call.body) headers['content-length'] = String(call.body.byteLength);
  const options: RequestOptions = { ...target, path, method: call.method, headers, agent: secure ? httpsAgent : httpAgent };
  return new Promise<TransportResponse>((resolve, reject) => {
    // Who hears a failure: the caller until the answer's headers arrive, then the body's reader.
    let fail: (failure: TransportFailure) => void = reject;
    const failWith = (failure: TransportFailure) => {
      clearTimeout(timer);
      fail(failure);
    };
    const request = (secure ? httpsRequest : httpRequest)(options, (res) => {
      const body = new Promise<Uint8Array>((resolveBody, rejectBody) => {
        fail = rejectBody;
        const chunks: Buffer[] = [];
        let total = 0;
        let ended = false;
        res.on('data', (chunk: Buffer) => {
          total += chunk.byteLength;
          if (total > call.maxBodyBytes) {
            failWith(new TransportFailure('body'));
            request.destroy();
          } else chunks.push(chunk);
        });
        res.once('end', () => {
          ended = true;
          clearTimeout(timer);
          resolveBody(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total));
        });
        res.on('error', () => failWith(new TransportFailure('body')));
        res.once('close', () => {
          if (!ended) failWith(new TransportFailure('body'));
        });
      });
      // Nobody may be left to read a body that fails later (the route stopped at the headers).
      body.catch(() => undefined);
      resolve({ status: res.statusCode ?? 0, headers: headerReader(res.rawHeaders), body });
    });
    const timer = setTimeout(() => {
      failWith(new TransportFailure('timeout'));
      request.destroy();
    }, call.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => failWith(new TransportFailure('unreachable', error.code)));
    request.end(call.body);
  });
}

Object.defineProperty(keepAliveFetch, UPSTREAM_TRANSPORT, { value: keepAliveTransport });
