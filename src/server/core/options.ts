/**
 * Options of `createSigningHandler`: their types, defaults and the checks made once at creation,
 * so a misconfigured handler fails at start-up with a message naming the option, not at the
 * first visitor's request.
 */
import type { ApiBase } from '../../client/signed-request.js';
import { ID_PATTERN, MAX_REQUEST_BODY_BYTES } from '../../shared/limits.js';
import type { Logger } from './logger.js';
import { consoleLogger } from './logger.js';
import { GuardedStore } from './guarded-store.js';
import type { HandlerStore } from '../stores/store.js';
import { MemoryStore } from '../stores/memory.js';
import { transportOf, type UpstreamTransport } from './upstream-transport.js';

/** Who the caller is, as far as the upstream API is concerned. */
export interface Identity {
  /** The upstream user id the handler uses for this caller (never taken from the browser). */
  userId: string;
  /** Display name for sends; the `name` of the message body, or `Visitor`, when absent. */
  name?: string;
}

/** What an adapter knows about the connection, passed as the handler's optional second argument. */
export interface HandlerContext {
  /** The connection's peer address (e.g. `socket.remoteAddress`), for the per-address limit. */
  clientAddress?: string;
  /**
   * The request target exactly as received (`/chatbot/messages/..%2f…`), before URL
   * normalisation. Adapters that have it pass it, so dot segments are refused, not resolved.
   */
  rawPath?: string;
}

/** Per-identity and per-address limits (see docs/handler.md, "Budgets"). */
export interface Limits {
  /** Send attempts per identity per minute. Default 10. */
  sendsPerMinute: number;
  /** Send attempts per identity per UTC day. Default 100. */
  sendsPerDay: number;
  /** New visitor identities per client address per minute. Default 30. */
  visitorsPerMinutePerAddress: number;
  /** Sends per client address per minute, all its visitor identities together. Default 20. */
  sendsPerMinutePerAddress: number;
  /**
   * Share (0–1) of the chatbot's daily quota one client address may spend in a UTC day, all its
   * visitor identities together, rounded up. Default 0.1 (10 %).
   */
  dailyQuotaSharePerAddress: number;
  /**
   * Visitor identities revoked (`DELETE {base}/visitor`) per UTC day, all addresses together.
   * A revocation is kept for as long as a token of its identity could be valid (up to
   * `visitorTokenMaxAgeSeconds`), so this bounds how many the store can hold. Default 500.
   */
  revocationsPerDay: number;
  /** Ratings (`POST {base}/feedback`) per identity per minute. Default 60. */
  ratingsPerMinute: number;
}

/** Options of {@link createSigningHandler}. */
export interface SigningHandlerOptions {
  /** Base URL of the upstream API, ending in `/api` (e.g. `https://chat.example.com/api`). */
  apiBaseUrl: string;
  /** The public API key (`pk_…`), sent as `X-API-Key`. */
  apiKey: string;
  /** The API secret (`sk_…`): signs every upstream request, never sent anywhere. */
  apiSecret: string;
  /** The chatbot every request is scoped to. */
  chatbotId: string;
  /** Where the handler is mounted. Default `/chatbot`. */
  basePath?: string;
  /**
   * The host application's own login: return the logged-in user's upstream identity, or null
   * (the request is answered 401). When given, visitor tokens are not used.
   */
  identify?: (request: Request) => Identity | null | undefined | Promise<Identity | null | undefined>;
  /** Whether the admin routes may be used by this request. Absent: admin routes answer 403. */
  authorizeAdmin?: (request: Request) => boolean | Promise<boolean>;
  /** Exact origins (`https://shop.example.com`) allowed to call cross-origin. Default none. */
  allowedOrigins?: readonly string[];
  /** Key of the visitor tokens (at least 32 characters). Default: derived from `apiSecret`. */
  visitorTokenSecret?: string;
  /** Lifetime of a visitor token in seconds. Default 30 days. */
  visitorTokenTtlSeconds?: number;
  /**
   * Renewal of a visitor identity by `/visitor` ends this many seconds after it was first issued;
   * then a new identity starts. Default 90 days.
   */
  visitorTokenMaxAgeSeconds?: number;
  /** Rate limits; each one defaults separately. */
  limits?: Partial<Limits>;
  /**
   * Where limit counters, idempotency records and revocations live. Default `new MemoryStore()`
   * (this process only); several instances share one through a shared store.
   */
  store?: HandlerStore;
  /**
   * The client address for the per-address limit. Default: the adapter's `clientAddress`.
   * Behind a proxy, name the header it sets, e.g. `(r) => r.headers.get('CF-Connecting-IP')`.
   */
  clientAddress?: (request: Request) => string | null | undefined;
  /** Upstream timeout in milliseconds. Default 10000. */
  upstreamTimeoutMs?: number;
  /** Largest accepted request body in bytes. Default 16384. */
  maxBodyBytes?: number;
  /** The `fetch` used upstream. Default the global one. */
  fetch?: typeof fetch;
  /** Where the site owner's messages go. Default `console`. Never receives secrets or tokens. */
  logger?: Logger;
  /** Clock in milliseconds (the default store keeps it too). Default `Date.now`. */
  now?: () => number;
}

