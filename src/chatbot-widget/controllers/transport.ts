/**
 * The widget's only way out: JSON calls to the signing handler's visitor routes,
 * with the visitor's bearer token on each, one renewal on 401, and every failure turned into a
 * {@link RequestFailure} that says what happened, for the visitor's eyes and the outbox's
 * decisions.
 */
import { retryAfterSeconds } from '../../shared/retry-after.js';
import type { Envelope, ValidationProblem } from '../../shared/types.js';
import { rememberVisitor } from './first-paint-record.js';
import { endpointBase } from '../../ui/endpoint-base.js';
import type { KeyValueStorage } from './storage.js';
import type { ChatbotErrorKind } from '../../ui/events.js';

/** A visitor identity issued by the handler's `/visitor` route. */
export interface VisitorIdentity {
  token: string;
  userId: string;
  /** When `/visitor` last issued or renewed the token (Unix ms); absent in a record kept before it was noted. */
  renewedAt?: number;
}

/**
 * A stored token older than this is renewed in the background when the widget starts. The handler
 * renews a token only while it is valid (30 days by default) and issues a new identity, with no
 * history, for an expired one: a visitor who comes back now and then keeps their conversations
 * only if the token is renewed while it is still good.
 */
const RENEW_AFTER_MS = 24 * 60 * 60 * 1000;

/** A failed call, classified for the visitor's eyes and for the outbox's decisions. */
export class RequestFailure extends Error {
  override name = 'RequestFailure';
  readonly kind: ChatbotErrorKind;
  /** HTTP status; 0 when no answer arrived. */
  readonly status: number;
  /** The server's own words, when it sent some (validation titles, envelope errors). */
  readonly detail: string;
  /** Seconds the server asked us to wait (429 `Retry-After`). */
  readonly retryAfter: number | undefined;
  constructor(kind: ChatbotErrorKind, status: number, detail: string, retryAfter?: number) {
    super(detail || `${kind} (${status})`);
    this.kind = kind;
    this.status = status;
    this.detail = detail;
    this.retryAfter = retryAfter;
  }
}

/**
 * A window that ends within this of its answer is a per-minute limit, not the day's budget: its
 * sends come back before a notice would help, and a send it refuses says how many seconds to wait.
 */
export const MINUTE_MS = 60_000;

/** The visitor's tightest send window, from the handler's `X-RateLimit-*` headers. */
export interface SendQuota {
  remaining: number;
  /** When the window ends (ms). */
  resetAt: number;
  /**
   * The window ended more than a minute after the answer that told it: the day's budget. Decided
   * then, once: a day's last minute is still the day's.
   */
  daily: boolean;
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Extra request headers (the send's `Idempotency-Key`). */
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Client-side limit; the handler itself gives up on upstream after 10 s. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** reset() waits this long for the handler before it forgets the visitor locally anyway. */
const REVOKE_TIMEOUT_MS = 5_000;
/** Tokens kept for a later revocation, at most (the oldest give way). */
const MAX_WAITING_REVOCATIONS = 5;

/**
 * A request that got no answer at the network level: `offline` only when the browser says it has
 * no connection. Otherwise the service itself could not be reached: down, a wrong `endpoint`, or
 * a handler on another origin whose answer the browser withheld (CORS), which `fetch` reports
 * exactly like a lost connection.
 */
function networkFailure(): RequestFailure {
  return new RequestFailure(navigator.onLine === false ? 'offline' : 'unreachable', 0, '');
}

function describe(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const { error, title, errors } = body as Partial<Envelope<unknown>> & Partial<ValidationProblem>;
  if (typeof error === 'string' && error) return error;
  if (errors && typeof errors === 'object') {
    const first = Object.values(errors).flat()[0];
    if (typeof first === 'string') return first;
  }
  return typeof title === 'string' ? title : '';
}

export class Transport {
  /** The handler's base URL, absolute, without a trailing slash. */
  readonly base: string;
  #identity: VisitorIdentity | undefined;
  #issuing: Promise<VisitorIdentity> | undefined;
  #loaded: Promise<void> | undefined;

  readonly #storage: KeyValueStorage;
  readonly #onIdentity: (identity: VisitorIdentity | undefined) => void;
  readonly #onQuota: (quota: SendQuota) => void;
  constructor(
    endpoint: string,
    storage: KeyValueStorage,
    /** Called when the identity changes (new visitor, or the old token was refused). */
    onIdentity: (identity: VisitorIdentity | undefined) => void = () => {},
    /** Called with the rate headers of each answer that has them (the send route's). */
    onQuota: (quota: SendQuota) => void = () => {},
  ) {
    this.#storage = storage;
    this.#onIdentity = onIdentity;
    this.#onQuota = onQuota;

    this.base = endpointBase(endpoint);
  }

  get #identityKey() {
    return `identity|${this.base}`;
  }

  /**
   * The stored identity, if any, without waiting for the server. A token renewed more than a day
   * ago is renewed meanwhile ({@link RENEW_AFTER_MS}).
   */
  async storedIdentity(): Promise<VisitorIdentity | undefined> {
    this.#loaded ??= this.#storage.get<VisitorIdentity>(this.#identityKey).then(async (stored) => {
      if (this.#identity || !stored?.token || !stored.userId) return;
      this.#identity = stored;
      if (stored.renewedAt === undefined) {
        // Kept before renewals were noted: counted from now, without a call at start-up.
        this.#identity = { ...stored, renewedAt: Date.now() };
        await this.#storage.set(this.#identityKey, this.#identity);
      } else if (Date.now() - stored.renewedAt > RENEW_AFTER_MS) {
        // Offline or refused: the stored token stays, and the next start tries again.
        this.#issue(undefined, stored).catch(() => undefined);
      }
    });
    await this.#loaded;
    return this.#identity;
  }

