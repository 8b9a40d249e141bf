/**
 * When the panel keeps its snapshot (panel-snapshot.ts), as a Lit reactive controller: as its
 * page is hidden (another tab, or the page going: a reload, a link), the panel as shown becomes
 * the next load's first paint, if the panel's code draws the same first. Otherwise the record
 * keeps no snapshot.
 */
import type { ReactiveController } from 'lit';
import type { ChatController } from '../conversation/chat-controller.js';
import { keepSnapshot } from '../conversation/first-paint-record.js';
import { endpointBase } from '../../ui/endpoint-base.js';
import type { HistoryPaneState } from './history-pane-state.js';
import type { MessageList } from './message-list.js';
import { partOf, type PanelHost } from './panel-host.js';
import { snapshotOf } from './take-snapshot.js';

export class SnapshotPolicy implements ReactiveController {
  readonly #host: PanelHost;
  readonly #chat: ChatController;
  readonly #history: HistoryPaneState;
  readonly #messages: MessageList;
  constructor(host: PanelHost, chat: ChatController, history: HistoryPaneState, messages: MessageList) {
    this.#host = host;
    this.#chat = chat;
    this.#history = history;
    this.#messages = messages;

    host.addController(this);
  }

  readonly #onVisibility = () => {
    if (document.hidden) this.#keep();
  };

  hostConnected() {
    document.addEventListener('visibilitychange', this.#onVisibility);
  }

  hostDisconnected() {
    document.removeEventListener('visibilitychange', this.#onVisibility);
  }

  /**
   * Keeps the panel as shown if it is what the next load draws first: the current conversation
   * at its end, as its first-paint record holds it, nothing unsent or awaiting its reply, nothing
   * open or said over it.
   */
  #keep() {
    const host = this.#host;
    const chat = this.#chat;
    const list = this.#messages.element;
    const panel = partOf(host, 'panel');
    const plain =
      host.isShown &&
      !this.#history.open &&
      !chat.conversation.viewing &&
      this.#messages.window.following &&
      !chat.sender.entries.length &&
      !chat.sender.typing &&
      !partOf(host, 'error') &&
      !partOf(host, 'quota-notice') &&
      !host.renderRoot.querySelector('.message-count:not([hidden])');
    // What is not in view is left out: what is hidden (the history pane, its search results), and
    // the bubbles scrolled out of view above (the first paint lays out what it shows).
    const seen = (node: Node) =>
      !(node as HTMLElement).hidden &&
      (list === undefined ||
        node.parentNode !== list ||
        (node as HTMLElement).offsetTop + (node as HTMLElement).offsetHeight > list.scrollTop);
    keepSnapshot(endpointBase(host.endpoint), chat.conversation.current, plain && panel ? snapshotOf(panel, seen) : undefined);
  }
}
