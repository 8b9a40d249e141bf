/*
 * One stylesheet for the whole usage view (about 360 lines, kept whole: the chart, lists and
 * table share its layout rules and theme tokens, and one adopted sheet is one style recalculation).
 *
 * Layout from 320 px to wide screens: every block is as wide as the element and wraps its
 * content; only the chart and the table scroll sideways, inside their own box, never the page.
 * Wide screens put the figures beside the busiest users and the drill-down panels side by side.
 */
import { css } from 'lit';
import { baseRules, themeTokens } from '../ui/theme.styles.js';

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
  figure {
    margin: 0;
  }
  .chart-scroll,
  .table-scroll {
    /* Positioned, so the screen-reader texts (absolute) inside scroll with it, not the page. */
    position: relative;
    overflow-x: auto;
    overscroll-behavior-x: contain;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
  }
  .bars,
  .years {
    display: flex;
    align-items: stretch;
    gap: 0.25rem;
    margin: 0;
    padding: 0.5rem;
    list-style: none;
  }
  .years {
    gap: 0.75rem;
  }
  .year {
    display: grid;
    border-inline-start: 2px solid var(--_border);
  }
  .year:first-child {
    border-inline-start: 0;
  }
  .year .bars {
    padding: 0 0.25rem;
  }
  .year-label {
    position: sticky;
    inset-inline-start: 0;
    padding-inline: 0.25rem;
    font-weight: 600;
  }
  [part='bar'] {
    display: grid;
    grid-template-rows: auto 10rem auto auto auto;
    justify-items: center;
    min-inline-size: 4.75rem;
    flex: 1 0 4.75rem;
    font-variant-numeric: tabular-nums;
    text-align: center;
  }
  .figure {
    font-weight: 600;
    font-size: 0.85em;
  }
  .column {
    inline-size: 70%;
    block-size: 100%;
    border-block-end: 1px solid var(--_border);
  }
  .column rect {
    fill: var(--_accent);
  }
  .month {
    font-size: 0.85em;
  }
  .per-month {
    color: var(--_muted);
    font-size: 0.75em;
    white-space: nowrap;
  }
  table {
    border-collapse: collapse;
    inline-size: 100%;
    font-variant-numeric: tabular-nums;
  }
  th,
  td {
    padding: 0.35rem 0.6rem;
    border-block-end: 1px solid var(--_border);
    text-align: start;
    white-space: nowrap;
  }
  thead th {
    background: var(--_surface);
  }
  .number {
    text-align: end;
  }
  tfoot th,
  tfoot td {
    font-weight: 600;
  }
  ol.users,
  ol.sessions,
  ol.messages,
  ol.rated {
    display: grid;
    gap: 0.35rem;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  [part='user'],
  [part='session'],
  [part='message'],
  [part='feedback-item'] {
    display: grid;
    grid-template-columns: minmax(0, 1fr) auto;
    gap: 0 0.5rem;
    inline-size: 100%;
    text-align: start;
  }
  .name {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .count {
    font-variant-numeric: tabular-nums;
    white-space: nowrap;
  }
  .sub {
    grid-column: 1 / -1;
    color: var(--_muted);
    font-size: 0.85em;
    overflow-wrap: anywhere;
  }
  [part='message'] .text,
  [part='feedback-item'] .said {
    grid-column: 1 / -1;
    overflow-wrap: anywhere;
    white-space: pre-wrap;
    display: -webkit-box;
    -webkit-line-clamp: 3;
    -webkit-box-orient: vertical;
    overflow: hidden;
  }
  .drill {
    display: grid;
    gap: 1rem;
    grid-template-columns: repeat(auto-fit, minmax(min(100%, 18rem), 1fr));
  }
  .placeholder {
    display: block;
    margin: 0;
    padding: 2rem 1rem;
    border: 1px dashed var(--_border);
    border-radius: calc(var(--_radius) / 2);
    color: var(--_muted);
    text-align: center;
  }
  .panel {
    min-inline-size: 0;
    padding: 0.75rem;
    border: 1px solid var(--_border);
    border-radius: calc(var(--_radius) / 2);
  }
  .pager {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 0.5rem;
    margin-block-start: 0.5rem;
    font-size: 0.9em;
  }
  .detail dl {
    display: grid;
    grid-template-columns: auto minmax(0, 1fr);
    gap: 0.2rem 0.75rem;
    margin: 0 0 0.5rem;
  }
  .detail dt {
    color: var(--_muted);
  }
  .detail dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .detail .text {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
    margin: 0;
    padding: 0.5rem;
    background: var(--_surface);
    border-radius: calc(var(--_radius) / 2);
  }
`;

export const viewStyles = [themeTokens, baseRules, view];
