/**
 * Fixed windows in the handler's store, and the limit on new visitors per client address. Every
 * refusal is a 429 with `Retry-After`, the seconds until the window that refused ends. The send
 * budgets build on the same windows (send-budget.ts).
 *
 * A window is read before it is counted: a request refused because a window is full writes
 * nothing, so a stream of refused requests cannot grow the store. Between the read and the count
 * a concurrent request may take the last place; the count then overshoots, the request is refused
 * all the same and its count is taken back (see {@link uncount}).
 */
import { DAY_MS, MINUTE_MS } from '../../shared/limits.js';
import type { ResolvedOptions } from '../core/options.js';
import { refuse, TEXT } from '../core/responses.js';

export { DAY_MS, MINUTE_MS };

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

/** How many were counted in the window `key` (0 when it was never counted or has ended). */
export async function countIn(options: ResolvedOptions, key: string): Promise<number> {
  return Number((await options.store.get(key)) ?? 0);
}

/**
 * Takes back the count that brought `key` to `count`, for a request refused after counting (a
 * concurrent one took the last place meanwhile): the window is as if the request never came, a
 * first count leaves no key behind. Only while nobody else has counted since (compare-and-set);
 * otherwise, or when the store fails here, the count stays, which errs on the strict side.
 */
export async function uncount(options: ResolvedOptions, key: string, count: number, endsAt: number): Promise<void> {
  await options.store.swap(key, String(count), count > 1 ? String(count - 1) : undefined, endsAt).catch(() => false);
}

/** One window of a limit, at the time of a request. */
export interface LimitWindow {
  key: string;
  endsAt: number;
  limit: number;
  refusal: string;
}

/**
 * Counts a request in `windows`, which were read and found open, one after the other; if one
 * overshoots its limit (a concurrent request took the last place), takes back every count made and
 * answers 429 for it. Count shared windows, and long ones, first: a window that overshoots was
 * counted before, so a refused request never leaves a new key behind.
 */
export async function countAll(options: ResolvedOptions, windows: readonly LimitWindow[], now: number): Promise<number[]> {
  const counts: number[] = [];
  for (const window of windows) {
    const count = await options.store.increment(window.key, window.endsAt);
    counts.push(count);
    if (count > window.limit) {
      await Promise.all(counts.map((made, i) => uncount(options, windows[i]!.key, made, windows[i]!.endsAt)));
      refuse(429, window.refusal, { 'Retry-After': String(secondsUntil(window.endsAt, now)) });
    }
  }
  return counts;
}

/** The window of new visitor identities of `address`. Revocations count in it too (visitor-routes.ts). */
export function newVisitorWindow(options: ResolvedOptions, address: string, now: number): LimitWindow {
  const { key, endsAt } = windowAt(options, 'visitor-minute', address, MINUTE_MS, now);
  return { key, endsAt, limit: options.limits.visitorsPerMinutePerAddress, refusal: TEXT.tooManyVisitors };
}

/**
 * Refuses with 429 when any of `windows` is full (the one that ends last names the wait), writing
 * nothing; otherwise counts the request in all of them.
 */
export async function spendWithin(options: ResolvedOptions, windows: readonly LimitWindow[], now: number): Promise<void> {
  const used = await Promise.all(windows.map((window) => countIn(options, window.key)));
  const full = windows.filter((window, i) => used[i]! >= window.limit).sort((a, b) => b.endsAt - a.endsAt)[0];
  if (full) refuse(429, full.refusal, { 'Retry-After': String(secondsUntil(full.endsAt, now)) });
  await countAll(options, windows, now);
}

/**
 * Counts a revocation asked from `address`. Its record lives as long as a token could (months),
 * so how many there can be is bounded here: it takes a place in the address's new-visitor window
 * (a reset revokes one identity and starts another, so it takes two places there), and at most
 * `limits.revocationsPerDay` are made in a UTC day, all addresses together, because an IPv6
 * network has more /64 addresses than any store has room for. The store then holds at most that
 * many times the days a token may live. Past a limit, 429 and nothing written.
 */
export async function countRevocation(options: ResolvedOptions, address: string): Promise<void> {
  const now = options.now();
  const { key, endsAt } = windowAt(options, 'revoke-day', 'all', DAY_MS, now);
  const allAddresses: LimitWindow = { key, endsAt, limit: options.limits.revocationsPerDay, refusal: TEXT.tooManyRevocations };
  await spendWithin(options, [allAddresses, newVisitorWindow(options, address, now)], now);
}

/** Counts a new visitor identity issued to `address`. */
export async function countNewVisitor(options: ResolvedOptions, address: string): Promise<void> {
  const now = options.now();
  await spendWithin(options, [newVisitorWindow(options, address, now)], now);
}
