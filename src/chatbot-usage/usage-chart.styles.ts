import { css } from 'lit';

/**
 * The usage view's bar chart and its table (usage-chart.ts): the box each scrolls sideways in,
 * the years and months of bars, and the table's numbers. Adopted after the view's frame
 * (usage-view.styles.ts), whose tokens it uses.
 */
export const chartStyles = css`
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
`;