/** Options after defaults and checks. */
export interface ResolvedOptions {
  /** The upstream base URL split as the request builder wants it: origin and path prefix (`/api`). */
  upstreamBase: ApiBase;
  apiKey: string;
  apiSecret: string;
  chatbotId: string;
  basePath: string;
  identify: SigningHandlerOptions['identify'];
  authorizeAdmin: SigningHandlerOptions['authorizeAdmin'];
  allowedOrigins: ReadonlySet<string>;
  visitorTokenSecret: string | undefined;
  visitorTokenTtlSeconds: number;
  visitorTokenMaxAgeSeconds: number;
  limits: Limits;
  /** The store, with failures turned into 503 answers and one log line for the owner. */
  store: GuardedStore;
  clientAddress: SigningHandlerOptions['clientAddress'];
  upstreamTimeoutMs: number;
  maxBodyBytes: number;
  fetch: typeof fetch;
  /** The shorter way upstream the `fetch` option carries, if any (keepAliveFetch does). */
  transport: UpstreamTransport | undefined;
  logger: Logger;
  now: () => number;
}

export const DEFAULT_LIMITS: Limits = Object.freeze({
  sendsPerMinute: 10,
  sendsPerDay: 100,
  visitorsPerMinutePerAddress: 30,
  sendsPerMinutePerAddress: 20,
  dailyQuotaSharePerAddress: 0.1,
  revocationsPerDay: 500,
  ratingsPerMinute: 60,
});
export const DEFAULT_VISITOR_TOKEN_TTL_SECONDS = 30 * 24 * 60 * 60;
export const DEFAULT_VISITOR_TOKEN_MAX_AGE_SECONDS = 90 * 24 * 60 * 60;
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BODY_BYTES = MAX_REQUEST_BODY_BYTES;

function fail(message: string): never {
  throw new TypeError(`createSigningHandler: ${message}`);
}

function requireText(options: Record<string, unknown>, name: string, hint: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value.trim() === '') fail(`${name} is missing (${hint}).`);
  return value;
}

/** A value for an error message: objects by kind, since String() would print "[object Object]". */
function describeValue(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  return value !== null && typeof value === 'object' ? 'an object' : String(value as string | number | boolean | null);
}

function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    fail(`${name} must be a whole number of at least 1, got ${describeValue(value)}.`);
  return value;
}

