/**
 * A `fetch` for the handler's upstream calls on Node, over `node:http`/`node:https` with
 * keep-alive agents. Node's global fetch also reuses connections, but its plumbing (a Web stream
 * fed chunk by chunk, a Headers object filled pair by pair, a promise per read) costs more per
 * request than the upstream call itself on a fast network. This one is a thin translation of the
 * few things the handler uses (method, headers, a text or byte body, `redirect: 'manual'`, an
 * abort signal), falls back to the global fetch for anything else, and reads each answer into
 * memory before handing it over as a light Response (light-response.ts): the handler reads whole
 * answers anyway. Node only: the Web-standard handler core never imports it.
 */
import { Agent as HttpAgent, request as httpRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';
import { MAX_UPSTREAM_BODY_BYTES } from '../core/upstream.js';
import { LightResponse } from './light-response.js';
import { RawHeaders } from './raw-headers.js';

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

/** A body that fails when read, as a fetch body does when the answer breaks off after its headers. */
function failingBody(reason: unknown): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.error(reason);
    },
  });
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

/** Request headers as a plain record: the handler passes one already, anything else goes through Headers. */
function plainHeaders(init: HeadersInit | undefined): Record<string, string> {
  if (init && !(init instanceof Headers) && !Array.isArray(init)) return { ...(init as Record<string, string>) };
  const headers: Record<string, string> = {};
  new Headers(init).forEach((value, name) => (headers[name] = value));
  return headers;
}

/**
 * `fetch` over keep-alive `node:http(s)` agents. Pass it as the handler's `fetch` option on Node
 * (`createExpressHandler`, the Fastify plugin and `createNodeListener` do so by default).
 *
 * The answer comes once its whole body has arrived. What fails after the headers (the body broke
 * off, went past the handler's cap on upstream answers, or the signal aborted) fails reading the
 * body, as with the global fetch; what fails before them rejects the call.
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
  const href = typeof input === 'string' ? input : input.href;
  if (!href.startsWith('http://') && !href.startsWith('https://')) return fetch(input, init);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(signal.reason);

  return new Promise<Response>((resolve, reject) => {
    const headers = plainHeaders(init.headers);
    if (body !== null && body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    const { origin, path } = splitUrl(href);
    const target = originOptions(origin);
    const secure = target.protocol === 'https:';
    // Who hears a failure: the caller until the answer's headers arrive, then the answer's body.
    let fail: (reason: unknown) => void = reject;
    const request = (secure ? httpsRequest : httpRequest)(
      { ...target, path, method: init.method ?? 'GET', headers, agent: secure ? httpsAgent : httpAgent },
      (res) => {
        const status = res.statusCode ?? 0;
        const statusText = res.statusMessage ?? '';
        if (NULL_BODY_STATUSES.has(status) || init.method === 'HEAD') {
          res.resume();
          resolve(new Response(null, { status, statusText, headers: new RawHeaders(res.rawHeaders) as unknown as Headers }));
          return;
        }
        let settled = false;
        fail = (reason) => {
          if (settled) return;
          settled = true;
          resolve(new Response(failingBody(reason), { status, statusText, headers: new RawHeaders(res.rawHeaders) as unknown as Headers }));
        };
        const chunks: Buffer[] = [];
        let total = 0;
        res.on('data', (chunk: Buffer) => {
          total += chunk.byteLength;
          if (total <= MAX_UPSTREAM_BODY_BYTES) return void chunks.push(chunk);
          if (!settled) fail(fetchFailed(new RangeError(`the answer is longer than ${MAX_UPSTREAM_BODY_BYTES} bytes`)));
          request.destroy();
        });
        res.once('end', () => {
          if (settled) return;
          settled = true;
          const bytes = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
          try {
            resolve(
              new LightResponse(bytes as Uint8Array<ArrayBuffer>, {
                status,
                statusText,
                headers: new RawHeaders(res.rawHeaders) as unknown as Headers,
              }) as Response,
            );
          } catch (error) {
            // A status no Response can have (over 599).
            reject(fetchFailed(error));
          }
        });
        // Settled already on the way of every answer that ends well: the failure is built only when there is one.
        const failed = (cause: () => unknown) => {
          if (!settled) fail(signal?.aborted ? signal.reason : fetchFailed(cause()));
        };
        res.once('error', (error) => failed(() => error));
        res.once('close', () => failed(() => new Error('the answer broke off')));
      },
    );
    const onAbort = () => {
      fail(signal!.reason);
      request.destroy(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    request.once('close', () => signal?.removeEventListener('abort', onAbort));
    request.once('error', (error) => fail(signal?.aborted ? signal.reason : fetchFailed(error)));
    request.end(body ?? undefined);
  });
};
