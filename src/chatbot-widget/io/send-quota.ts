/**
 * What is left of the visitor's sends, as the handler tells it: the `X-RateLimit-*` headers of its
 * answers name the tightest of the visitor's windows. The panel's quota notice and clock read it.
 */
import { HEADER_RATE_REMAINING, HEADER_RATE_RESET } from '../../shared/headers.js';
import { MINUTE_MS } from '../../shared/limits.js';

/** The visitor's tightest send window. */
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

/** The window an answer's headers name, received at `now` (ms); undefined for an answer without them. */
export function sendQuotaOf(headers: Headers, now: number): SendQuota | undefined {
  const remaining = headers.get(HEADER_RATE_REMAINING);
  const resetAt = Number(headers.get(HEADER_RATE_RESET)) * 1000;
  if (remaining === null || !Number.isFinite(+remaining) || !(resetAt > 0)) return undefined;
  // A window that ends within a minute is a per-minute limit, not the day's budget: its sends
  // come back before a notice would help.
  return { remaining: +remaining, resetAt, daily: resetAt - now > MINUTE_MS };
}
