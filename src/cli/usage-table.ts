import type { MonthlyUsage } from '../shared/types.js';

const COLUMNS: Array<{ title: string; value: (m: MonthlyUsage) => number; total: boolean }> = [
  { title: 'messages', value: (m) => m.messageCount, total: true },
  { title: 'user messages', value: (m) => m.userMessageCount, total: true },
  // Distinct counts of different months cannot be added up: their total is left blank.
  { title: 'users', value: (m) => m.distinctUsers, total: false },
  { title: 'sessions', value: (m) => m.distinctSessions, total: false },
  { title: 'tokens', value: (m) => m.tokenTotal, total: true },
];

const number = new Intl.NumberFormat('en-US');

/**
 * The monthly buckets of count-by-month as an aligned text table for a terminal: one row a
 * month, numbers right-aligned with thousands separators, and a total row where adding up
 * means something.
 *
 * @example
 * formatUsageTable([{ month: '2025-01', messageCount: 1200, userMessageCount: 600, distinctUsers: 40, distinctSessions: 90, tokenTotal: 81234 }]);
 * // month    messages  user messages  users  sessions  tokens
 * // 2025-01     1,200            600     40        90  81,234
 * // total       1,200            600                   81,234
 */
export function formatUsageTable(months: MonthlyUsage[]): string {
  if (months.length === 0) return 'No months in this range.\n';
  const rows: string[][] = [['month', ...COLUMNS.map((c) => c.title)]];
  for (const month of months) rows.push([month.month, ...COLUMNS.map((c) => number.format(c.value(month)))]);
  if (months.length > 1) {
    rows.push(['total', ...COLUMNS.map((c) => (c.total ? number.format(months.reduce((sum, m) => sum + c.value(m), 0)) : ''))]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return (
    rows
      .map((row) =>
        row
          .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
