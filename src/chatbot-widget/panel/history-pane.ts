import { html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { SessionHistory } from '../controllers/session-history.js';
import { inertText } from '../../ui/inert-text.js';
import { plural } from '../../ui/format-text.js';
import type { WidgetStrings } from '../../ui/strings.js';
import type { TimeFormat } from './time-format.js';
import type { HistorySearch } from './history-search.js';
import type { SearchHit } from '../search/search-index.js';

/** What the history pane needs to draw itself. */
export interface HistoryPaneContext {
  readonly t: WidgetStrings;
  readonly time: TimeFormat;
  readonly formatTag: string;
  readonly history: SessionHistory;
  /** Whether the pane is shown (it stays in the DOM, hidden, to keep its scroll position). */
  readonly open: boolean;
  /** The session the chat shows, marked `aria-current`. */
  readonly shownSessionId: string | undefined;
  openSession(sessionId: string): void;
  /** The search box above the sessions; while a query is typed, its results replace them. */
  readonly search: HistorySearch;
  openHit(hit: SearchHit): void;
}

/**
 * The history pane: the visitor's sessions, newest activity first, each with its date, size and
 * first line; the `.sessions-end` row loads the next page when it scrolls into view.
 */
export function renderHistoryPane(context: HistoryPaneContext) {
  const { t, history } = context;
  return html`<section part="history" aria-labelledby="history-heading" ?hidden=${!context.open}>
    <h3 id="history-heading">${t.historyHeading}</h3>
    ${context.search.render({
      strings: t,
      locale: context.formatTag,
      formatTime: (iso) => context.time.format(iso, true),
      open: (hit) => context.openHit(hit),
    })}
    ${history.sessions.length === 0 && !history.loading && !context.search.active ? html`<p class="note">${t.historyEmpty}</p>` : nothing}
    <ul ?hidden=${context.search.active}>
      ${repeat(
        history.sessions,
        (s) => s.id,
        (s) => html`<li>
          <button part="session" type="button" data-session=${s.id} aria-current=${context.shownSessionId === s.id ? 'true' : 'false'}
            @click=${() => context.openSession(s.id)}>
            <span class="date">${context.time.format(s.lastMessageAt, true)} · ${plural(t, 'sessionMessages', s.messageCount, context.formatTag)}</span>
            <span class="line">${inertText(history.firstLines.get(s.id)) || '…'}</span>
          </button>
        </li>`,
      )}
    </ul>
    ${history.loading ? html`<p class="note" role="status">${t.loading}</p>` : nothing}
    <div class="sessions-end"></div>
  </section>`;
}
