/**
 * The message a search result opened at, as a Lit reactive controller: once the result's
 * conversation holds it, the message list's window is opened around it (windowing.ts); once
 * rendered, it is scrolled into view, marked `data-found` and focused. It comes with the history
 * pane's code (history-pane-controller.ts adds it), as only the pane's search box opens results,
 * and runs after the message list in each update: the list has kept its reading place by then.
 */
import type { ReactiveController } from 'lit';
import type { ChatController } from '../conversation/chat-controller.js';
import type { MessageList } from './message-list.js';
import type { PanelHost } from './panel-host.js';

export class FoundMessage implements ReactiveController {
  /** The result's message: `shown` once the window was opened around it. */
  #revealing: { key: string; shown: boolean } | undefined;

  readonly #host: PanelHost;
  readonly #chat: ChatController;
  readonly #messages: MessageList;
  constructor(host: PanelHost, chat: ChatController, messages: MessageList) {
    this.#host = host;
    this.#chat = chat;
    this.#messages = messages;
    host.addController(this);
  }

  /** Opens the conversation at `key` once its message is here (a search result). */
  reveal(key: string) {
    this.#revealing = { key, shown: false };
  }

  /** No message is to be revealed any more (another conversation was asked for). */
  stop() {
    this.#revealing = undefined;
  }

  hostUpdate() {
    const revealing = this.#revealing;
    if (revealing && !revealing.shown && this.#chat.conversation.messages.some((m) => m.key === revealing.key)) {
      this.#messages.window.reveal(revealing.key);
      revealing.shown = true;
    }
  }

  /** The result's message is rendered: scrolled into view, marked `data-found` and focused. */
  hostUpdated() {
    const list = this.#messages.element;
    // Hidden, nothing is measured: scrolling would lay out the page for a panel not seen.
    if (!this.#host.isShown || !list || !this.#revealing?.shown) return;
    const message = list.querySelector<HTMLElement>(`[data-key="${CSS.escape(this.#revealing.key)}"]`);
    if (!message) return;
    this.#revealing = undefined;
    for (const previous of list.querySelectorAll('[data-found]')) previous.removeAttribute('data-found');
    message.setAttribute('data-found', '');
    message.tabIndex = -1;
    message.scrollIntoView({ block: 'center' });
    message.focus({ preventScroll: true });
  }
}
