import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatUtcMinute, formatWait } from '../../src/client/wait-text.js';

test('waits read as seconds, minutes and seconds, or hours and minutes rounded up', () => {
  const cases: Array<[number, string]> = [
    [0, '0 s'],
    [0.2, '1 s'],
    [42, '42 s'],
    [59, '59 s'],
    [60, '1 min'],
    [125, '2 min 5 s'],
    [3599, '59 min 59 s'],
    [3600, '1 h'],
    [3601, '1 h 1 min'],
    [35797, '9 h 57 min'],
    [7199, '2 h'],
    [86_400, '24 h'],
  ];
  for (const [seconds, text] of cases) assert.equal(formatWait(seconds), text, `${seconds} s`);
});

test('a moment reads as its UTC minute', () => {
  assert.equal(formatUtcMinute(new Date(Date.UTC(2026, 1, 1, 0, 0, 0))), '2026-02-01 00:00 UTC');
});
