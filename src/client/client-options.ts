// The options and results of ChatbotClient, as its users write and read them.
import type { CountByMonthResponse, MonthlyUsage, SendMessageResponse } from '../shared/types.js';
import type { ChatbotError } from './errors/chatbot-error.js';
import type { RateLimitInfo } from './rate-limit.js';
import type { RetryOptions } from './retry.js';

/** Options of {@link ChatbotClient}. */
export interface ChatbotClientOptions {
  /** The API's base URL, ending in `/api` (e.g. `https://chatbot.example/api`, or the emulator's `http://127.0.0.1:8787/api`). */
  baseUrl: string | URL;
  /** The public key, `pk_…`, sent in `X-API-Key`. */
  apiKey: string;
  /** The secret, `sk_…`: only ever used as the HMAC key, never sent or printed. */
  apiSecret: string;
  /** The chatbot every call addresses. */
  chatbotId: string;
  /** A `fetch` to use instead of the global one (a proxy agent, a test double). */
  fetch?: typeof fetch;
  /** Time limit of each attempt, headers and body, in ms. Default 10,000. */
  timeoutMs?: number;
  /** How reads are retried; `false` for never. Sends are never retried. Default `{ limit: 2, baseDelayMs: 250, maxDelayMs: 10000 }`. */
  retry?: RetryOptions | false;
  /** Called before each retry of a read, e.g. to log it. */
  onRetry?: (event: RetryEvent) => void;
  /** The clock, in ms since the epoch, for `X-Timestamp` and `Retry-After` dates. Default `Date.now`. */
  now?: () => number;
}

/** What {@link ChatbotClientOptions.onRetry} is told. */
export interface RetryEvent {
  /** 1 for the first retry, 2 for the second… */
  retry: number;
  /** The wait before it, in ms: the server's `Retry-After` / `X-RateLimit-Reset`, else backoff. */
  delayMs: number;
  /** Why the previous attempt failed. */
  error: ChatbotError;
}

/** Per-call options. */
export interface CallOptions {
  /** Aborts the call (any attempt or the wait between attempts); the call then rejects with `signal.reason`. */
  signal?: AbortSignal;
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number;
}

/** What {@link ChatbotClient.sendMessage} resolves to. */
export interface SendMessageResult {
  /** The envelope as received: `data` is the chatbot's reply text. */
  envelope: SendMessageResponse;
  /** The chatbot's reply text (the same as `envelope.data`). */
  reply: string;
  /** The daily quota figures of the `X-RateLimit-*` headers; null when the answer had none. */
  rateLimit: RateLimitInfo | null;
}

/** The count-by-month envelope of a successful call, where `data` is always the list of months. */
export type MonthlyUsageResponse = CountByMonthResponse & { data: MonthlyUsage[] };
