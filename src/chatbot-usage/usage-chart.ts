/**
 * Messages per month, drawn two ways from the same figures: a bar chart (each bar says its figure,
 * its month, its distinct users and sessions; a screen reader hears one sentence a bar) and a
 * table. Bar heights are SVG geometry, not inline styles, so a strict CSP refuses nothing.
 */
import { html, nothing, svg, type TemplateResult } from 'lit';
import type { MonthlyUsage } from '../shared/types.js';
import { inertText } from '../ui/inert-text.js';
import type { UsageFormat } from './usage-format.js';

/** Above this many months the bars are grouped by year (and the chart scrolls sideways). */
export const GROUP_BY_YEAR_ABOVE = 24;

/** Sum of one figure over the months. */
export function sumOf(months: MonthlyUsage[], pick: (m: MonthlyUsage) => number): number {
  return months.reduce((sum, m) => sum + (Number(pick(m)) || 0), 0);
}

function bar(m: MonthlyUsage, max: number, format: UsageFormat, showYear: boolean): TemplateResult {
  const month = inertText(m.month);
  // At least a sliver for any month with messages, so "few" never looks like "none".
  const height = m.messageCount > 0 ? Math.max(1, Math.round((m.messageCount / max) * 1000) / 10) : 0;
  return html`<li part="bar" data-month=${month} data-messages=${m.messageCount}>
    <span class="figure" aria-hidden="true">${format.number(m.messageCount)}</span>
    <svg class="column" viewBox="0 0 10 100" preserveAspectRatio="none" aria-hidden="true">
      ${svg`<rect x="0" y=${100 - height} width="10" height=${height}></rect>`}
    </svg>
    <span class="month" aria-hidden="true">${format.monthShort(month)}${showYear ? html`<br />${month.slice(0, 4)}` : nothing}</span>
    <span class="per-month" aria-hidden="true">${format.count(m.distinctUsers, 'user', 'users')}</span>
    <span class="per-month" aria-hidden="true">${format.count(m.distinctSessions, 'session', 'sessions')}</span>
    <span class="sr-only"
      >${format.monthLong(month)}: ${format.count(m.messageCount, 'message', 'messages')},
      ${format.count(m.distinctUsers, 'distinct user', 'distinct users')}, ${format.count(m.distinctSessions, 'session', 'sessions')}</span
    >
  </li>`;
}

function bars(months: MonthlyUsage[], max: number, format: UsageFormat, yearOnFirst: boolean): TemplateResult {
  return html`<ol class="bars">
    ${months.map((m, i) => bar(m, max, format, yearOnFirst && (i === 0 || m.month.endsWith('-01'))))}
  </ol>`;
}

/** The chart: one list of bars, or for long ranges one group of bars per year. */
export function chartTemplate(months: MonthlyUsage[], format: UsageFormat): TemplateResult {
  const max = Math.max(1, ...months.map((m) => m.messageCount));
  const byYear = months.length > GROUP_BY_YEAR_ABOVE;
  const years = new Map<string, MonthlyUsage[]>();
  if (byYear) for (const m of months) years.set(m.month.slice(0, 4), [...(years.get(m.month.slice(0, 4)) ?? []), m]);
  return html`<figure part="chart" class=${byYear ? 'by-year' : ''}>
    <figcaption class="note">
      ${
        byYear
          ? `${months.length} months, grouped by year: the chart opens on the latest; scroll it sideways for earlier years, or choose Table to read them all.`
          : 'Messages per month; under each bar its distinct users and sessions.'
      }
    </figcaption>
    <div class="chart-scroll" tabindex="0" role="region" aria-label="Messages per month (scrolls sideways)">
      ${
        byYear
          ? html`<ol class="years">
            ${[...years].map(
              ([year, group]) => html`<li class="year">
                <span class="year-label" aria-hidden="true">${year}</span>
                ${bars(group, max, format, false)}
              </li>`,
            )}
          </ol>`
          : bars(months, max, format, true)
      }
    </div>
  </figure>`;
}

/** The same figures as a table, with a total row where adding up means something. */
export function tableTemplate(months: MonthlyUsage[], format: UsageFormat): TemplateResult {
  const n = (value: number) => html`<td class="number">${format.number(value)}</td>`;
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label="Messages per month, table">
    <table part="table">
      <caption class="sr-only">
        Messages per UTC month
      </caption>
      <thead>
        <tr>
          <th scope="col">Month (UTC)</th>
          <th scope="col" class="number">Messages</th>
          <th scope="col" class="number">From users</th>
          <th scope="col" class="number">Distinct users</th>
          <th scope="col" class="number">Sessions</th>
          <th scope="col" class="number">Tokens</th>
        </tr>
      </thead>
      <tbody>
        ${months.map(
          (m) => html`<tr data-month=${inertText(m.month)}>
            <th scope="row">${format.monthLong(inertText(m.month))}</th>
            ${n(m.messageCount)} ${n(m.userMessageCount)} ${n(m.distinctUsers)} ${n(m.distinctSessions)} ${n(m.tokenTotal)}
          </tr>`,
        )}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          ${n(sumOf(months, (m) => m.messageCount))} ${n(sumOf(months, (m) => m.userMessageCount))}
          <td class="number"><span class="sr-only">not added up: a user active in two months counts in both</span></td>
          <td class="number"><span class="sr-only">not added up</span></td>
          ${n(sumOf(months, (m) => m.tokenTotal))}
        </tr>
      </tfoot>
    </table>
  </div>`;
}
