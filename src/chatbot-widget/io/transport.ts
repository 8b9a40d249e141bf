/**
 * The widget's way to the handler: JSON calls to the signing handler's visitor routes, each failure
 * turned into a {@link RequestFailure} that says what happened, for the visitor's eyes and the
 * outbox's decisions. It only sends and classifies: who the calls speak for (a visitor token, or
 * the site's own login through the page's cookies) is identity/visitor.ts's business.
 */
import { retryAfterSeconds } from '../../shared/retry-after.js';
import type { Envelope, ValidationProblem } from '../../shared/types.js';
import { endpointBase } from '../../ui/endpoint-base.js';
import type { ChatbotErrorKind } from '../../ui/events.js';

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

/**
 * A request that got no answer at the network level: `offline` only when the browser says it has
 * no connection. Otherwise the service itself could not be reached: down, a wrong `endpoint`, or
 * a handler on another origin whose answer the browser withheld (CORS), which `fetch` reports
 * exactly like a lost connection.
 */
function networkFailure(): RequestFailure {
  return new RequestFailure(navigator.onLine === false ? 'offline' : 'unreachable', 0, '');
}

/**
 * The handler's own words in an error body. `<chatbot-usage>` reads its error bodies the same way
 * (chatbot-usage/failure-text.ts): a module shared by the two elements would be split into a chunk
 * of its own, one more file to fetch on a visitor's first open.
 */
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

/** Whose cookies a call carries: the page's own origin's, or also a handler's on another origin (identity/credentials.ts). */
export type HandlerCredentials = 'same-origin' | 'include';

export class Transport {
  /** The handler's base URL, absolute, without a trailing slash. */
  readonly base: string;

  readonly #credentials: () => HandlerCredentials;
  readonly #onAnswer: (headers: Headers) => void;
  constructor(
    endpoint: string,
    /** Read at each call, so a changed `credentials` attribute counts from the next one. */
    credentials: () => HandlerCredentials = () => 'same-origin',
    /** Called with the headers of each answer, before its body is read (they tell what is left of the visitor's sends). */
    onAnswer: (headers: Headers) => void = () => {},
  ) {
    this.#credentials = credentials;
    this.#onAnswer = onAnswer;
    this.base = endpointBase(endpoint);
  }

  /**
   * One call to the handler: `token`, when given, as `Authorization: Bearer`. Resolves to the
   * parsed JSON answer (undefined for a 204); rejects with a {@link RequestFailure}, or with the
   * caller's own abort.
   */
  async send<T>(method: string, path: string, options: RequestOptions = {}, token?: string): Promise<T> {
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
      response = await fetch(url, { method, headers, body, signal, credentials: this.#credentials(), cache: 'no-store' });
    } catch (error) {
      if (options.signal?.aborted) throw error; // the caller gave up: not a failure to show
      if (timeout.aborted) throw new RequestFailure('timeout', 0, '');
      throw networkFailure();
    }
    this.#onAnswer(response.headers);
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
