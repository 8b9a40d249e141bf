// Checks of the arguments a caller gives ChatbotClient: each throws a TypeError that says what to
// pass, before anything is sent.
import type { DateRange } from '../shared/types.js';

/** A time limit in ms, checked. */
export function checkTimeout(value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new TypeError(`timeoutMs must be a number of milliseconds > 0, got ${value}`);
  return value;
}

/** ISO 8601 text of both ends of a range; a Date becomes `toISOString()`, text is sent as given. */
export function dateRange(range: DateRange): { from: string; to: string } {
  if (typeof range !== 'object' || range === null) throw new TypeError('a date range { from, to } is required');
  return { from: isoDate('from', range.from), to: isoDate('to', range.to) };
}

function isoDate(name: string, value: string | Date): string {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new TypeError(`${name} is an invalid Date`);
    return value.toISOString();
  }
  if (typeof value !== 'string' || value.trim() === '') throw new TypeError(`${name} must be an ISO 8601 date text or a Date`);
  return value;
}
