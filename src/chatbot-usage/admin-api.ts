/**
 * Calls of `<chatbot-usage>` to the signing handler's admin routes: JSON GETs carrying the admin
 * token as `X-Admin-Token`, with every failure turned into an {@link AdminFailure} whose message
 * tells the site owner what to change.
 */
import { ADMIN_TOKEN_HEADER } from '../shared/headers.js';
import { retryAfterSeconds } from '../shared/retry-after.js';
import type {
  ChatSession,
  ChatUser,
  CountByMonthResponse,
  CountResponse,
  FeedbackCountByMonthResponse,
  FeedbackItem,
  FeedbackListResponse,
  FeedbackMonth,
  Message,
  MessageResponse,
  MonthlyUsage,
  PagedEnvelope,
  SessionListResponse,
  UserListResponse,
} from '../shared/types.js';
import type { ChatbotErrorKind } from '../ui/events.js';
import type { UsageRange } from './month-range.js';
import { failureText, serverWords } from './failure-text.js';

/** A failed admin call: its kind, status and the sentence for the site owner. */
export class AdminFailure extends Error {
  override name = 'AdminFailure';
  readonly kind: ChatbotErrorKind;
  readonly status: number;
  /** The admin route that failed. */
  readonly route: string;
  /** Seconds the handler asked the page to wait (429 `Retry-After`). */
  readonly retryAfter: number | undefined;
  constructor(kind: ChatbotErrorKind, status: number, message: string, route: string, retryAfter?: number) {
    super(message);
    this.kind = kind;
    this.status = status;
    this.route = route;
    this.retryAfter = retryAfter;
  }
}

/** One page of a listing, as the element shows it. */
export interface Page<T> {
  items: T[];
  page: number;
  totalPages: number;
  totalItems: number;
}

const TIMEOUT_MS = 30_000;

/** The seconds a 429 or 503 asks to wait (at least 1), or undefined when it does not say. */
function waitOf(response: Response): number | undefined {
  const seconds = retryAfterSeconds(response.status, response.headers, Date.now());
  return seconds === null ? undefined : Math.max(1, seconds);
}

function paged<T>(body: PagedEnvelope<T[]>): Page<T> {
  return {
    items: Array.isArray(body.data) ? body.data : [],
    page: Number(body.currentPage) || 1,
    totalPages: Number(body.totalPages) || 0,
    totalItems: Number(body.totalItems) || 0,
  };
}

export class AdminApi {
  /** The handler's base URL, absolute, without a trailing slash. */
  readonly base: string;

  readonly #token: string;
  readonly #signal: AbortSignal;
  constructor(endpoint: string, token: string, signal: AbortSignal) {
    this.#token = token;
    this.#signal = signal;

    this.base = new URL(endpoint || '.', globalThis.document?.baseURI).href.replace(/\/+$/, '');
  }

  /** GETs `{base}/admin/{route}`; resolves to the parsed body of a 2xx answer, else throws {@link AdminFailure}. */
  async get<T>(route: string, query: Record<string, string | number | boolean | undefined> = {}): Promise<T> {
    const name = `admin/${route}`;
    const url = new URL(`${this.base}/${name}`);
    for (const [key, value] of Object.entries(query)) if (value !== undefined) url.searchParams.set(key, String(value));
    const timeout = AbortSignal.timeout(TIMEOUT_MS);
    let response: Response;
    try {
      response = await fetch(url, {
        headers: { [ADMIN_TOKEN_HEADER]: this.#token, Accept: 'application/json' },
        signal: AbortSignal.any([this.#signal, timeout]),
        credentials: 'same-origin',
      });
    } catch (error) {
      if (this.#signal.aborted) throw error;
      const kind: ChatbotErrorKind = timeout.aborted ? 'timeout' : globalThis.navigator?.onLine === false ? 'offline' : 'unreachable';
      throw new AdminFailure(kind, 0, failureText({ kind, status: 0, base: this.base }), name);
    }
    const body: unknown = await response.json().catch(() => undefined);
    if (response.ok && body && typeof body === 'object') return body as T;
    const retryAfter = waitOf(response);
    const kind = kindOf(response.status, body);
    throw new AdminFailure(
      kind,
      response.status,
      failureText({ kind, status: response.status, base: this.base, retryAfter, said: serverWords(body) }),
      name,
      retryAfter,
    );
  }

  async countByMonth(range: UsageRange): Promise<MonthlyUsage[]> {
    const body = await this.get<CountByMonthResponse>('messages/count-by-month', { from: range.from, to: range.to });
    return Array.isArray(body.data) ? body.data : [];
  }

  /** Messages in the range; `sent` true: only those users sent. */
  async count(range: UsageRange, sent?: boolean): Promise<number> {
    const body = await this.get<CountResponse>('messages/count', { from: range.from, to: range.to, sent });
    return Number(body.data) || 0;
  }

  async users(page: number, pageSize: number): Promise<Page<ChatUser>> {
    return paged(await this.get<UserListResponse>('users', { page, pageSize }));
  }

  async sessions(userId: string, page: number, pageSize: number): Promise<Page<ChatSession>> {
    return paged(await this.get<SessionListResponse>('sessions', { userId, page, pageSize }));
  }

  async messages(sessionId: string, page: number, pageSize: number): Promise<Page<Message>> {
    return paged(await this.get<PagedEnvelope<Message[]>>('messages', { sessionId, page, pageSize }));
  }

  async message(id: string): Promise<Message | undefined> {
    const body = await this.get<MessageResponse>(`messages/${encodeURIComponent(id)}`);
    return body.data ?? undefined;
  }

  /** The visitors' ratings per UTC month of the range. */
  async feedbackByMonth(range: UsageRange): Promise<FeedbackMonth[]> {
    const body = await this.get<FeedbackCountByMonthResponse>('feedback/count-by-month', { from: range.from, to: range.to });
    return Array.isArray(body.data) ? body.data : [];
  }

  /** Ratings given in the range, newest first; `value`: only thumbs up or only thumbs down. */
  async feedback(range: UsageRange, value: 'up' | 'down', page: number, pageSize: number): Promise<Page<FeedbackItem>> {
    return paged(await this.get<FeedbackListResponse>('feedback', { from: range.from, to: range.to, value, page, pageSize }));
  }
}

/** The kind of a non-2xx answer (or a 2xx that is not JSON: not the handler). */
function kindOf(status: number, body: unknown): ChatbotErrorKind {
  if (status === 403 || status === 401) return 'identity';
  if (status === 429) return 'rate-limited';
  if (status === 504) return 'timeout';
  if (status >= 500) return 'server';
  if (status >= 200 && status < 300 && body === undefined) return 'server';
  return 'rejected';
}
