/** The reply the backend gives to `wide-table` (backend.ts), for the table tests: wider than a narrow panel, with hostile cells. */

/** A cell's word too long to wrap: the table is wider than a 320 px panel, and scrolls. */
export const LONG_CELL_WORD = 'one-conversation-at-a-time-support-by-e-mail-WORD-ENDS';

export const WIDE_TABLE_REPLY = [
  'The plans:',
  '',
  '| Plan | Monthly price | Seats | What it includes |',
  '|:-----|:-------------:|------:|------------------|',
  `| Free | 0 € | 1 | ${LONG_CELL_WORD} |`,
  '| <img src=x onerror="window.__pwned=1"> | [pay](javascript:window.__pwned=1) | 10 | [docs](https://example.com/docs) |',
].join('\n');
