import { HEADER_RATE_LIMIT, HEADER_RATE_REMAINING, HEADER_RATE_RESET } from '../shared/headers.js';
import type { RateLimit } from '../shared/types.js';

/** The `X-RateLimit-*` figures of a response (docs/api.md), with the reset also as a Date. */
export interface RateLimitInfo extends RateLimit {
  /** `reset` (Unix seconds) as a Date. */
  resetAt: Date;
}

/**
 * Reads the three `X-RateLimit-*` headers. Null unless all three are present and numeric:
 * half a set of figures would invite wrong arithmetic.
 */
export function readRateLimit(headers: Headers): RateLimitInfo | null {
  const limit = readInteger(headers.get(HEADER_RATE_LIMIT));
  const remaining = readInteger(headers.get(HEADER_RATE_REMAINING));
  const reset = readInteger(headers.get(HEADER_RATE_RESET));
  if (limit === null || remaining === null || reset === null) return null;
  return { limit, remaining, reset, resetAt: new Date(reset * 1000) };
}

function readInteger(value: string | null): number | null {
  if (value === null || !/^\s*\d+\s*$/.test(value)) return null;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : null;
}
