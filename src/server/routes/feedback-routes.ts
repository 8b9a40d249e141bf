/**
 * Visitors' ratings of the bot's answers, for the site owner: `POST {base}/feedback` rates one of
 * the caller's own bot messages (kept in the handler's store, never sent upstream, never counted
 * against the quota), and the admin routes list them and count them by month.
 */
import { monthIndexOf, parseIsoDate } from '../../shared/dates.js';
import { isFeedbackValue, MAX_COUNT_BY_MONTH_MONTHS } from '../../shared/limits.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../shared/page-size.js';
import type { FeedbackValue } from '../../shared/types.js';
import { windowAt, MINUTE_MS, spendWithin, type LimitWindow } from '../budgets/rate-limits.js';
import { belongsTo } from '../core/envelope.js';
import { readJsonObject } from '../core/request-body.js';
import { json, refuse, TEXT } from '../core/responses.js';
import { QueryReader } from '../core/route-table.js';
import { callUpstream } from '../core/upstream.js';
import { callerIdentity } from '../identity/identity.js';
import { ratingInput, RATING_TEXT } from '../feedback/rating-input.js';
import { countRatingsByMonth, listRatings, rate } from '../feedback/ratings.js';
import type { RouteContext } from './route-context.js';
import { requireJson } from './visitor-routes.js';

/** The caller's window of ratings this minute. */
function ratingWindow(ctx: RouteContext, userId: string, now: number): LimitWindow {
  const { key, endsAt } = windowAt(ctx.options, 'feedback-minute', userId, MINUTE_MS, now);
  return { key, endsAt, limit: ctx.options.limits.ratingsPerMinute, refusal: RATING_TEXT.tooManyRatings };
}

/**
 * The assistant's answer, which the widget offers a rating for: `senderType` `Bot` in any case, as
 * the widget reads it (upstream documents `Bot`; the case of other senders is not documented).
 */
const isBotAnswer = (message: unknown) => {
  const { senderType } = message as { senderType?: unknown };
  return typeof senderType === 'string' && senderType.toLowerCase() === 'bot';
};

/**
 * `POST {base}/feedback` `{ messageId, value, comment? }`: 204 once stored. The message must be
 * one of the caller's own bot messages, as upstream answers it to the handler; anything else
 * (another visitor's, a question, an unknown id) is the same 404, so ids cannot be probed. Every
 * rating with a valid body counts in the caller's minute, found or not: that bounds the look-ups
 * upstream too. Bad input and a full minute are refused before anything is written.
 */
export async function feedback(ctx: RouteContext): Promise<Response> {
  const { request, options } = ctx;
  requireJson(request);
  const identity = await callerIdentity(options, request, ctx.tokens);
  const input = ratingInput(await readJsonObject(request, options.maxBodyBytes));
  const now = options.now();
  await spendWithin(options, [ratingWindow(ctx, identity.userId, now)], now);
  const answer = await callUpstream(options, { method: 'GET', path: `/messages/${input.messageId}`, label: 'GET /messages/{messageId}' });
  const message = (answer.body as { data?: unknown } | undefined)?.data;
  if (answer.status !== 200 || !belongsTo(message, identity.userId) || !isBotAnswer(message)) refuse(404, TEXT.messageNotFound);
  const { chatSessionId } = message as { chatSessionId?: unknown };
  await rate(
    options,
    { ...input, chatUserId: identity.userId, chatSessionId: typeof chatSessionId === 'string' ? chatSessionId : '' },
    now,
  );
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
}

/** A date parameter (ISO 8601, as upstream's counts take them) as Unix ms, or undefined when absent. */
function dateParameter(query: QueryReader, name: 'from' | 'to'): number | undefined {
  const text = query.text(name, 64);
  if (text === undefined) return undefined;
  const ms = parseIsoDate(text);
  if (ms === undefined)
    refuse(
      400,
      `The ${name} parameter must be an ISO 8601 date such as 2026-01-31 or 2026-01-31T12:00:00Z (a "+" in an offset is sent as %2B).`,
    );
  return ms;
}

/** `from` and `to`, with `to` after `from` when both are given. */
function rangeParameters(query: QueryReader): { from?: number; to?: number } {
  const from = dateParameter(query, 'from');
  const to = dateParameter(query, 'to');
  if (from !== undefined && to !== undefined && to <= from) refuse(400, 'The to parameter must be later than from.');
  return { from, to };
}

/** `GET {base}/admin/feedback?from&to&value&page&pageSize`: ratings newest first, paged like upstream's listings. */
export async function feedbackListing(ctx: RouteContext): Promise<Response> {
  const query = new QueryReader(ctx.url.searchParams);
  const range = rangeParameters(query);
  const value = query.text('value', 8);
  if (value !== undefined && !isFeedbackValue(value)) refuse(400, 'The value parameter must be up or down (leave it out for both).');
  const page = query.integer('page', 1, 1_000_000) ?? 1;
  const pageSize = query.integer('pageSize', 1, MAX_PAGE_SIZE) ?? DEFAULT_PAGE_SIZE;
  const now = ctx.options.now();
  return json(200, await listRatings(ctx.options, { ...range, value: value as FeedbackValue | undefined, page, pageSize }, now));
}

/** `GET {base}/admin/feedback/count-by-month?from&to`: `[{ month, up, down }]`, ascending, every month of the range. */
export async function feedbackCountByMonth(ctx: RouteContext): Promise<Response> {
  const { from, to } = rangeParameters(new QueryReader(ctx.url.searchParams));
  if (from === undefined || to === undefined) refuse(400, 'Give both from and to (ISO 8601 dates such as 2026-01-01).');
  if (monthIndexOf(to - 1) - monthIndexOf(from) + 1 > MAX_COUNT_BY_MONTH_MONTHS)
    refuse(400, `The range may span at most ${MAX_COUNT_BY_MONTH_MONTHS} months.`);
  return json(200, { data: await countRatingsByMonth(ctx.options, from, to, ctx.options.now()), error: null });
}
