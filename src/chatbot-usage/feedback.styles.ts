import { css } from 'lit';

/**
 * The visitors' feedback section of the usage view (feedback-view.ts): the table of thumbs per
 * month, and what sets the rated answers apart from the drill-down's buttons, whose layout they
 * share (usage-lists.styles.ts): the labels of their question, answer and comment lines.
 */
export const feedbackStyles = css`
  .feedback {
    grid-column: 1 / -1;
    min-inline-size: 0;
  }
  /* Many months scroll inside the box, under their column heads; the rated answers start below it. */
  .feedback .table-scroll {
    max-block-size: 20rem;
    margin-block-end: 1.25rem;
    container-type: inline-size;
  }
  /* In a box as narrow as a phone's, tighter cells: the three columns fit without scrolling sideways. */
  @container (max-width: 22rem) {
    .feedback th,
    .feedback td {
      padding-inline: 0.4rem;
    }
  }
  .feedback thead th {
    position: sticky;
    inset-block-start: 0;
    /* Three columns fit a phone when "Not helpful" may take two lines. */
    white-space: normal;
  }
  .feedback h4 {
    margin: 0.75rem 0 0.35rem;
    font-size: 0.95em;
  }
  [part='feedback-item'] .label {
    color: var(--_muted);
    font-weight: 600;
  }
  [part='feedback-item'][data-value='down'] .name {
    color: var(--_error-text);
  }
`;
