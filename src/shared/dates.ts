/**
 * Dates as the upstream API takes and gives them, for the emulator and for the handler's own
 * listings alike: ISO 8601 text in, UTC milliseconds inside, ISO 8601 UTC out (a date alone means
 * 00:00:00 UTC, a time without offset means UTC).
 */

// Date, optional time (T, t or a space), optional fraction, optional offset Z / ±HH:MM / ±HHMM / ±HH.
const ISO_8601 = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?)?$/;

/**
 * Milliseconds since the epoch of an ISO 8601 date or date-time, or `undefined` when the text is
 * not one (wrong shape or an impossible calendar value such as February 30 or 25:00).
 *
 * @example parseIsoDate('2025-03-01') === Date.UTC(2025, 2, 1)
 * @example parseIsoDate('2025-03-01T02:00:00+02:00') === Date.UTC(2025, 2, 1)
 */
export function parseIsoDate(text: string): number | undefined {
  const match = ISO_8601.exec(text);
  if (!match) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '', , sign, offH = '0', offM = '0'] = match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const offsetHours = Number(offH);
  const offsetMinutes = Number(offM);
  if (offsetHours > 23 || offsetMinutes > 59) return undefined;
  const millis = fraction ? Math.floor(Number(`0.${fraction}`) * 1000) : 0;
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear keeps the year as written.
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, millis));
  date.setUTCFullYear(year);
  const offset = sign ? (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) * 60_000 : 0;
  return date.getTime() - offset;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeap(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** ISO 8601 UTC text of a stored time, e.g. `2025-03-01T12:00:00.000Z`. */
export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

/** A UTC calendar month as one integer (year * 12 + month index), so months sort and subtract. */
export function monthIndexOf(ms: number): number {
  const date = new Date(ms);
  return date.getUTCFullYear() * 12 + date.getUTCMonth();
}

/** Start of a month index, in ms. */
export function monthStart(monthIndex: number): number {
  const date = new Date(Date.UTC(2000, monthIndex % 12, 1));
  date.setUTCFullYear(Math.floor(monthIndex / 12));
  return date.getTime();
}

/** `YYYY-MM` of a month index. */
export function monthLabel(monthIndex: number): string {
  const year = Math.floor(monthIndex / 12);
  return `${String(year).padStart(4, '0')}-${String((monthIndex % 12) + 1).padStart(2, '0')}`;
}

/** The UTC day of a time, `YYYY-MM-DD`: the quota's day. */
export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** Start of the next UTC day after `ms`: when a daily quota resets. */
export function nextUtcMidnight(ms: number): number {
  const date = new Date(ms);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate() + 1);
}
