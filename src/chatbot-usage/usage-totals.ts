/**
 * The totals of `<chatbot-usage>`'s range: messages (the count route), those users sent, tokens
 * and the busiest month; and a warning when the months do not add up to the count (upstream
 * changed while the element was loading).
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { MonthlyUsage } from '../shared/types.js';
import { sumOf } from './usage-chart.js';
import type { UsageFormat } from './usage-format.js';

/** What the totals are drawn from. */
export interface RangeTotals {
  months: MonthlyUsage[];
  /** Messages in the range, from the count route. */
  total: number;
  /** Messages users sent in the range, from the count route with `sent=true`. */
  fromUsers: number;
}

export function totalsTemplate(f: RangeTotals, format: UsageFormat): TemplateResult {
  const busiest = f.months.reduce<MonthlyUsage | undefined>(
    (best, m) => (!best || m.messageCount > best.messageCount ? m : best),
    undefined,
  );
  const item = (name: string, label: string, value: string) =>
    html`<div part="total" data-total=${name}><dt>${label}</dt><dd>${value}</dd></div>`;
  const monthsSum = sumOf(f.months, (m) => m.messageCount);
  return html`<dl class="totals">
      ${item('messages', 'Messages', format.number(f.total))} ${item('from-users', 'From users', format.number(f.fromUsers))}
      ${item('tokens', 'Tokens', format.number(sumOf(f.months, (m) => m.tokenTotal)))}
      ${item('busiest-month', 'Busiest month', busiest && busiest.messageCount > 0 ? `${format.monthLong(busiest.month)} (${format.number(busiest.messageCount)})` : '—')}
    </dl>
    ${
      monthsSum !== f.total
        ? html`<p class="note warning">The months add up to ${format.count(monthsSum, 'message', 'messages')}, the count for the range is ${format.number(f.total)}: upstream changed while loading; choose Show again.</p>`
        : nothing
    }`;
}
