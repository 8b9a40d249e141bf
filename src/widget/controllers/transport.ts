/**
 * The widget's only way out: JSON calls to the signing handler's visitor routes (CONTRACT §4),
 * with the visitor's bearer token on each, one renewal on 401, and every failure turned into a
 * {@link RequestFailure} that says what happened and whether the request may have reached the
 * server (which decides whether a resend must first look for the message upstream).
 */
import type { Envelope, ValidationProblem } from '../../shared/types.js';
import type { KeyValueStorage } from './storage.js';
import type { ChatbotErrorKind } from '../events.js';

/** A visitor identity issued by the handler's `/visitor` route. */
export interface VisitorIdentity {
  token: string;
  userId: string;
}

/** A failed call, classified for the visitor's eyes and for the outbox's decisions. */
export class RequestFailure extends Error {
  override name = 'RequestFailure';
  constructor(
    readonly kind: ChatbotErrorKind,
    /** HTTP status; 0 when no answer arrived. */
    readonly status: number,
    /** The server's own words, when it sent some (validation titles, envelope errors). */
    readonly detail: string,
    /**
     * True when the server may have acted on the request although we saw no success:
     * network failures, timeouts and 5xx. A clean 4xx means it did not.
     */
    readonly mayHaveArrived: boolean,
    /** Seconds the server asked us to wait (429 `Retry-After`). */
    readonly retryAfter?: number,
  ) {
    super(detail || `${kind} (${status})`);
  }
}

export interface RequestOptions {
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  /** Client-side limit; the handler itself gives up on upstream after 10 s. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A request that got no answer at the network level: `offline` only when the browser says it has
 * no connection. Otherwise the service itself could not be reached: down, a wrong `endpoint`, or
 * a handler on another origin whose answer the browser withheld (CORS), which `fetch` reports
 * exactly like a lost connection.
 */
function networkFailure(): RequestFailure {
  return new RequestFailure(globalThis.navigator?.onLine === false ? 'offline' : 'unreachable', 0, '', true);
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

function retryAfterSeconds(response: Response): number {
  const header = response.headers.get('Retry-After');
  if (!header) return 1;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(1, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isFinite(date) ? Math.max(1, Math.ceil((date - Date.now()) / 1000)) : 1;
}

export class Transport {
  /** The handler's base URL, absolute, without a trailing slash. */
  readonly base: string;
  private identity: VisitorIdentity | undefined;
  private issuing: Promise<VisitorIdentity> | undefined;
  private loaded: Promise<void> | undefined;

  constructor(
    endpoint: string,
    private readonly storage: KeyValueStorage,
    /** Called when the identity changes (new visitor, or the old token was refused). */
    private readonly onIdentity: (identity: VisitorIdentity | undefined) => void = () => {},
  ) {
    this.base = new URL(endpoint, globalThis.document?.baseURI).href.replace(/\/+$/, '');
  }

  private get identityKey() {
    return `identity|${this.base}`;
  }

  /** The stored identity, if any, without asking the server. */
  async storedIdentity(): Promise<VisitorIdentity | undefined> {
    this.loaded ??= this.storage.get<VisitorIdentity>(this.identityKey).then((stored) => {
      if (!this.identity && stored?.token && stored.userId) this.identity = stored;
    });
    await this.loaded;
    return this.identity;
  }

  /** The identity, asking `/visitor` for one when there is none yet. */
  async ensureIdentity(signal?: AbortSignal): Promise<VisitorIdentity> {
    return (await this.storedIdentity()) ?? this.issue(signal);
  }

  /** Asks `/visitor` for an identity; given the current token the handler renews it. */
  private issue(signal?: AbortSignal, previous?: VisitorIdentity): Promise<VisitorIdentity> {
    this.issuing ??= (async () => {
      try {
        const body = await this.raw<Envelope<VisitorIdentity>>('POST', '/visitor', { signal }, previous?.token);
        const data = body.data;
        if (!data || typeof data.token !== 'string' || typeof data.userId !== 'string') {
          throw new RequestFailure('identity', 200, 'The chat service sent no visitor identity.', false);
        }
        const changed = data.userId !== this.identity?.userId;
        this.identity = { token: data.token, userId: data.userId };
        await this.storage.set(this.identityKey, this.identity);
        if (changed) this.onIdentity(this.identity);
        return this.identity;
      } finally {
        this.issuing = undefined;
      }
    })();
    return this.issuing;
  }

  /** Forgets the identity here and in storage; the next call asks for a new one. */
  async forgetIdentity() {
    await this.storedIdentity();
    this.identity = undefined;
    await this.storage.delete(this.identityKey);
  }

  /** A call with the visitor's token; a 401 renews the identity once and repeats the call. */
  async request<T>(method: 'GET' | 'POST', path: string, options: RequestOptions = {}): Promise<T> {
    const identity = await this.ensureIdentity(options.signal);
    try {
      return await this.raw<T>(method, path, options, identity.token);
    } catch (error) {
      if (!(error instanceof RequestFailure) || error.status !== 401) throw error;
      // The token expired or the handler's key changed: /visitor renews it (same visitor if it
      // still can, a new one if not), and the call is made once more.
      const renewed = await this.issue(options.signal, identity);
      return this.raw<T>(method, path, options, renewed.token);
    }
  }

  private async raw<T>(method: string, path: string, options: RequestOptions, token?: string): Promise<T> {
    const url = new URL(this.base + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { Accept: 'application/json' };
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
      if (timeout.aborted) throw new RequestFailure('timeout', 0, '', true);
      throw networkFailure();
    }
    let answer: string;
    try {
      answer = await response.text();
    } catch (error) {
      if (options.signal?.aborted) throw error;
      // The connection broke while the answer was arriving: the server did act.
      throw timeout.aborted ? new RequestFailure('timeout', 0, '', true) : networkFailure();
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer);
    } catch {
      parsed = undefined;
    }
    if (response.ok && parsed && typeof parsed === 'object') return parsed as T;
    const detail = describe(parsed);
    const status = response.status;
    if (response.ok) throw new RequestFailure('server', status, 'The chat service sent an unreadable answer.', true);
    if (status === 429) throw new RequestFailure('rate-limited', status, detail, false, retryAfterSeconds(response));
    if (status === 401) throw new RequestFailure('identity', status, detail, false);
    if (status === 504) throw new RequestFailure('timeout', status, detail, true);
    if (status >= 500) throw new RequestFailure('server', status, detail, true);
    throw new RequestFailure('rejected', status, detail, false);
  }
}
