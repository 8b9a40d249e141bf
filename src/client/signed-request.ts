/**
 * One request, built once and signed exactly as sent: the path with its query
 * string is one piece of text that goes both into the URL and into the string to sign, and
 * the JSON body is serialized once, signed, and sent as those same bytes.
 */
import { HEADER_API_KEY, HEADER_SIGNATURE, HEADER_TIMESTAMP } from '../shared/headers.js';
import { buildQuery } from '../shared/query.js';
import { sign } from '../shared/signature.js';

const encoder = new TextEncoder();

export type QueryValues = Record<string, string | number | boolean | null | undefined>;

/** A request ready to be signed: everything but the timestamp and the signature. */
export interface PreparedRequest {
  method: 'GET' | 'POST';
  /** The absolute URL fetched; its path and query are `signedPath`, character for character. */
  url: string;
  /** What is signed as PATH: the URL's path from the base URL's path on, with the query string. */
  signedPath: string;
  /** The exact body text ('' without a body). */
  bodyText: string;
  /** The UTF-8 bytes of `bodyText`, sent as they are; undefined without a body. */
  bodyBytes: Uint8Array<ArrayBuffer> | undefined;
}

/** A base URL checked once: origin and path prefix (e.g. `/api`), without a trailing slash. */
export interface ApiBase {
  origin: string;
  pathPrefix: string;
}

/**
 * Checks a base URL (`https://host/api`) and splits it. Refuses what would otherwise fail late
 * or leak: another scheme, a query or fragment, credentials inside the URL.
 */
export function parseBaseUrl(baseUrl: string | URL): ApiBase {
  const text = String(baseUrl);
  const notHttp = () => new TypeError(`baseUrl must be an absolute http(s) URL such as https://host/api, got "${text}"${schemeHint(text)}`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw notHttp();
  }
  // `localhost:8080/api` parses, as the scheme "localhost:": name the whole value, not that.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw notHttp();
  if (url.username || url.password) throw new TypeError('baseUrl must not contain credentials; pass apiKey and apiSecret instead');
  if (url.search || url.hash) throw new TypeError('baseUrl must not have a query or fragment; it ends in /api');
  return { origin: url.origin, pathPrefix: url.pathname.replace(/\/+$/, '') };
}

/**
 * `; did you mean "http://localhost:8080/api"?` for a value that looks like a host and port typed
 * without its scheme, else ''.
 */
export function schemeHint(text: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return '';
  return /^[\w.-]+(:\d+)?(\/|$)/.test(text) || /^\[[0-9a-f:.]+\](:\d+)?(\/|$)/i.test(text) ? `; did you mean "http://${text}"?` : '';
}

/**
 * Encodes one path segment (a chatbot or message id). Refuses what a URL parser would rewrite
 * (empty, `.`, `..`), since then the path on the wire would differ from the signed one.
 */
export function pathSegment(name: string, value: string): string {
  if (typeof value !== 'string' || value.length === 0) throw new TypeError(`${name} must be a non-empty string`);
  if (value === '.' || value === '..') throw new TypeError(`${name} cannot be "${value}"`);
  return encodeURIComponent(value);
}

/**
 * Builds a request once. `path` is relative to the base URL (`/Dev/bot_1/messages`), with its
 * segments already encoded; `query` is encoded here; `body` (if any) is serialized to JSON here.
 */
export function prepareRequest(
  base: ApiBase,
  method: 'GET' | 'POST',
  path: string,
  query: QueryValues = {},
  body?: unknown,
): PreparedRequest {
  const signedPath = `${base.pathPrefix}${path}${buildQuery(query)}`;
  const url = `${base.origin}${signedPath}`;
  // A last guard: if the URL parser would normalise anything, the upstream would verify a
  // different path than the one signed and answer 401 for reasons no one could see.
  const parsed = new URL(url);
  if (`${parsed.pathname}${parsed.search}` !== signedPath) {
    throw new TypeError(`the request path ${JSON.stringify(signedPath)} would be rewritten by URL parsing; check the ids`);
  }
  const bodyText = body === undefined ? '' : JSON.stringify(body);
  return { method, url, signedPath, bodyText, bodyBytes: body === undefined ? undefined : encoder.encode(bodyText) };
}

/**
 * The four signing headers (docs/api.md) for one attempt. Called again for every retry, so each
 * attempt carries its own timestamp and signature.
 */
export async function signedHeaders(
  request: PreparedRequest,
  credentials: { apiKey: string; apiSecret: string },
  timestamp: number,
): Promise<Record<string, string>> {
  const signature = await sign({
    method: request.method,
    path: request.signedPath,
    body: request.bodyText,
    timestamp,
    secret: credentials.apiSecret,
  });
  return {
    'Content-Type': 'application/json',
    [HEADER_API_KEY]: credentials.apiKey,
    [HEADER_SIGNATURE]: signature,
    [HEADER_TIMESTAMP]: String(timestamp),
  };
}
