/**
 * Visitors' ratings in the handler's store: one record set per chatbot, a rating per message
 * (only the message's own visitor may rate it, so its id is the rating's), sorted by when it was
 * given and filed under its value, plus counters per month and value (month-counters.ts). The
 * listing and the month counts read the store's sorted index and counters, never every rating.
 */
import { monthIndexOf, monthLabel, monthStart, toIso } from '../../shared/dates.js';
import { isFeedbackValue } from '../../shared/limits.js';
import { pagedEnvelope } from '../../shared/paged-envelope.js';
import type { FeedbackItem, FeedbackListResponse, FeedbackMonth, FeedbackValue } from '../../shared/types.js';
import type { ResolvedOptions } from '../core/options.js';
import type { SetRecord } from '../stores/store.js';
import { countRating, FEEDBACK_KEEP_MS, monthCounts, uncountRating } from './month-counters.js';

/** A rating as it is given: the message rated and what upstream says of it. */
export interface Rating {
  messageId: string;
  /** null takes the rating back. */
  value: FeedbackValue | null;
  comment: string | null;
  chatUserId: string;
  chatSessionId: string;
}

/** What a rating's record keeps beside its id (the message), score (when) and tag (the value). */
interface RatingDetails {
  comment: string | null;
  chatUserId: string;
  chatSessionId: string;
}

const ratingsOf = (options: ResolvedOptions) => `${options.chatbotId}:feedback`;

/**
 * Stores `rating` as given at `now`, replacing the caller's earlier rating of the message (or,
 * with value null, deleting it), and moves the month counts from the old rating to the new one.
 */
export async function rate(options: ResolvedOptions, rating: Rating, now: number): Promise<void> {
  const set = ratingsOf(options);
  let replaced: SetRecord | undefined;
  if (rating.value === null) replaced = await options.store.deleteRecord(set, rating.messageId);
  else {
    const details: RatingDetails = { comment: rating.comment, chatUserId: rating.chatUserId, chatSessionId: rating.chatSessionId };
    const record = { id: rating.messageId, score: now, tag: rating.value, value: JSON.stringify(details) };
    replaced = await options.store.putRecord(set, record, now + FEEDBACK_KEEP_MS);
    await countRating(options, now, rating.value);
  }
  if (replaced && isFeedbackValue(replaced.tag)) await uncountRating(options, replaced.score, replaced.tag);
}

/** The listing's item of a stored rating. */
function itemOf(record: SetRecord): FeedbackItem {
  const details = JSON.parse(record.value) as RatingDetails;
  return {
    messageId: record.id,
    value: record.tag as FeedbackValue,
    comment: details.comment,
    chatUserId: details.chatUserId,
    chatSessionId: details.chatSessionId,
    createdAt: toIso(record.score),
  };
}

/** Which ratings to list: given in [from, to) (Unix ms), of one value, one page. */
export interface RatingQuery {
  from?: number;
  to?: number;
  value?: FeedbackValue;
  page: number;
  pageSize: number;
}

/** The oldest time a rating kept at `now` can have been given. */
const keptSince = (now: number) => now - FEEDBACK_KEEP_MS;

/** One page of ratings, newest first, in the envelope of upstream's listings. */
export async function listRatings(options: ResolvedOptions, query: RatingQuery, now: number): Promise<FeedbackListResponse> {
  const range = { min: Math.max(query.from ?? -Infinity, keptSince(now)), max: query.to, tag: query.value };
  const set = ratingsOf(options);
  const [records, total] = await Promise.all([
    options.store.listRecords(set, { ...range, offset: (query.page - 1) * query.pageSize, limit: query.pageSize }),
    options.store.countRecords(set, range),
  ]);
  return pagedEnvelope(records.map(itemOf), total, query.pageSize, query.page);
}

/**
 * Up and down per UTC month for every month that meets [from, to), each counting the ratings
 * given inside the range. A month wholly inside is read from its counters; a month the range cuts
 * (or that holds ratings too old to be kept) is counted from the sorted ratings, only its part.
 */
export async function countRatingsByMonth(options: ResolvedOptions, from: number, to: number, now: number): Promise<FeedbackMonth[]> {
  const set = ratingsOf(options);
  const since = keptSince(now);
  const first = monthIndexOf(from);
  const months = Array.from({ length: monthIndexOf(to - 1) - first + 1 }, (_, i) => first + i);
  return Promise.all(
    months.map(async (monthIndex): Promise<FeedbackMonth> => {
      const start = monthStart(monthIndex);
      const end = monthStart(monthIndex + 1);
      const month = monthLabel(monthIndex);
      // Nothing kept so long ago, nothing given yet: no need to ask the store.
      if (end <= since || start > now) return { month, up: 0, down: 0 };
      if (from <= start && end <= to && start >= since) return { month, ...(await monthCounts(options, monthIndex)) };
      const part = { min: Math.max(from, start, since), max: Math.min(to, end) };
      const [up, down] = await Promise.all((['up', 'down'] as const).map((tag) => options.store.countRecords(set, { ...part, tag })));
      return { month, up: up!, down: down! };
    }),
  );
}
