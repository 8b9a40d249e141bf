import { css } from 'lit';

/**
 * The usage view's lists (usage-lists.ts) and the drill-down (drill-down.ts): the busiest users,
 * a user's sessions, a session's messages and the rated answers as buttons of one layout, the
 * panels side by side on wide screens, their pagers, and a message's details.
 */
export const listStyles = css`
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
