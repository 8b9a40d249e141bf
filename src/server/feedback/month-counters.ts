/**
 * Ratings per month and value, kept as counters beside the ratings: every change adds one to the
 * new rating's month and value and takes one from the old rating's, so the month counts are a few
 * reads however many ratings there are, never a scan.
 */
import { monthIndexOf, monthLabel, monthStart } from '../../shared/dates.js';
import { DAY_MS } from '../../shared/limits.js';
import type { FeedbackValue } from '../../shared/types.js';
import type { ResolvedOptions } from '../core/options.js';

/** How long a rating is kept, from when it was given: 400 days. */
export const FEEDBACK_KEEP_MS = 400 * DAY_MS;

/** A concurrent change of the same counter makes a take-back try again; this many times at most. */
const TAKE_BACK_ATTEMPTS = 20;

/** The counter of `value` ratings given in month `monthIndex`, and when it may be dropped. */
export function monthCounter(options: ResolvedOptions, monthIndex: number, value: FeedbackValue): { key: string; expiresAt: number } {
  return {
    key: `${options.chatbotId}:feedback-month:${monthLabel(monthIndex)}:${value}`,
    // Its month's last rating is kept until then.
    expiresAt: monthStart(monthIndex + 1) + FEEDBACK_KEEP_MS,
  };
}

/** Counts a rating of `value` given at `at` (Unix ms). */
export async function countRating(options: ResolvedOptions, at: number, value: FeedbackValue): Promise<void> {
  const { key, expiresAt } = monthCounter(options, monthIndexOf(at), value);
  await options.store.increment(key, expiresAt);
}

/** Takes back the count of a rating of `value` given at `at`, now replaced or withdrawn. */
export async function uncountRating(options: ResolvedOptions, at: number, value: FeedbackValue): Promise<void> {
  const { key, expiresAt } = monthCounter(options, monthIndexOf(at), value);
  for (let attempt = 0; attempt < TAKE_BACK_ATTEMPTS; attempt++) {
    const count = await options.store.get(key);
    // Absent: the month's counter has expired (the rating was older than what is kept).
    if (count === undefined) return;
    const left = Number(count) - 1;
    if (await options.store.swap(key, count, left > 0 ? String(left) : undefined, expiresAt)) return;
  }
  options.logger.error(`a rating's month count could not be taken back (${key} kept changing); that month's count is one too high`);
}

/** The counts of `monthIndex`, by value. */
export async function monthCounts(options: ResolvedOptions, monthIndex: number): Promise<{ up: number; down: number }> {
  const [up, down] = await Promise.all(
    (['up', 'down'] as const).map(async (value) => Number((await options.store.get(monthCounter(options, monthIndex, value).key)) ?? 0)),
  );
  return { up: up!, down: down! };
}