/** Checks an exact origin: scheme, host and optional port, nothing else. */
function parseOrigin(text: unknown): string {
  if (typeof text !== 'string') fail(`allowedOrigins must hold origin strings such as "https://shop.example.com".`);
  if (text === '*' || text === 'null') fail(`allowedOrigins may not contain "${text}": list the exact origins that may call the handler.`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fail(`allowedOrigins: "${text}" is not an origin such as "https://shop.example.com".`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.origin !== text.replace(/\/$/, '')) {
    fail(`allowedOrigins: "${text}" must be exactly scheme://host[:port], without path, query or wildcard.`);
  }
  return url.origin;
}

const STORE_METHODS = ['increment', 'get', 'add', 'swap', 'putRecord', 'deleteRecord', 'listRecords', 'countRecords'] as const;

/** The `store` option, checked, else a MemoryStore. */
function chooseStore(options: SigningHandlerOptions, logger: Logger, now: () => number): HandlerStore {
  if (options.store !== undefined) {
    const missing = STORE_METHODS.filter((name) => typeof (options.store as unknown as Record<string, unknown>)?.[name] !== 'function');
    if (missing.length > 0)
      fail(
        `store must implement the handler's store interface (${STORE_METHODS.join(', ')}); missing ${missing.join(', ')}. See docs/handler.md.`,
      );
    return options.store;
  }
  // On the handler's clock: its windows and leases end when the handler says they do.
  return new MemoryStore({ now });
}

/** Applies defaults and checks every option; throws a TypeError naming the first bad one. */
export function resolveOptions(options: SigningHandlerOptions): ResolvedOptions {
  if (!options || typeof options !== 'object') fail('pass an options object ({ apiBaseUrl, apiKey, apiSecret, chatbotId }).');
  const record = options as unknown as Record<string, unknown>;
  const baseText = requireText(record, 'apiBaseUrl', 'the upstream base URL ending in /api, CHATBOT_API_BASE_URL');
  let apiBase: URL;
  try {
    apiBase = new URL(baseText);
  } catch {
    fail(`apiBaseUrl "${baseText}" is not a URL; expected e.g. https://chat.example.com/api.`);
  }
  if (apiBase.protocol !== 'http:' && apiBase.protocol !== 'https:') fail('apiBaseUrl must be an http(s) URL.');
  if (apiBase.username || apiBase.password || apiBase.search || apiBase.hash)
    fail('apiBaseUrl must not carry credentials, a query or a fragment.');
  apiBase.pathname = apiBase.pathname.replace(/\/+$/, '');
  if (!apiBase.pathname.endsWith('/api')) fail(`apiBaseUrl must end in /api (got "${baseText}").`);

  const apiKey = requireText(record, 'apiKey', 'the public key pk_…, CHATBOT_API_KEY');
  const apiSecret = requireText(record, 'apiSecret', 'the secret sk_…, CHATBOT_API_SECRET');
  const chatbotId = requireText(record, 'chatbotId', 'CHATBOT_ID');
  if (!ID_PATTERN.test(chatbotId)) fail('chatbotId may only hold letters, digits, "_" and "-" (1 to 128 characters).');

  const basePath = (options.basePath ?? '/chatbot').replace(/\/+$/, '');
  if (basePath !== '' && !/^(\/[A-Za-z0-9_-]+)+$/.test(basePath)) {
    fail(`basePath "${options.basePath}" must look like "/chatbot": segments of letters, digits, "_" and "-".`);
  }

  for (const name of ['identify', 'authorizeAdmin', 'clientAddress', 'fetch', 'now'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') fail(`${name} must be a function.`);
  }
  if (options.allowedOrigins !== undefined && !Array.isArray(options.allowedOrigins)) fail('allowedOrigins must be an array of origins.');
  const allowedOrigins = new Set((options.allowedOrigins ?? []).map(parseOrigin));

  if (
    options.visitorTokenSecret !== undefined &&
    (typeof options.visitorTokenSecret !== 'string' || options.visitorTokenSecret.length < 32)
  ) {
    fail('visitorTokenSecret must be a string of at least 32 characters (leave it out to derive one from apiSecret).');
  }
  const limits = options.limits ?? {};
  if (typeof limits !== 'object') fail('limits must be an object such as { sendsPerMinute: 10 }.');
  const fetchImpl = options.fetch ?? (typeof fetch === 'function' ? fetch : undefined);
  if (!fetchImpl) fail('no fetch in this runtime: pass the fetch option.');
  const logger = options.logger ?? consoleLogger;
  if (typeof logger.warn !== 'function' || typeof logger.error !== 'function') fail('logger must have warn() and error() methods.');
  const now = options.now ?? Date.now;
  const store = chooseStore(options, logger, now);
  const share = limits.dailyQuotaSharePerAddress ?? DEFAULT_LIMITS.dailyQuotaSharePerAddress;
  if (typeof share !== 'number' || !(share > 0 && share <= 1))
    fail(`limits.dailyQuotaSharePerAddress must be a number above 0 and at most 1 (0.1 is 10 %), got ${String(share)}.`);

  return {
    upstreamBase: { origin: apiBase.origin, pathPrefix: apiBase.pathname },
    apiKey,
    apiSecret,
    chatbotId,
    basePath,
    identify: options.identify,
    authorizeAdmin: options.authorizeAdmin,
    allowedOrigins,
    visitorTokenSecret: options.visitorTokenSecret,
    visitorTokenTtlSeconds: positiveInteger(options.visitorTokenTtlSeconds, 'visitorTokenTtlSeconds', DEFAULT_VISITOR_TOKEN_TTL_SECONDS),
    visitorTokenMaxAgeSeconds: positiveInteger(
      options.visitorTokenMaxAgeSeconds,
      'visitorTokenMaxAgeSeconds',
      DEFAULT_VISITOR_TOKEN_MAX_AGE_SECONDS,
    ),
    limits: {
      sendsPerMinute: positiveInteger(limits.sendsPerMinute, 'limits.sendsPerMinute', DEFAULT_LIMITS.sendsPerMinute),
      sendsPerDay: positiveInteger(limits.sendsPerDay, 'limits.sendsPerDay', DEFAULT_LIMITS.sendsPerDay),
      visitorsPerMinutePerAddress: positiveInteger(
        limits.visitorsPerMinutePerAddress,
        'limits.visitorsPerMinutePerAddress',
        DEFAULT_LIMITS.visitorsPerMinutePerAddress,
      ),
      sendsPerMinutePerAddress: positiveInteger(
        limits.sendsPerMinutePerAddress,
        'limits.sendsPerMinutePerAddress',
        DEFAULT_LIMITS.sendsPerMinutePerAddress,
      ),
      dailyQuotaSharePerAddress: share,
      revocationsPerDay: positiveInteger(limits.revocationsPerDay, 'limits.revocationsPerDay', DEFAULT_LIMITS.revocationsPerDay),
      ratingsPerMinute: positiveInteger(limits.ratingsPerMinute, 'limits.ratingsPerMinute', DEFAULT_LIMITS.ratingsPerMinute),
    },
    store: new GuardedStore(store, logger, options.now ?? Date.now),
    clientAddress: options.clientAddress,
    upstreamTimeoutMs: positiveInteger(options.upstreamTimeoutMs, 'upstreamTimeoutMs', DEFAULT_UPSTREAM_TIMEOUT_MS),
    maxBodyBytes: positiveInteger(options.maxBodyBytes, 'maxBodyBytes', DEFAULT_MAX_BODY_BYTES),
    // Called as a plain function, never as a method of this object: workerd's fetch throws
    // "Illegal invocation" when `this` is anything but the global scope.
    fetch: (input, init) => fetchImpl(input, init),
    transport: transportOf(fetchImpl),
    logger,
    now,
  };
}
