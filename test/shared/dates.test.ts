// ISO 8601 parsing of query dates and seed times (dates in queries).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { monthIndexOf, monthLabel, monthStart, nextUtcMidnight, parseIsoDate, utcDay } from '../../src/shared/dates.js';

test('accepted forms: date alone is midnight UTC, no offset is UTC, offsets are converted', () => {
  const cases: [string, number][] = [
    ['2025-03-01', Date.UTC(2025, 2, 1)],
    ['2025-03-01T12:30', Date.UTC(2025, 2, 1, 12, 30)],
    ['2025-03-01T12:30:15', Date.UTC(2025, 2, 1, 12, 30, 15)],
    ['2025-03-01T12:30:15.5', Date.UTC(2025, 2, 1, 12, 30, 15, 500)],
    ['2025-03-01T12:30:15.123456789Z', Date.UTC(2025, 2, 1, 12, 30, 15, 123)],
    ['2025-03-01t12:30:15z', Date.UTC(2025, 2, 1, 12, 30, 15)],
    ['2025-03-01 12:30:15Z', Date.UTC(2025, 2, 1, 12, 30, 15)],
    ['2025-03-01T02:00:00+02:00', Date.UTC(2025, 2, 1)],
    ['2025-03-01T02:00:00+0200', Date.UTC(2025, 2, 1)],
    ['2025-02-28T20:00:00-04:00', Date.UTC(2025, 2, 1)],
    ['2024-02-29', Date.UTC(2024, 1, 29)],
    ['2000-02-29', Date.UTC(2000, 1, 29)],
    ['0099-01-01', -59042995200000],
  ];
  for (const [text, ms] of cases) assert.equal(parseIsoDate(text), ms, text);
});

test('refused forms: impossible calendar values and other shapes', () => {
  for (const text of [
    '',
    '2025',
    '2025-3-1',
    '2025-13-01',
    '2025-00-10',
    '2025-02-29',
    '1900-02-29',
    '2025-04-31',
    '2025-03-01T24:00',
    '2025-03-01T12:60',
    '2025-03-01T12:00:60',
    '2025-03-01T12:00+24:00',
    '2025-03-01T',
    '03/01/2025',
    '1740787200',
    'yesterday',
    '2025-03-01T12:00:00 +02:00',
    '+2025-03-01',
  ]) {
    assert.equal(parseIsoDate(text), undefined, JSON.stringify(text));
  }
});

test('months and days in UTC', () => {
  const ms = Date.UTC(2025, 11, 31, 23, 59, 59);
  assert.equal(monthLabel(monthIndexOf(ms)), '2025-12');
  assert.equal(monthStart(monthIndexOf(ms) + 1), Date.UTC(2026, 0, 1));
  assert.equal(utcDay(ms), '2025-12-31');
  assert.equal(nextUtcMidnight(ms), Date.UTC(2026, 0, 1));
  assert.equal(nextUtcMidnight(Date.UTC(2026, 0, 1)), Date.UTC(2026, 0, 2));
});
