/**
 * The date range of `<chatbot-usage>`: `from` inclusive, `to` exclusive, both UTC, exactly as the
 * chatbot API counts (a date alone is 00:00 UTC of that day, and months are UTC calendar months).
 */
import { MAX_COUNT_BY_MONTH_MONTHS } from '../shared/limits.js';

/** A checked range: UTC instants and the `YYYY-MM-DD` (or ISO) text sent upstream. */
export interface UsageRange {
  from: string;
  to: string;
  fromMs: number;
  toMs: number;
}

/** The outcome of reading a range: the range, or the reason it is refused (shown as it is). */
export type RangeCheck = { ok: true; range: UsageRange } | { ok: false; field: 'from' | 'to'; message: string };

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` of a UTC instant. */
export function isoDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/**
 * Milliseconds of a date as upstream reads it: `YYYY-MM-DD` is midnight UTC, a date-time without
 * an offset is UTC. NaN when it is not a date.
 */
export function parseUtc(text: string): number {
  const value = text.trim();
  if (!value) return NaN;
  if (DATE_ONLY.test(value)) {
    const ms = Date.parse(`${value}T00:00:00Z`);
    // Date.parse rolls 2025-02-30 over to March: refuse what is not a real day.
    return Number.isFinite(ms) && isoDay(ms) === value ? ms : NaN;
  }
  const hasOffset = /(?:Z|[+-]\d{2}:?\d{2})$/i.test(value);
  return /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(hasOffset ? value : `${value}Z`) : NaN;
}

/** The default range: the current UTC month and the eleven before it (to = next month's first day). */
export function lastTwelveMonths(now = Date.now()): { from: string; to: string } {
  const date = new Date(now);
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  return { from: isoDay(Date.UTC(year, month - 11, 1)), to: isoDay(Date.UTC(year, month + 1, 1)) };
}

/** Index of a UTC month counted from year 0, for spans and for walking month by month. */
export function monthIndex(ms: number): number {
  const date = new Date(ms);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** Why `value` is not a date, in the words of the form's help line (its quotes too). */
function notADate(field: 'From' | 'To', example: string, value: string): string {
  const given = value.trim() ? `, not “${value.trim()}”` : '';
  return `“${field}” must be a date such as ${example}${given}.`;
}

/** Checks `from` and `to` as given (attribute or form); never throws. */
export function checkRange(from: string, to: string): RangeCheck {
  const fromMs = parseUtc(from);
  const toMs = parseUtc(to);
  if (!Number.isFinite(fromMs)) return { ok: false, field: 'from', message: notADate('From', '2025-01-01', from) };
  if (!Number.isFinite(toMs)) return { ok: false, field: 'to', message: notADate('To', '2026-01-01', to) };
  if (toMs <= fromMs) {
    return {
      ok: false,
      field: 'to',
      message: `“To” (${to.trim()}) must be after “From” (${from.trim()}): the range starts at “From” and ends just before “To”.`,
    };
  }
  if (monthIndex(toMs - 1) - monthIndex(fromMs) + 1 > MAX_COUNT_BY_MONTH_MONTHS) {
    return {
      ok: false,
      field: 'to',
      message: `The range may span at most ${MAX_COUNT_BY_MONTH_MONTHS} months (100 years); choose a later “From” or an earlier “To”.`,
    };
  }
  return { ok: true, range: { from: from.trim(), to: to.trim(), fromMs, toMs } };
}

/** `YYYY-MM` to the UTC instant of that month's first day. */
export function monthStart(month: string): number {
  return Date.parse(`${month}-01T00:00:00Z`);
}
