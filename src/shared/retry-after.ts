/**
 * How long a server asks to be left alone, read once for every caller: the typed client's retry
 * timing, the handler's 429 when upstream's quota is spent, the widget's countdown and the usage
 * view's error line. `Retry-After` (seconds or an HTTP date) comes first; on a 429 without it,
 * `X-RateLimit-Reset` (Unix seconds, the end of the quota window).
 */
import { HEADER_RATE_RESET } from './headers.js';

/** The wait the server asks for, in ms, or null when it asks for none. Never negative. */
export function serverDelayMs(status: number, headers: Pick<Headers, 'get'>, nowMs: number): number | null {
  const retryAfter = headers.get('Retry-After');
  if (retryAfter !== null) {
    const trimmed = retryAfter.trim();
    if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
    const date = Date.parse(trimmed);
    if (!Number.isNaN(date)) return Math.max(0, date - nowMs);
  }
  if (status === 429) {
    const reset = headers.get(HEADER_RATE_RESET);
    if (reset !== null && /^\s*\d+\s*$/.test(reset)) return Math.max(0, Number(reset) * 1000 - nowMs);
  }
  return null;
}

/** Whole seconds until the server wants to be asked again (rounded up), or null when it did not say. */
export function retryAfterSeconds(status: number, headers: Pick<Headers, 'get'>, nowMs: number): number | null {
  const delay = serverDelayMs(status, headers, nowMs);
  return delay === null ? null : Math.ceil(delay / 1000);
}
