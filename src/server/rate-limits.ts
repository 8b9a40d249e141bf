/**
 * The handler's own limits, on fixed windows in a {@link LimitStore}: sends per identity per
 * minute and per UTC day, new visitors per client address per minute. Every refusal is a 429
 * with `Retry-After`, the seconds until the window that refused ends.
 */
import type { ResolvedOptions } from './options.js';
import { refuse, TEXT } from './responses.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

/** Counts one hit in the current window of `windowMs`; refuses past `limit`. */
async function count(options: ResolvedOptions, name: string, subject: string, windowMs: number, limit: number, message: string): Promise<void> {
  const now = options.now();
  const window = Math.floor(now / windowMs);
  const expiresAt = (window + 1) * windowMs;
  const hits = await options.limitStore.increment(`${options.chatbotId}:${name}:${subject}:${window}`, expiresAt);
  if (hits > limit) refuse(429, message, { 'Retry-After': String(Math.max(1, Math.ceil((expiresAt - now) / 1000))) });
}

/** Counts a send attempt of `userId` against the per-minute and per-day limits. */
export async function countSend(options: ResolvedOptions, userId: string): Promise<void> {
  // Both windows count every attempt, so a caller held back by the minute limit still spends the day's.
  const minute = count(options, 'send-minute', userId, MINUTE, options.limits.sendsPerMinute, TEXT.tooManySends);
  const day = count(options, 'send-day', userId, DAY, options.limits.sendsPerDay, TEXT.dailyLimit);
  const [minuteResult, dayResult] = await Promise.allSettled([minute, day]);
  // The day's refusal says more (its wait is longer), so it wins when both refuse.
  if (dayResult.status === 'rejected') throw dayResult.reason;
  if (minuteResult.status === 'rejected') throw minuteResult.reason;
}

/** Counts a new visitor identity issued to `address`. */
export async function countNewVisitor(options: ResolvedOptions, address: string): Promise<void> {
  await count(options, 'visitor-minute', address, MINUTE, options.limits.visitorsPerMinutePerAddress, TEXT.tooManyVisitors);
}
