/**
 * Which browsers may call the handler: same-origin by default, plus an exact list of other
 * origins. Never `*`, never a reflected arbitrary origin, never `null`. `Sec-Fetch-Site` (set by
 * the browser, not by page scripts) refuses cross-site requests that carry no `Origin`, such as
 * an `<img>` or a link pointing at the handler, which matters when `identify` reads cookies.
 */
import {
  HEADER_RATE_LIMIT,
  HEADER_RATE_REMAINING,
  HEADER_RATE_RESET,
  IDEMPOTENCY_KEY_HEADER,
  REPLAYED_HEADER,
} from '../../shared/headers.js';
import { refuse, TEXT } from './responses.js';

/** Headers a browser may send cross-origin (answered in preflights). */
const ALLOWED_REQUEST_HEADERS = `Authorization, Content-Type, ${IDEMPOTENCY_KEY_HEADER}, X-Admin-Token`;
/** Response headers an allowed cross-origin page may read: when to retry, what is left of its budget, replays. */
const EXPOSED_HEADERS = ['Retry-After', HEADER_RATE_LIMIT, HEADER_RATE_REMAINING, HEADER_RATE_RESET, REPLAYED_HEADER].join(', ');

/** The CORS answer for one request: headers to add to the response. */
export function corsHeaders(
  request: Request,
  url: URL,
  allowedOrigins: ReadonlySet<string>,
  withCredentials: boolean,
): Record<string, string> {
  // Responses differ by Origin whenever a list exists, so caches must key on it.
  const headers: Record<string, string> = { Vary: 'Origin' };
  const origin = request.headers.get('Origin');
  if (origin !== null && allowedOrigins.has(origin) && origin !== url.origin) {
    headers['Access-Control-Allow-Origin'] = origin;
    // Without this, a widget on an allowed origin cannot read when to try again after a 429, nor
    // how many sends are left.
    headers['Access-Control-Expose-Headers'] = EXPOSED_HEADERS;
    if (withCredentials) headers['Access-Control-Allow-Credentials'] = 'true';
  }
  return headers;
}

/** Same host, and either the same scheme or https seen as http behind a TLS-terminating proxy. */
function sameOrigin(origin: string, url: URL): boolean {
  if (origin === url.origin) return true;
  try {
    const parsed = new URL(origin);
    return parsed.host === url.host && parsed.protocol === 'https:' && url.protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * Refuses (403) a request that a browser made from a page this handler does not serve.
 * Requests without browser headers (server-to-server, curl) pass: they carry no visitor's cookies.
 * `onRefused` hears the `Origin` of a refused request that had one (for the site owner's log).
 */
export function enforceBrowserRules(
  request: Request,
  url: URL,
  allowedOrigins: ReadonlySet<string>,
  onRefused?: (origin: string) => void,
): void {
  const origin = request.headers.get('Origin');
  const site = request.headers.get('Sec-Fetch-Site');
  if (origin !== null && allowedOrigins.has(origin)) return;
  // The browser itself vouches for same-origin (page scripts cannot set Sec-Fetch-Site), even
  // when a proxy rewrote the Host the handler sees.
  if (site === 'same-origin') return;
  const crossSite = site === 'cross-site' || site === 'same-site';
  if (!crossSite && origin === null) return;
  if (crossSite || origin === 'null' || !sameOrigin(origin!, url)) {
    if (origin !== null) onRefused?.(origin);
    refuse(403, TEXT.forbiddenOrigin);
  }
}

/** The answer to a CORS preflight (`OPTIONS`). */
export function preflight(
  request: Request,
  url: URL,
  allowedOrigins: ReadonlySet<string>,
  withCredentials: boolean,
  onRefused?: (origin: string) => void,
): Record<string, string> {
  enforceBrowserRules(request, url, allowedOrigins, onRefused);
  return {
    ...corsHeaders(request, url, allowedOrigins, withCredentials),
    'Access-Control-Allow-Methods': 'GET, POST, DELETE',
    'Access-Control-Allow-Headers': ALLOWED_REQUEST_HEADERS,
    'Access-Control-Max-Age': '600',
  };
}
