/**
 * Fixed windows in the handler's store, and the limit on new visitors per client address. Every
 * refusal is a 429 with `Retry-After`, the seconds until the window that refused ends. The send
 * budgets build on the same windows (send-budget.ts).
 */
import type { ResolvedOptions } from './options.js';
import { refuse, TEXT } from './responses.js';

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** The current window of `windowMs` (UTC-aligned, so a day window is a UTC day): its store key and end. */
export function windowAt(
  options: ResolvedOptions,
  name: string,
  subject: string,
  windowMs: number,
  now: number,
): { key: string; endsAt: number } {
  const window = Math.floor(now / windowMs);
  return { key: `${options.chatbotId}:${name}:${subject}:${window}`, endsAt: (window + 1) * windowMs };
}

/** Whole seconds until `endsAt`, at least 1 (a `Retry-After` value). */
export function secondsUntil(endsAt: number, now: number): number {
  return Math.max(1, Math.ceil((endsAt - now) / 1000));
}

/** Counts a new visitor identity issued to `address`. */
export async function countNewVisitor(options: ResolvedOptions, address: string): Promise<void> {
  const now = options.now();
  const { key, endsAt } = windowAt(options, 'visitor-minute', address, MINUTE_MS, now);
  const hits = await options.store.increment(key, endsAt);
  if (hits > options.limits.visitorsPerMinutePerAddress)
    refuse(429, TEXT.tooManyVisitors, { 'Retry-After': String(secondsUntil(endsAt, now)) });
}
