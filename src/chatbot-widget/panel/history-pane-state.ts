/**
 * The history pane's state: whether it is open, and the loading of its code. It needs no part of
 * the element's lifecycle before that code comes. The pane is drawn by history-pane.ts, a chunk
 * of its own with the search box and the pane's controller (history-pane-controller.ts, which
 * joins the element then: the search box fed, paging as the last row scrolls into view, opening
 * a session or a search result). The chunk is loaded when the page is idle after the panel opens
 * (idle-preload.ts), or on the history button's first press if that comes first, the pane shown
 * at once with its heading and a loading line meanwhile (or, offline, what went wrong).
 */
import { html, nothing } from 'lit';
import type { ChatController } from '../conversation/chat-controller.js';
import type { HistoryPaneView } from './history-pane.js';
import type { HistoryPaneController } from './history-pane-controller.js';
import type { MessageList } from './message-list.js';
import { partOf, type PanelHost } from './panel-host.js';

type HistoryPaneCode = typeof import('./history-pane.js');

/** The pane's code once loaded on this page: each widget's pane draws with it at once from then on. */
let loadedCode: HistoryPaneCode | undefined;

export class HistoryPaneState {
  /** Whether the pane is shown (it stays in the DOM, hidden, to keep its scroll position). */
  open = false;
  /** The pane's code, once loaded. */
  #code: HistoryPaneCode | undefined;
  /** The pane at work (its sessions, its search box, the bar over a past session), which comes with its code. */
  #pane: HistoryPaneController | undefined;
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
    const history = this.#chat.history;
    if (this.#code || !history) return;
    this.#code = code;
    this.#pane = new code.HistoryPaneController(this.#host, this.#chat, history, this.#messages, this);
    this.#failed = false;
    this.#host.requestUpdate();
  }

  /** The history button: shows the pane (its code on its way, then its sessions fetched) or hides it. */
  readonly toggle = () => {
    this.open = !this.open;
    // Said in the pane when its code cannot be fetched; the next press tries again.
    if (this.open) this.load().then(this.#listSessions, () => undefined);
    this.#host.requestUpdate();
  };

  /** The pane opened and its code is here: its sessions listed. */
  readonly #listSessions = () => this.#pane?.list();

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
    this.#pane?.search.clear();
  }

  /**
   * The pane: drawn by its code once loaded; until then, while open, its heading and a loading
   * line, or what went wrong when its code could not be fetched (as the panel's place says it).
   */
  render(view: HistoryPaneView) {
    if (this.#code && this.#pane) return this.#code.renderHistoryPane(this.#host.renderRoot as ShadowRoot, view, this.#pane, this.open);
    if (!this.open) return nothing;
    const { t } = view;
    return html`<section part="history" aria-labelledby="history-heading">
      <h3 id="history-heading">${t.historyHeading}</h3>
      ${this.#failed ? html`<p class="note" role="alert">${t.errorUnreachable}</p>` : html`<p class="note" role="status">${t.loading}</p>`}
    </section>`;
  }

  /** While a past session opened from the pane is shown, the bar over it (drawn by the pane's code). */
  renderViewingBar(view: Pick<HistoryPaneView, 't' | 'time'>) {
    return this.#code && this.#pane ? this.#code.renderViewingBar(this.#pane, view.t, view.time) : nothing;
  }
}
