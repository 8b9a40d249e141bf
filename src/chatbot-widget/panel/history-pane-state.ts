/**
 * The history pane's state as a Lit reactive controller: whether it is open, its search box, the
 * next page of sessions loaded as its last row scrolls into view, and what opening a session or
 * a search result does to the conversation shown. The pane itself is drawn by history-pane.ts, a
 * chunk of its own with the search box: loaded when the page is idle after the panel opens
 * (idle-preload.ts), or on the history button's first press if that comes first, the pane shown
 * at once with its heading and a loading line meanwhile (or, offline, what went wrong).
 */
import { html, nothing, type ReactiveController } from 'lit';
import type { ChatController } from '../controllers/chat-controller.js';
import type { SearchHit } from '../search/search-index.js';
import type { HistoryPaneContext } from './history-pane.js';
import type { HistorySearch } from './history-search.js';
import type { MessageList } from './message-list.js';
import { partOf, type PanelHost } from './panel-host.js';

type HistoryPaneCode = typeof import('./history-pane.js');

/** The pane's code once loaded on this page: each widget's pane draws with it at once from then on. */
let loadedCode: HistoryPaneCode | undefined;

/** What the panel lends the pane to draw itself (the rest is this controller's). */
export type HistoryPaneView = Omit<HistoryPaneContext, 'history' | 'open' | 'openSession' | 'search' | 'openHit'>;

export class HistoryPaneState implements ReactiveController {
  /** Whether the pane is shown (it stays in the DOM, hidden, to keep its scroll position). */
  open = false;
  /** The search box above the sessions, once the pane's code has loaded. */
  search: HistorySearch | undefined;
  #sessionObserver: IntersectionObserver | undefined;
  /** The pane's code, once loaded. */
  #code: HistoryPaneCode | undefined;
  /** Its code on the way (or loaded); undefined before the first attempt and after a failed one. */
  #loading: Promise<void> | undefined;
  /** The pane's code could not be fetched (offline before its first use). */
  #failed = false;

  readonly #host: PanelHost;
  readonly #chat: ChatController;
  readonly #messages: MessageList;
  constructor(host: PanelHost, chat: ChatController, messages: MessageList) {
    this.#host = host;
    this.#chat = chat;
    this.#messages = messages;
    host.addController(this);
    if (loadedCode) void this.#use(loadedCode);
  }

  /** Loads the pane's code, its sessions and its search box (once; again after a failure). */
  load(): Promise<void> {
    if (loadedCode) return this.#use(loadedCode);
    this.#loading ??= import('./history-pane.js').then(
      (code) => {
        loadedCode = code;
        return this.#use(code);
      },
      (error: unknown) => {
        this.#loading = undefined;
        this.#failed = true;
        this.#host.requestUpdate();
        throw error;
      },
    );
    return this.#loading;
  }

  /** The pane's code is here: its sessions are read, its search box is made, and the pane drawn with them. */
  async #use(code: HistoryPaneCode) {
    await this.#chat.attachHistory(code.SessionHistory);
    if (this.#code) return;
    this.#code = code;
    const search = new code.HistorySearch(this.#host, () => this.#chat.conversation.allCached());
    this.search = search;
    // A message sent or a page fetched while the box has its index: found without leaving the box.
    this.#chat.conversation.onCached = search.refresh;
    this.#failed = false;
    this.#host.requestUpdate();
  }

  /** Whether the panel was open at the last update (closing it stops the background fetching). */
  #panelOpen = false;

  hostUpdated() {
    if (this.#panelOpen && !this.#host.open) this.#chat.history?.stopPrefetch();
    this.#panelOpen = this.#host.open;
    if (this.#host.isShown) this.#observeSessions();
  }

  hostDisconnected() {
    this.#sessionObserver?.disconnect();
  }

  /** Infinite scroll of the pane: the last row coming into view loads the next page. */
  #observeSessions() {
    const sentinel = this.#host.renderRoot.querySelector('.sessions-end');
    this.#sessionObserver?.disconnect();
    if (!sentinel || !this.open) return;
    this.#sessionObserver ??= new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void this.#chat.history?.loadMore();
    });
    this.#sessionObserver.observe(sentinel);
  }

  /** The history button: shows the pane (its code on its way, then its sessions fetched) or hides it. */
  readonly toggle = () => {
    this.open = !this.open;
    // Said in the pane when its code cannot be fetched; the next press tries again.
    if (this.open) this.load().then(this.#listSessions, () => undefined);
    this.#host.requestUpdate();
  };

  /** The pane opened: its first page of sessions fetched again, and what the search box needs. */
  readonly #listSessions = () => {
    const chat = this.#chat;
    if (!this.open || !chat.history) return;
    void chat.history.loadMore(true);
    this.search?.preload();
    // The listed sessions' messages, fetched in the background so the search box finds them
    // (offline too); the conversation shown is current already.
    chat.history.prefetch(
      (id) => id === chat.conversation.current?.sessionId || id === chat.conversation.viewing,
      () => this.search?.refresh(),
    );
  };

  /**
   * Escape while the pane is open: back to the button that opened it (the disclosure pattern),
   * as focus on a row of the pane would fall to the page's body once the pane hides.
   */
  closeToButton() {
    partOf(this.#host, 'history-button')?.focus();
    this.open = false;
    this.#host.requestUpdate();
  }

  /** The visitor was forgotten: the pane closes, and its search holds nothing of theirs. */
  forget() {
    this.open = false;
    this.search?.clear();
  }

  /** Shows a session of the pane, at its newest message, focus on the list. */
  openSession(sessionId: string) {
    this.open = false;
    this.#messages.stopRevealing();
    this.#messages.window.follow();
    void this.#chat.history?.view(this.#chat.conversation, sessionId);
    this.#host.requestUpdate();
    void this.#host.updateComplete.then(() => this.#messages.element?.focus());
  }

  /** Opens a search result: its conversation, at its message. */
  openHit(hit: SearchHit) {
    this.open = false;
    this.#messages.reveal(hit.messageId);
    void this.#chat.history?.view(this.#chat.conversation, hit.sessionId);
    this.#host.requestUpdate();
  }

  /**
   * The pane: drawn by its code once loaded; until then, while open, its heading and a loading
   * line, or what went wrong when its code could not be fetched (as the panel's place says it).
   */
  render(view: HistoryPaneView) {
    const history = this.#chat.history;
    if (this.#code && this.search && history) {
      return this.#code.renderHistoryPane(this.#host.renderRoot as ShadowRoot, {
        ...view,
        history,
        open: this.open,
        openSession: (id) => this.openSession(id),
        search: this.search,
        openHit: (hit) => this.openHit(hit),
      });
    }
    if (!this.open) return nothing;
    const { t } = view;
    return html`<section part="history" aria-labelledby="history-heading">
      <h3 id="history-heading">${t.historyHeading}</h3>
      ${this.#failed ? html`<p class="note" role="alert">${t.errorUnreachable}</p>` : html`<p class="note" role="status">${t.loading}</p>`}
    </section>`;
  }

  /** From a past session back to the current conversation. */
  readonly backToChat = () => {
    this.#messages.stopRevealing();
    this.#messages.window.follow();
    this.#chat.conversation.showCurrent();
  };
}
