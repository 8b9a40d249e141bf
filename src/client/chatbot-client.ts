// ChatbotClient, kept whole (about 340 lines): one method per endpoint of the API, and the one
// attempt loop they all go through (sign, time out, classify the failure, wait, retry). Each
// method's retry and check rules are read beside the loop that applies them. Its options are in
// ./client-options.ts, the checks of answers in ./envelope-check.ts and of arguments in
// ./call-arguments.ts.
import { unixSeconds } from '../shared/signature.js';
import type {
  CountQuery,
  CountResponse,
  DateRange,
  Envelope,
  ListMessagesQuery,
  ListSessionsQuery,
  ListUsersQuery,
  MessageListResponse,
  MessageResponse,
  SendMessageInput,
  SendMessageResponse,
  SessionListResponse,
  UserListResponse,
} from '../shared/types.js';
import { ChatbotError } from './errors/chatbot-error.js';
import { ChatbotHttpError } from './errors/chatbot-http-error.js';
import { ChatbotNetworkError } from './errors/chatbot-network-error.js';
import { ChatbotResponseError } from './errors/chatbot-response-error.js';
import { ChatbotTimeoutError } from './errors/chatbot-timeout-error.js';
import { readRateLimit } from './rate-limit.js';
import type { CallOptions, ChatbotClientOptions, MonthlyUsageResponse, RetryEvent, SendMessageResult } from './client-options.js';
import { envelopeProblem, isArray, isNumber, isRecord, isString, type DataCheck } from './envelope-check.js';
import { checkTimeout, dateRange } from './call-arguments.js';
import { backoffDelay, isRetryableStatus, retryPolicy, type RetryPolicy } from './retry.js';
import { retryAfterSeconds, serverDelayMs as serverDelay } from '../shared/retry-after.js';
import {
  parseBaseUrl,
  pathSegment,
  prepareRequest,
  signedHeaders,
  type ApiBase,
  type PreparedRequest,
  type QueryValues,
} from './signed-request.js';

