/**
 * The figures `<chatbot-usage>` shows, as CSV for a spreadsheet: one row a UTC month, then the
 * total row (distinct users and sessions left blank there: they cannot be added up across months).
 * The last two columns, `up` and `down`, are the visitors' thumbs up and down of that month.
 */
import type { FeedbackMonth, MonthlyUsage } from '../shared/types.js';
import { sumOf } from './usage-chart.js';

/**
 * A cell as CSV text. Quoted when it holds a separator, quote or line break; a leading `=`, `+`,
 * `-` or `@` gets a `'` so a spreadsheet never runs it as a formula.
 */
export function csvCell(value: string | number): string {
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function usageCsv(months: MonthlyUsage[], feedback: FeedbackMonth[] = []): string {
  const rated = new Map(feedback.map((f) => [f.month, f]));
  const up = (month: string) => Number(rated.get(month)?.up) || 0;
  const down = (month: string) => Number(rated.get(month)?.down) || 0;
  const rows: (string | number)[][] = [
    ['month (UTC)', 'messages', 'user messages', 'distinct users', 'distinct sessions', 'tokens', 'up', 'down'],
  ];
  for (const m of months)
    rows.push([m.month, m.messageCount, m.userMessageCount, m.distinctUsers, m.distinctSessions, m.tokenTotal, up(m.month), down(m.month)]);
  rows.push([
    'total',
    sumOf(months, (m) => m.messageCount),
    sumOf(months, (m) => m.userMessageCount),
    '',
    '',
    sumOf(months, (m) => m.tokenTotal),
    months.reduce((sum, m) => sum + up(m.month), 0),
    months.reduce((sum, m) => sum + down(m.month), 0),
  ]);
  return rows.map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** Saves text as a file through a temporary object URL (no inline script, nothing a CSP refuses). */
export function downloadText(filename: string, text: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
