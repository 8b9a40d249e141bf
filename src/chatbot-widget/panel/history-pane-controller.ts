/**
 * The history pane at work, as a Lit reactive controller the pane's state (history-pane-state.ts)
 * adds to the element once the pane's code is here: its search box, fed with every cached
 * conversation; its first page of sessions fetched again when the pane opens and the next loaded
 * as its last row scrolls into view; a session or a search result shown in the conversation's
 * place, and the way back from it (the bar over a past session: viewing-bar.ts). Until the code
 * comes the pane shows only its heading and a loading line, so none of this weighs on the
 * panel's chunk.
 */
import type { ReactiveController } from 'lit';
import type { ChatController } from '../conversation/chat-controller.js';
import type { SessionHistory } from '../conversation/session-history.js';
import type { SearchHit } from '../search/search-index.js';
import { FoundMessage } from './found-message.js';
import { HistorySearch } from './history-search.js';
import type { MessageList } from './message-list.js';
import type { PanelHost } from './panel-host.js';

/** The pane as its state holds it: whether it is shown. */
export interface HistoryPaneToggle {
  open: boolean;
}

export class HistoryPaneController implements ReactiveController {
  /** The sessions it lists. */
  readonly history: SessionHistory;
  /** The search box above the sessions; while a query is typed, its results replace them. */
  readonly search: HistorySearch;
  /** The message a search result opened at, brought into view. */
  readonly found: FoundMessage;
  #sessionObserver: IntersectionObserver | undefined;
  /** Whether the panel was open at the last update (closing it stops the background fetching). */
  #panelOpen = false;

  readonly #host: PanelHost;
  readonly #chat: ChatController;
  readonly #messages: MessageList;
  readonly #pane: HistoryPaneToggle;
  constructor(host: PanelHost, chat: ChatController, history: SessionHistory, messages: MessageList, pane: HistoryPaneToggle) {
    this.#host = host;
    this.#chat = chat;
    this.history = history;
    this.#messages = messages;
    this.#pane = pane;
    const search = new HistorySearch(host, () => history.cachedConversations(chat.conversation));
    this.search = search;
    // A message sent or a page fetched while the box has its index: found without leaving the box.
    chat.conversation.onCached = search.refresh;
    this.found = new FoundMessage(host, chat, messages);
    host.addController(this);
  }

  hostUpdated() {
    if (this.#panelOpen && !this.#host.open) this.history.stopPrefetch();
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
    if (!sentinel || !this.#pane.open) return;
    this.#sessionObserver ??= new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void this.history.loadMore();
    });
    this.#sessionObserver.observe(sentinel);
  }

  /** The pane opened: its first page of sessions fetched again, and what the search box needs. */
  list() {
    const { conversation } = this.#chat;
    if (!this.#pane.open) return;
    void this.history.loadMore(true);
    this.search.preload();
    // The listed sessions' messages, fetched in the background so the search box finds them
    // (offline too); the conversation shown is current already.
    this.history.prefetch(
      (id) => id === conversation.current?.sessionId || id === conversation.viewing,
      () => this.search.refresh(),
    );
  }

  /** Shows a session of the pane, at its newest message, focus on the list. */
  readonly openSession = (sessionId: string) => {
    this.#pane.open = false;
    this.found.stop();
    this.#messages.window.follow();
    void this.history.view(this.#chat.conversation, sessionId);
    this.#host.requestUpdate();
    void this.#host.updateComplete.then(() => this.#messages.element?.focus());
  };

  /** The conversation a session of the pane is shown in. */
  get conversation() {
    return this.#chat.conversation;
  }

  /** From a past session back to the current conversation. */
  readonly backToChat = () => {
    this.found.stop();
    this.#messages.window.follow();
    this.#chat.conversation.showCurrent();
  };

  /** Opens a search result: its conversation, at its message. */
  readonly openHit = (hit: SearchHit) => {
    this.#pane.open = false;
    this.found.reveal(hit.messageId);
    void this.history.view(this.#chat.conversation, hit.sessionId);
    this.#host.requestUpdate();
  };
}