  /** The identity, asking `/visitor` for one when there is none yet. */
  async ensureIdentity(signal?: AbortSignal): Promise<VisitorIdentity> {
    return (await this.storedIdentity()) ?? this.#issue(signal);
  }

  /** Asks `/visitor` for an identity; given the current token the handler renews it. */
  #issue(signal?: AbortSignal, previous?: VisitorIdentity): Promise<VisitorIdentity> {
    this.#issuing ??= (async () => {
      try {
        const body = await this.#raw<Envelope<VisitorIdentity>>('POST', '/visitor', { signal }, previous?.token);
        const data = body.data;
        if (!data || typeof data.token !== 'string' || typeof data.userId !== 'string') {
          throw new RequestFailure(
            'identity',
            200,
            "The handler's answer to POST /visitor has no visitor identity (a token and a userId): check that endpoint is the signing handler's base path.",
          );
        }
        const changed = data.userId !== this.#identity?.userId;
        // The first-paint record must never outlive its visitor: unnamed before the identity
        // changes, named again once the new one is stored.
        if (changed) rememberVisitor(this.base, undefined);
        this.#identity = { token: data.token, userId: data.userId, renewedAt: Date.now() };
        await this.#storage.set(this.#identityKey, this.#identity);
        this.nameVisitor();
        if (changed) this.#onIdentity(this.#identity);
        return this.#identity;
      } finally {
        this.#issuing = undefined;
      }
    })();
    return this.#issuing;
  }

  /**
   * Revokes the visitor's token at the handler (`DELETE {base}/visitor`), so that a copy of it
   * (a tab not yet told, a script of the page that read it) stops working. When the handler
   * cannot be reached, the token is kept aside, apart from the identity, and revoked by
   * {@link revokeForgotten} on a later connection. Resolves to whether the handler confirmed.
   */
  async revokeIdentity(): Promise<boolean> {
    const identity = await this.storedIdentity();
    if (!identity || (await this.#revoke(identity.token))) return true;
    const waiting = (await this.#storage.get<string[]>(this.#revokeKey)) ?? [];
    await this.#storage.set(this.#revokeKey, [...waiting, identity.token].slice(-MAX_WAITING_REVOCATIONS));
    return false;
  }

  /** Revokes the tokens a reset could not revoke at the time. */
  async revokeForgotten() {
    const waiting = await this.#storage.get<string[]>(this.#revokeKey);
    if (!Array.isArray(waiting) || !waiting.length) return;
    const left: string[] = [];
    for (const token of waiting) if (typeof token === 'string' && !(await this.#revoke(token))) left.push(token);
    await (left.length ? this.#storage.set(this.#revokeKey, left) : this.#storage.delete(this.#revokeKey));
  }

  get #revokeKey() {
    return `revoke|${this.base}`;
  }

  async #revoke(token: string): Promise<boolean> {
    try {
      await this.#raw('DELETE', '/visitor', { timeoutMs: REVOKE_TIMEOUT_MS }, token);
      return true;
    } catch (error) {
      // 401: no longer valid anyway (expired, or revoked by another tab). Anything else a 4xx
      // says will not change on a later try either.
      return error instanceof RequestFailure && error.status >= 400 && error.status < 500 && error.status !== 429;
    }
  }

  /**
   * Names the stored visitor beside the first-paint record (first-paint-record.ts), where the
   * identity is kept across reloads; where it lives in memory only, a reload has no visitor.
   */
  nameVisitor() {
    rememberVisitor(this.base, this.#storage.persistent ? this.#identity?.userId : undefined);
  }

  /** Forgets the identity here and in storage; the next call asks for a new one. */
  async forgetIdentity() {
    await this.storedIdentity();
    rememberVisitor(this.base, undefined);
    this.#identity = undefined;
    await this.#storage.delete(this.#identityKey);
  }

  /** A call with the visitor's token; a 401 renews the identity once and repeats the call. */
  async request<T>(method: 'GET' | 'POST', path: string, options: RequestOptions = {}): Promise<T> {
    const identity = await this.ensureIdentity(options.signal);
    try {
      return await this.#raw<T>(method, path, options, identity.token);
    } catch (error) {
      if (!(error instanceof RequestFailure) || error.status !== 401) throw error;
      // The token expired or the handler's key changed: /visitor renews it (same visitor if it
      // still can, a new one if not), and the call is made once more.
      const renewed = await this.#issue(options.signal, identity);
      return this.#raw<T>(method, path, options, renewed.token);
    }
  }

  async #raw<T>(method: string, path: string, options: RequestOptions, token?: string): Promise<T> {
    const url = new URL(this.base + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
    if (token) headers.Authorization = `Bearer ${token}`;
    let body: string | undefined;
    if (options.body !== undefined || method === 'POST') {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body ?? {});
    }
    const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

    let response: Response;
    try {
      response = await fetch(url, { method, headers, body, signal, credentials: 'same-origin', cache: 'no-store' });
    } catch (error) {
      if (options.signal?.aborted) throw error; // the caller gave up: not a failure to show
      if (timeout.aborted) throw new RequestFailure('timeout', 0, '');
      throw networkFailure();
    }
    const remaining = response.headers.get('X-RateLimit-Remaining');
    const resetAt = Number(response.headers.get('X-RateLimit-Reset')) * 1000;
    if (remaining !== null && Number.isFinite(+remaining) && resetAt > 0)
      this.#onQuota({ remaining: +remaining, resetAt, daily: resetAt - Date.now() > MINUTE_MS });
    let answer: string;
    try {
      answer = await response.text();
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // The connection broke while the answer was arriving: the server did act.
      throw timeout.aborted ? new RequestFailure('timeout', 0, '') : networkFailure();
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer);
    } catch {
      parsed = undefined;
    }
    if (response.ok && parsed && typeof parsed === 'object') return parsed as T;
    if (response.status === 204) return undefined as T;
    const detail = describe(parsed);
    const status = response.status;
    if (response.ok)
      throw new RequestFailure(
        'server',
        status,
        `The handler answered ${status} with a body that is not JSON: check that endpoint is the signing handler's base path, not a page.`,
      );
    if (status === 429)
      throw new RequestFailure('rate-limited', status, detail, Math.max(1, retryAfterSeconds(status, response.headers, Date.now()) ?? 1));
    if (status === 401) throw new RequestFailure('identity', status, detail);
    if (status === 504) throw new RequestFailure('timeout', status, detail);
    if (status >= 500) throw new RequestFailure('server', status, detail);
    throw new RequestFailure('rejected', status, detail);
  }
}