const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * A typed client of the chatbot Developer API: one method per endpoint, every request signed
 * with HMAC-SHA256 (docs/api.md) on Web Crypto, so it runs on Node >= 20, Deno, Bun and
 * Workers. It holds the API secret: use it on a server, never in a browser.
 *
 * Reads are retried on network errors, timeouts, 429 and 5xx, with backoff that honours
 * `Retry-After` and `X-RateLimit-Reset`; every attempt is signed afresh. A send is never
 * retried: the API has no idempotency key, and a message stored twice is worse than an error.
 *
 * Failures reject with a {@link ChatbotError}: {@link ChatbotHttpError} (the API answered with
 * an error), {@link ChatbotNetworkError}, {@link ChatbotTimeoutError}, or
 * {@link ChatbotResponseError} (an answer that is not the API's JSON).
 *
 * @example
 * import { ChatbotClient } from 'chatbot-widget/client';
 *
 * const client = new ChatbotClient({
 *   baseUrl: 'http://127.0.0.1:8787/api',
 *   apiKey: process.env.CHATBOT_API_KEY!,
 *   apiSecret: process.env.CHATBOT_API_SECRET!,
 *   chatbotId: process.env.CHATBOT_ID!,
 * });
 * const { reply, rateLimit } = await client.sendMessage({ user: { id: 'u1', name: 'Ann' }, message: { content: 'Hello' } });
 * const page = await client.listMessages({ userId: 'u1', pageSize: 50 });
 */
export class ChatbotClient {
  readonly chatbotId: string;
  readonly #base: ApiBase;
  readonly #credentials: { apiKey: string; apiSecret: string };
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #retry: RetryPolicy;
  readonly #onRetry: ((event: RetryEvent) => void) | undefined;
  readonly #now: () => number;
  readonly #chatbotPath: string;

  constructor(options: ChatbotClientOptions) {
    if (typeof options !== 'object' || options === null) throw new TypeError('ChatbotClient needs an options object');
    for (const name of ['apiKey', 'apiSecret', 'chatbotId'] as const) {
      if (typeof options[name] !== 'string' || options[name].length === 0) {
        throw new TypeError(`ChatbotClient: option "${name}" is missing`);
      }
    }
    if (options.baseUrl === undefined || options.baseUrl === '') throw new TypeError('ChatbotClient: option "baseUrl" is missing');
    this.#base = parseBaseUrl(options.baseUrl);
    this.chatbotId = options.chatbotId;
    this.#chatbotPath = `/Dev/${pathSegment('chatbotId', options.chatbotId)}`;
    this.#credentials = { apiKey: options.apiKey, apiSecret: options.apiSecret };
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.#timeoutMs = checkTimeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    this.#retry = retryPolicy(options.retry);
    this.#onRetry = options.onRetry;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Sends a message on behalf of an end user and resolves with the chatbot's reply
   * (`POST /Dev/{chatbotId}/message`). Never retried automatically: after a network error or a
   * timeout the message may or may not have been stored, so list the user's messages before
   * sending it again.
   *
   * @example
   * const { reply, rateLimit } = await client.sendMessage({
   *   user: { id: 'visitor-42', name: 'Zoë' },
   *   message: { content: 'What does the free tier include?' },
   * });
   * console.log(reply, `${rateLimit?.remaining} sends left today`);
   */
  async sendMessage(input: SendMessageInput, options: CallOptions = {}): Promise<SendMessageResult> {
    const message: SendMessageInput['message'] = { content: input?.message?.content };
    if (input?.message?.file !== undefined) message.file = input.message.file;
    // Only the documented fields, in the documented order: nothing else of `input` is sent.
    const body = { user: { id: input?.user?.id, name: input?.user?.name }, message };
    const request = prepareRequest(this.#base, 'POST', `${this.#chatbotPath}/message`, {}, body);
    const { envelope, headers } = await this.#call<string>(request, isString, false, options);
    return { envelope: envelope as SendMessageResponse, reply: envelope.data, rateLimit: readRateLimit(headers) };
  }

  /**
   * One page of the chatbot's messages, newest first (`GET /Dev/{chatbotId}/messages`),
   * optionally only one session's and/or one user's.
   *
   * @example
   * const { data, totalPages } = await client.listMessages({ sessionId: 's_1', page: 2, pageSize: 50 });
   */
  async listMessages(query: ListMessagesQuery = {}, options: CallOptions = {}): Promise<MessageListResponse> {
    const { sessionId, userId, page, pageSize } = query;
    return this.#read<MessageListResponse>(`${this.#chatbotPath}/messages`, { sessionId, userId, page, pageSize }, isArray, options);
  }

  /**
   * One message by id (`GET /Dev/{chatbotId}/messages/{messageId}`). An unknown id rejects
   * with a {@link ChatbotHttpError} of status 404.
   *
   * @example
   * const { data: message } = await client.getMessage('m_123');
   */
  async getMessage(messageId: string, options: CallOptions = {}): Promise<MessageResponse> {
    const path = `${this.#chatbotPath}/messages/${pathSegment('messageId', messageId)}`;
    return this.#read<MessageResponse>(path, {}, isRecord, options);
  }

  /**
   * The number of messages in `[from, to)` (`GET /Dev/{chatbotId}/messages/count`); `sent: true`
   * counts only user-sent messages, `false` only the others. Dates are ISO 8601 text or Dates.
   *
   * @example
   * const { data: count } = await client.countMessages({ from: '2025-01-01', to: new Date(), sent: true });
   */
  async countMessages(query: CountQuery, options: CallOptions = {}): Promise<CountResponse> {
    const { from, to } = dateRange(query);
    return this.#read<CountResponse>(`${this.#chatbotPath}/messages/count`, { from, to, sent: query.sent }, isNumber, options);
  }

  /**
   * Usage per UTC calendar month over `[from, to)` (`GET /Dev/{chatbotId}/messages/count-by-month`).
   *
   * @example
   * const { data: months } = await client.countMessagesByMonth({ from: '2025-01-01', to: '2026-01-01' });
   * for (const m of months) console.log(m.month, m.messageCount, m.distinctUsers);
   */
  async countMessagesByMonth(range: DateRange, options: CallOptions = {}): Promise<MonthlyUsageResponse> {
    const { from, to } = dateRange(range);
    return this.#read<MonthlyUsageResponse>(`${this.#chatbotPath}/messages/count-by-month`, { from, to }, isArray, options);
  }

  /**
   * One page of the chatbot's users, most recently active first (`GET /Dev/{chatbotId}/users`).
   *
   * @example
   * const { data: users } = await client.listUsers({ pageSize: 100 });
   */
  async listUsers(query: ListUsersQuery = {}, options: CallOptions = {}): Promise<UserListResponse> {
    const { page, pageSize } = query;
    return this.#read<UserListResponse>(`${this.#chatbotPath}/users`, { page, pageSize }, isArray, options);
  }

  /**
   * One page of the chatbot's sessions, most recently active first, optionally one user's
   * (`GET /Dev/{chatbotId}/sessions`).
   *
   * @example
   * const { data: sessions } = await client.listSessions({ userId: 'visitor-42' });
   */
  async listSessions(query: ListSessionsQuery = {}, options: CallOptions = {}): Promise<SessionListResponse> {
    const { userId, page, pageSize } = query;
    return this.#read<SessionListResponse>(`${this.#chatbotPath}/sessions`, { userId, page, pageSize }, isArray, options);
  }

  async #read<T extends Envelope<unknown>>(path: string, query: QueryValues, check: DataCheck, options: CallOptions): Promise<T> {
    const request = prepareRequest(this.#base, 'GET', path, query);
    const { envelope } = await this.#call<unknown>(request, check, true, options);
    return envelope as T;
  }

  /**
   * Runs one prepared request: signs each attempt afresh, applies the per-attempt timeout, and
   * (for reads) retries what is transient. Resolves with a checked 2xx envelope and its headers.
   */
  async #call<D>(
    request: PreparedRequest,
    check: DataCheck,
    retryable: boolean,
    options: CallOptions,
  ): Promise<{ envelope: Envelope<D>; headers: Headers }> {
    const timeoutMs = options.timeoutMs === undefined ? this.#timeoutMs : checkTimeout(options.timeoutMs);
    const retries = retryable ? this.#retry.limit : 0;
    for (let attempt = 0; ; attempt++) {
      options.signal?.throwIfAborted();
      let outcome: Outcome<D>;
      try {
        outcome = await this.#attempt<D>(request, check, timeoutMs, options.signal);
      } catch (error) {
        // The caller's own abort ends everything, with the reason the caller gave.
        if (options.signal?.aborted) throw options.signal.reason;
        throw error;
      }
      if (outcome.ok) return outcome.result;
      const { error, retryableFailure, serverDelayMs } = outcome;
      if (!retryableFailure || attempt >= retries) throw error;
      // A server asking for a longer wait than we accept (a daily quota) gets its answer now.
      if (serverDelayMs !== null && serverDelayMs > this.#retry.maxDelayMs) throw error;
      const delayMs = serverDelayMs ?? backoffDelay(attempt + 1, this.#retry);
      this.#onRetry?.({ retry: attempt + 1, delayMs, error });
      await sleep(delayMs, options.signal);
    }
  }

  async #attempt<D>(
    request: PreparedRequest,
    check: DataCheck,
    timeoutMs: number,
    callerSignal: AbortSignal | undefined,
  ): Promise<Outcome<D>> {
    const headers = await signedHeaders(request, this.#credentials, unixSeconds(this.#now()));
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
    let response: Response;
    let text: string;
    try {
      response = await this.#fetch(request.url, {
        method: request.method,
        headers,
        body: request.bodyBytes,
        // A redirect would carry signed headers to wherever it points; refuse to follow it.
        redirect: 'manual',
        signal,
      });
      text = await response.text();
    } catch (cause) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      const error = timeout.aborted
        ? new ChatbotTimeoutError(request.url, timeoutMs, { cause })
        : new ChatbotNetworkError(request.url, { cause });
      return { ok: false, error, retryableFailure: true, serverDelayMs: null };
    }

    let body: unknown;
    let parseError: unknown;
    if (text.trim() !== '') {
      try {
        body = JSON.parse(text);
      } catch (cause) {
        parseError = cause;
      }
    }

    const status = response.status;
    if (status < 200 || status > 299) {
      const now = this.#now();
      const error = new ChatbotHttpError({
        url: request.url,
        status,
        statusText: response.statusText,
        body,
        rateLimit: readRateLimit(response.headers),
        retryAfterSeconds: retryAfterSeconds(status, response.headers, now),
      });
      return {
        ok: false,
        error,
        retryableFailure: isRetryableStatus(status),
        serverDelayMs: serverDelay(status, response.headers, now),
      };
    }

    if (body === undefined) {
      const problem = parseError ? 'a body that is not JSON' : 'an empty body';
      return {
        ok: false,
        error: new ChatbotResponseError(request.url, status, problem, text, { cause: parseError }),
        retryableFailure: false,
        serverDelayMs: null,
      };
    }
    const shapeProblem = envelopeProblem(body, check);
    if (shapeProblem === 'error') {
      // Upstream's API documents no status for some failures (count with `to` before `from`): an
      // envelope that reports an error is an error whatever its status.
      const error = new ChatbotHttpError({
        url: request.url,
        status,
        statusText: response.statusText,
        body,
        rateLimit: readRateLimit(response.headers),
        retryAfterSeconds: null,
      });
      return { ok: false, error, retryableFailure: false, serverDelayMs: null };
    }
    if (shapeProblem) {
      return {
        ok: false,
        error: new ChatbotResponseError(request.url, status, shapeProblem, text),
        retryableFailure: false,
        serverDelayMs: null,
      };
    }
    return { ok: true, result: { envelope: body as Envelope<D>, headers: response.headers } };
  }
}

type Outcome<D> =
  | { ok: true; result: { envelope: Envelope<D>; headers: Headers } }
  | { ok: false; error: ChatbotError; retryableFailure: boolean; serverDelayMs: number | null };

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
