/**
 * Retry timing of reads, kept apart from the request code so it can be reasoned about (and
 * tested) as plain arithmetic. Only reads are retried, only on failures that are known to be
 * transient: network errors, timeouts, 429 and 5xx. Sends never are (see ChatbotClient).
 */

/** How reads are retried. */
export interface RetryOptions {
  /** Retries after the first attempt (so `limit: 2` means at most 3 attempts). Default 2. */
  limit?: number;
  /** Backoff before the first retry; doubles with each further one. Default 250 ms. */
  baseDelayMs?: number;
  /**
   * Cap of the backoff. Also the longest wait the client accepts from the server: when
   * `Retry-After` or `X-RateLimit-Reset` asks for more (a daily quota resets at midnight),
   * the error is thrown at once instead of retrying too early or hanging. Default 10,000 ms.
   */
  maxDelayMs?: number;
}

/** Retry options with every default filled in. */
export type RetryPolicy = Required<RetryOptions>;

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({ limit: 2, baseDelayMs: 250, maxDelayMs: 10_000 });

/** Retry options as given (`false` for none) to a complete policy; refuses nonsense early. */
export function retryPolicy(options: RetryOptions | false | undefined): RetryPolicy {
  if (options === false) return { ...DEFAULT_RETRY, limit: 0 };
  const policy = { ...DEFAULT_RETRY, ...stripUndefined(options ?? {}) };
  for (const [name, value] of Object.entries(policy)) {
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`retry.${name} must be a number >= 0, got ${value}`);
  }
  if (!Number.isInteger(policy.limit)) throw new TypeError(`retry.limit must be a whole number, got ${policy.limit}`);
  return policy;
}

/** Statuses worth asking again for: the quota or rate limit, and server-side failures. */
export function isRetryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

/**
 * Exponential backoff with "equal jitter" before retry number `retry` (1-based): half of the
 * capped exponential delay is fixed, the other half random, so clients that failed together
 * spread out without any of them retrying immediately.
 */
export function backoffDelay(retry: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const exponential = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, retry - 1));
  return Math.round(exponential / 2 + random() * (exponential / 2));
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
