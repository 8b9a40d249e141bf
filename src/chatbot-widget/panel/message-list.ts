/**
 * The message list as a Lit reactive controller: which slice of the conversation is drawn and
 * where the list is scrolled (windowing.ts), a search result being revealed, and the keyboard
 * access of wide code blocks. Before each update it remembers what the visitor is reading;
 * after it, it puts that back in place and measures what the next first paint fills.
 */
import type { ReactiveController } from 'lit';
import type { ChatController } from '../controllers/chat-controller.js';
import { ScrollableCode } from './code-blocks.js';
import { partOf, type PanelHost } from './panel-host.js';
import { MessageWindow } from './windowing.js';

export class MessageList implements ReactiveController {
  /** The slice drawn and the scroll position kept. */
  readonly window: MessageWindow;
  readonly #codeBlocks: ScrollableCode;
  /** A search result being opened: its message is shown, scrolled to and focused once rendered. */
  #revealing: { key: string; shown: boolean } | undefined;
  /** Whether the panel was open at the last update (closing it narrows the next paint). */
  #open = false;

  readonly #host: PanelHost;
  readonly #chat: ChatController;
  constructor(host: PanelHost, chat: ChatController) {
    this.#host = host;
    this.#chat = chat;

    this.window = new MessageWindow(
      host,
      () => chat.conversation,
      () => host.pageSize,
    );
    this.#codeBlocks = new ScrollableCode(() => host.text.codeBlock);
    // The first paint fills the panel the element has drawn, measured while its layout is still
    // the last frame's (before the panel's styles join), so measuring costs nothing.
    const panel = partOf(host, 'panel');
    if (panel) this.window.measured(panel.clientHeight, panel.clientWidth);
    host.addController(this);
  }

  /** The list element, once drawn. */
  get element() {
    return partOf(this.#host, 'messages');
  }

  /** Opens the conversation at `key` once its message is here (a search result). */
  reveal(key: string) {
    this.#revealing = { key, shown: false };
  }

  /** No message is to be revealed any more (another conversation was asked for). */
  stopRevealing() {
    this.#revealing = undefined;
  }

  hostUpdate() {
    const host = this.#host;
    // Opened, the newest messages are in view. Closed, the panel stays drawn (hidden) so that
    // opening only lays it out and paints it: it waits with the newest bubbles, as few as fill it.
    if (host.open !== this.#open) {
      this.#open = host.open;
      this.window.follow();
      if (!host.open) this.window.narrowNextPaint();
    }
    if (host.isShown) this.window.rememberAnchor(this.element);
    const revealing = this.#revealing;
    if (revealing && !revealing.shown && this.#chat.conversation.messages.some((m) => m.key === revealing.key)) {
      this.window.reveal(revealing.key);
      revealing.shown = true;
    }
  }

  hostUpdated() {
    // Hidden, nothing is measured: every measure would lay out the page for a panel not seen.
    if (!this.#host.isShown) return;
    const list = this.element;
    this.window.restoreScroll(list);
    // Laid out by now (restoring the scroll position measured it): what the next first paint fills.
    if (list) this.window.measured(list.clientHeight, list.clientWidth);
    this.#focusRevealed(list);
    this.#codeBlocks.update(
      list,
      this.window.rendered.map((m) => m.key),
    );
    this.window.widenAfterPaint();
  }

  hostDisconnected() {
    this.#codeBlocks.disconnect();
  }

  /** The result's message is rendered: scrolled into view, marked `data-found` and focused. */
  #focusRevealed(list: HTMLElement | undefined) {
    if (!list || !this.#revealing?.shown) return;
    const message = list.querySelector<HTMLElement>(`[data-key="${CSS.escape(this.#revealing.key)}"]`);
    if (!message) return;
    this.#revealing = undefined;
    for (const previous of list.querySelectorAll('[data-found]')) previous.removeAttribute('data-found');
    message.setAttribute('data-found', '');
    message.tabIndex = -1;
    message.scrollIntoView({ block: 'center' });
    message.focus({ preventScroll: true });
  }

  readonly onScroll = () => {
    const list = this.element;
    if (list) this.window.onScroll(list);
  };

  readonly loadOlder = () => void this.window.loadOlder();
}
