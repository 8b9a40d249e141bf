// The range rules of <chatbot-usage> (src/chatbot-usage/month-range.ts): dates read as
// upstream reads them (UTC), a From after To refused with a sentence naming the field, the
// default range, and the CSV cells a spreadsheet must not run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRange, lastTwelveMonths, parseUtc } from '../../src/chatbot-usage/month-range.js';
import { csvCell } from '../../src/chatbot-usage/usage-csv.js';

test('dates are UTC: a date alone is midnight UTC, a time without offset is UTC', () => {
  assert.equal(parseUtc('2025-03-01'), Date.UTC(2025, 2, 1));
  assert.equal(parseUtc('2025-03-01T10:00:00'), Date.UTC(2025, 2, 1, 10));
  assert.equal(parseUtc('2025-03-01T10:00:00+02:00'), Date.UTC(2025, 2, 1, 8));
  assert.ok(Number.isNaN(parseUtc('2025-02-30')), 'no rolling over into March');
  assert.ok(Number.isNaN(parseUtc('March 2025')));
  assert.ok(Number.isNaN(parseUtc('')));
});

test('a From after (or equal to) To is refused on the To field with a sentence; bad dates name their field', () => {
  const after = checkRange('2024-06-01', '2024-01-01');
  assert.equal(after.ok, false);
  assert.ok(!after.ok && after.field === 'to' && /must be after “From”/.test(after.message));
  assert.equal(checkRange('2024-01-01', '2024-01-01').ok, false);
  const bad = checkRange('2024-13-01', '2024-01-01');
  assert.ok(!bad.ok && bad.field === 'from');
  assert.equal(!bad.ok && bad.message, '“From” must be a date such as 2025-01-01, not “2024-13-01”.');
  const empty = checkRange('2024-01-01', '  ');
  assert.equal(!empty.ok && empty.message, '“To” must be a date such as 2026-01-01.', 'an empty field is not quoted back');
  const ok = checkRange(' 2024-01-01 ', '2024-02-01');
  assert.ok(ok.ok && ok.range.from === '2024-01-01' && ok.range.toMs === Date.UTC(2024, 1, 1));
});

test('at most 1,200 months, as upstream answers month by month', () => {
  assert.equal(checkRange('1900-01-01', '2000-01-01').ok, true);
  const tooLong = checkRange('1900-01-01', '2000-01-02');
  assert.ok(!tooLong.ok && /at most 1200 months/.test(tooLong.message));
});

test('the default range is the current UTC month and the eleven before it', () => {
  assert.deepEqual(lastTwelveMonths(Date.UTC(2026, 0, 31, 23, 59)), { from: '2025-02-01', to: '2026-02-01' });
  assert.deepEqual(lastTwelveMonths(Date.UTC(2026, 11, 1)), { from: '2026-01-01', to: '2027-01-01' });
});

test('CSV cells: quoted when they must be, never a formula', () => {
  assert.equal(csvCell(1234), '1234');
  assert.equal(csvCell('2025-03'), '2025-03');
  assert.equal(csvCell('a,b'), '"a,b"');
  assert.equal(csvCell('say "hi"'), '"say ""hi"""');
  assert.equal(csvCell('=HYPERLINK("x")'), `"'=HYPERLINK(""x"")"`);
  assert.equal(csvCell('@SUM(A1)'), "'@SUM(A1)");
});
