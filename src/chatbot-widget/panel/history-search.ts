/**
 * The search box of the history pane: the visitor's own messages of every cached conversation,
 * found offline. The index and its code (src/chatbot-widget/search/) load when the visitor first uses
 * the box, as a chunk of their own; the index is built again from the cache each time the box
 * takes focus, and whenever a conversation is cached while it holds one, so it holds what was
 * cached since.
 *
 * Keyboard: type to search; Down or Tab reaches the results, Up and Down move between them,
 * Enter opens one; Escape clears the search (Escape with the search empty closes the pane).
 */
import { html, nothing, type ReactiveControllerHost, type TemplateResult } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { CachedConversation } from '../conversation/cached-conversation.js';
import type { SearchHit, SearchIndex } from '../search/search-index.js';
import { inertText } from '../../ui/inert-text.js';
import { plural } from '../../ui/format-text.js';
import type { WidgetStrings } from '../../ui/strings.js';

/** What the pane lends the search box to draw and open results. */
export interface SearchView {
  strings: WidgetStrings;
  /** Tag numbers are formatted with. */
  locale: string;
  formatTime(iso: string): string;
  /** Shows the conversation of a result, at its message. */
  open(hit: SearchHit): void;
}

export class HistorySearch {
  query = '';
  hits: SearchHit[] = [];
  /** The results are those of {@link query} (false while it is being searched, or empty). */
  #done = false;
  /** The search code could not be fetched (offline before its first use). */
  #unavailable = false;
  #index: Promise<SearchIndex> | undefined;

  readonly #host: ReactiveControllerHost;
  readonly #conversations: () => Promise<CachedConversation[]>;
  constructor(host: ReactiveControllerHost, conversations: () => Promise<CachedConversation[]>) {
    this.#host = host;
    this.#conversations = conversations;
  }

  /** Fetches the search code ahead of its first use (the history pane opened), in case the connection goes. */
  preload() {
    import('../search/search-index.js').catch(() => undefined);
  }

  /** (Re)builds the index from the cache: on focus, so it holds what was cached since. */
  readonly prepare = () => {
    const building = Promise.all([import('../search/search-index.js'), this.#conversations()]).then(
      ([{ SearchIndex }, conversations]) => new SearchIndex(conversations),
    );
    // A failed load (the chunk unreachable offline before first use) is tried again next time.
    building.catch(() => {
      if (this.#index === building) this.#index = undefined;
    });
    this.#index = building;
    if (this.query) void this.find(this.query);
  };

  /** More conversations were cached: an index already built is built again, and a search shown is run again. */
  readonly refresh = () => {
    if (this.#index) this.prepare();
  };

  async find(query: string) {
    this.query = query;
    this.#done = false;
    this.#unavailable = false;
    if (!query.trim()) {
      this.hits = [];
      this.#host.requestUpdate();
      return;
    }
    if (!this.#index) this.prepare();
    let hits: SearchHit[];
    try {
      hits = (await this.#index!).search(query);
    } catch {
      // Said on screen; the next keystroke or focus tries to fetch it again.
      if (this.query === query) {
        this.#unavailable = true;
        this.#host.requestUpdate();
      }
      return;
    }
    if (this.query !== query) return;
    this.hits = hits;
    this.#done = true;
    this.#host.requestUpdate();
  }

  clear() {
    void this.find('');
  }

  /** A query is typed: the pane shows its results instead of the sessions. */
  get active() {
    return !!this.query.trim();
  }

  readonly #onInputKeydown = (event: KeyboardEvent) => {
    const input = event.currentTarget as HTMLInputElement;
    if (event.key === 'ArrowDown') {
      const first = input.closest('[role="search"]')?.querySelector<HTMLElement>('[part="search-result"]');
      if (first) {
        event.preventDefault();
        first.focus();
      }
    } else if (event.key === 'Escape' && this.query) {
      // Handled here: the pane (and the panel) stay open.
      event.preventDefault();
      event.stopPropagation();
      input.value = '';
      this.clear();
    }
  };

  readonly #onResultKeydown = (event: KeyboardEvent) => {
    const result = event.currentTarget as HTMLElement;
    const box = result.closest('[role="search"]')!;
    const results = [...box.querySelectorAll<HTMLElement>('[part="search-result"]')];
    const input = box.querySelector<HTMLInputElement>('[part="search-input"]')!;
    const i = results.indexOf(result);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      (event.key === 'ArrowDown' ? results[i + 1] : (results[i - 1] ?? input))?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      input.value = '';
      this.clear();
      input.focus();
    }
  };

  /** What the status line says: the count, "no results", or nothing before a search. */
  #status(t: WidgetStrings, locale: string) {
    if (this.#unavailable) return t.errorUnreachable;
    if (!this.#done) return '';
    return this.hits.length ? plural(t, 'searchResults', this.hits.length, locale) : t.searchEmpty;
  }

  render({ strings: t, locale, formatTime, open }: SearchView): TemplateResult {
    return html`<div class="search" role="search">
      <label class="sr-only" for="search-input">${t.searchLabel}</label>
      <input id="search-input" part="search-input" type="search" autocomplete="off" placeholder=${t.searchPlaceholder}
        .value=${this.query} @focus=${this.prepare} @input=${(e: Event) => void this.find((e.target as HTMLInputElement).value)}
        @keydown=${this.#onInputKeydown} />
      <p class=${(this.#done && !this.hits.length) || this.#unavailable ? 'note' : 'sr-only'} role="status">${this.#status(t, locale)}</p>
      ${
        this.hits.length
          ? html`<ul class="results">
            ${repeat(
              this.hits,
              (hit) => hit.messageId,
              (hit) => html`<li>
                <button part="search-result" type="button" data-session=${hit.sessionId} data-message=${hit.messageId}
                  @click=${() => open(hit)} @keydown=${this.#onResultKeydown}>
                  <span class="date">${formatTime(hit.createdAt)}</span>
                  <span class="line" dir="auto">${hit.pieces.map((piece) => (piece.mark ? html`<mark>${inertText(piece.text)}</mark>` : inertText(piece.text)))}</span>
                </button>
              </li>`,
            )}
          </ul>`
          : nothing
      }
    </div>`;
  }
}
