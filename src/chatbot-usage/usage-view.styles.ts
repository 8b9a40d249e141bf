/*
 * The usage view's frame: the element's box, the loading and error lines, the range form, the
 * section heads with their tools, and the totals. The chart and table (usage-chart.styles.ts) and
 * the lists with the drill-down (usage-lists.styles.ts) have sheets of their own, adopted after
 * this one (`viewStyles`), so their rules may build on its tokens and classes.
 *
 * Layout from 320 px to wide screens: every block is as wide as the element and wraps its
 * content; only the chart and the table scroll sideways, inside their own box, never the page.
 * Wide screens put the figures beside the busiest users and the drill-down panels side by side.
 */
import { css } from 'lit';
import { baseRules, themeTokens } from '../ui/theme.styles.js';
import { chartStyles } from './usage-chart.styles.js';
import { listStyles } from './usage-lists.styles.js';

const view = css`
  :host {
    font-family: var(--_font);
    font-size: var(--_font-size);
    line-height: 1.45;
    color: var(--_text);
    background: var(--_bg);
  }
  .loading {
    margin: 0;
    padding: 1rem;
    color: var(--_muted);
  }
  h2,
  h3 {
    margin: 0 0 0.5rem;
    line-height: 1.25;
  }
  h2 {
    font-size: 1.15em;
  }
  h3 {
    font-size: 1em;
  }
  .usage {
    display: grid;
    gap: 1rem;
    padding: 1rem;
    grid-template-columns: minmax(0, 1fr);
  }
  .top,
  .error,
  .figures {
    grid-column: 1 / -1;
  }
  @media (min-width: 900px) {
    .usage {
      grid-template-columns: minmax(16rem, 1fr) minmax(0, 2.5fr);
    }
  }
  .note {
    margin: 0.25rem 0;
    color: var(--_muted);
    font-size: 0.9em;
  }
  .warning {
    color: var(--_error-text);
  }
  .empty {
    color: var(--_muted);
  }
  button {
    cursor: pointer;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
    background: var(--_bg);
    padding: 0.35rem 0.8rem;
    min-block-size: 2.25rem;
  }
  button:hover:not([disabled]) {
    background: var(--_surface);
  }
  button[disabled] {
    cursor: default;
    color: var(--_muted);
    opacity: 0.75;
  }
  button[aria-pressed='true'] {
    border-color: var(--_accent);
    box-shadow: inset 0 0 0 1px var(--_accent);
  }
  .primary {
    background: var(--_accent);
    color: var(--_on-accent);
    border-color: var(--_accent);
  }
  .primary:hover:not([disabled]) {
    background: var(--_accent);
    filter: brightness(1.1);
  }
  .range {
    display: flex;
    flex-wrap: wrap;
    align-items: end;
    gap: 0.5rem 0.75rem;
    margin: 0;
  }
  .range label {
    display: grid;
    gap: 0.15rem;
    font-size: 0.9em;
  }
  .range input {
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
    background: var(--_bg);
    padding: 0.3rem 0.5rem;
    min-block-size: 2.25rem;
    max-inline-size: 100%;
  }
  .range input[aria-invalid='true'] {
    border-color: var(--_error-text);
    outline: 1px solid var(--_error-text);
  }
  .range .note,
  .form-error {
    flex-basis: 100%;
    margin: 0;
  }
  .form-error {
    color: var(--_error-text);
    font-weight: 600;
  }
  .form-error:empty {
    display: none;
  }
  .error {
    margin: 0;
    padding: 0.6rem 0.8rem;
    border-radius: calc(var(--_radius) / 2);
    background: var(--_error-bg);
    color: var(--_error-text);
    overflow-wrap: anywhere;
  }
  .section-head {
    display: flex;
    flex-wrap: wrap;
    justify-content: space-between;
    align-items: center;
    gap: 0.5rem;
  }
  .tools {
    display: flex;
    flex-wrap: wrap;
    gap: 0.5rem;
  }
  .toggle {
    display: inline-flex;
  }
  .toggle button:first-child {
    border-start-end-radius: 0;
    border-end-end-radius: 0;
  }
  .toggle button:last-child {
    border-start-start-radius: 0;
    border-end-start-radius: 0;
    margin-inline-start: -1px;
  }
  /* The chosen view is filled, as in a segmented control: an accent outline alone looks like the focus ring. */
  .toggle button[aria-pressed='true'] {
    background: var(--_accent);
    color: var(--_on-accent);
    box-shadow: none;
  }
  .totals {
    display: grid;
    grid-template-columns: repeat(auto-fit, minmax(9rem, 1fr));
    gap: 0.5rem;
    margin: 0.75rem 0;
  }
  [part='total'] {
    padding: 0.5rem 0.75rem;
    border-radius: calc(var(--_radius) / 2);
    background: var(--_surface);
  }
  [part='total'] dt {
    color: var(--_muted);
    font-size: 0.85em;
  }
  [part='total'] dd {
    margin: 0;
    font-size: 1.2em;
    font-weight: 600;
    font-variant-numeric: tabular-nums;
    overflow-wrap: anywhere;
  }
`;

/** The whole view, in cascade order: theme, base rules, frame, chart and table, lists. */
export const viewStyles = [themeTokens, baseRules, view, chartStyles, listStyles];
