import { css, html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { inertText } from '../../ui/inert-text.js';
import { plural } from '../../ui/format-text.js';
import type { WidgetStrings } from '../../ui/strings.js';
import type { TimeFormat } from './time-format.js';
import type { HistoryPaneController } from './history-pane-controller.js';

export { HistoryPaneController } from './history-pane-controller.js';
export { renderViewingBar } from './viewing-bar.js';

/**
 * The styles of the pane's sessions, of its search box, of the message a search result opened at
 * and of the bar over a past session (viewing-bar.ts), which come with its code and join the
 * element's the first time it draws (the pane's place and heading are the panel's:
 * panel.styles.ts).
 */
const historyPaneStyles = css`
  [part='history'] ul {
    list-style: none;
    margin: 0;
    padding: 0;
  }
  [part='search-input'] {
    inline-size: 100%;
    margin-block-end: 8px;
    padding: 8px 10px;
    border: 1px solid var(--_border);
    border-radius: 10px;
    background: var(--_bg);
  }
  /* The quiet focus of the panel's text fields (panel.styles.ts). */
  [part='search-input']:focus-visible {
    outline-offset: -1px;
    border-color: var(--_focus);
  }
  .search .note {
    margin: 0 6px 8px;
  }
  [part='session'],
  [part='search-result'] {
    display: block;
    inline-size: 100%;
    text-align: start;
    padding: 8px 10px;
    margin-block-end: 4px;
    border: 1px solid var(--_border);
    border-radius: 10px;
    background: var(--_bg);
    cursor: pointer;
  }
  [part='session']:hover,
  [part='search-result']:hover,
  [part='session'][aria-current='true'] {
    background: var(--_surface);
  }
  [part='session'] .line {
    display: block;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  /* A result shows its whole passage (at most 160 characters), wrapped. */
  [part='search-result'] .line {
    display: block;
    overflow-wrap: anywhere;
  }
  /* The infinite-scroll sentinel of the history pane: a class, not a style attribute (strict CSP). */
  .sessions-end {
    block-size: 1px;
  }
  [part='session'] .date,
  [part='search-result'] .date {
    font-size: 0.8em;
    color: var(--_muted);
  }
  .viewing {
    display: flex;
    align-items: center;
    justify-content: space-between;
    gap: 8px;
    padding: 6px 12px;
    background: var(--_surface);
    font-size: 0.85em;
  }
  /* The message a search result opened at, in the conversation beside the pane. */
  [part~='message'][data-found] .bubble {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
`;

/** What the panel lends the history pane to draw itself (the rest is the pane's controller's). */
export interface HistoryPaneView {
  readonly t: WidgetStrings;
  readonly time: TimeFormat;
  readonly formatTag: string;
  /** The session the chat shows, marked `aria-current`. */
  readonly shownSessionId: string | undefined;
}

// The sessions it lists come with its code: a panel that only shows the conversation carries none of it.
export { SessionHistory } from '../conversation/session-history.js';

/**
 * The history pane's code, a chunk of its own (with its search box, history-search.ts, and its
 * controller, history-pane-controller.ts): loaded when the page is idle after the panel opens, or
 * on the first press of the history button if that comes first (history-pane-state.ts), so it is
 * there offline once the panel has been open.
 */

/**
 * The history pane: the visitor's sessions, newest activity first, each with its date, size and
 * first line; the `.sessions-end` row loads the next page when it scrolls into view. `open`: whether
 * it is shown (it stays in the DOM, hidden, to keep its scroll position).
 */
export function renderHistoryPane(root: ShadowRoot, view: HistoryPaneView, pane: HistoryPaneController, open: boolean) {
  const { t, time, formatTag } = view;
  const { history, search } = pane;
  const sheet = historyPaneStyles.styleSheet;
  if (sheet && !root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  return html`<section part="history" aria-labelledby="history-heading" ?hidden=${!open}>
    <h3 id="history-heading">${t.historyHeading}</h3>
    ${search.render({
      strings: t,
      locale: formatTag,
      formatTime: (iso) => time.format(iso, true),
      open: pane.openHit,
    })}
    ${history.sessions.length === 0 && !history.loading && !search.active ? html`<p class="note">${t.historyEmpty}</p>` : nothing}
    <ul ?hidden=${search.active}>
      ${repeat(
        history.sessions,
        (s) => s.id,
        (s) => html`<li>
          <button part="session" type="button" data-session=${s.id} aria-current=${view.shownSessionId === s.id ? 'true' : 'false'}
            @click=${() => pane.openSession(s.id)}>
            <span class="date">${time.format(s.lastMessageAt, true)} · ${plural(t, 'sessionMessages', s.messageCount, formatTag)}</span>
            <span class="line" dir="auto">${inertText(history.firstLines.get(s.id)) || '…'}</span>
          </button>
        </li>`,
      )}
    </ul>
    ${history.loading ? html`<p class="note" role="status">${t.loading}</p>` : nothing}
    <div class="sessions-end"></div>
  </section>`;
}
