/**
 * The message list as a Lit reactive controller: which slice of the conversation is drawn and
 * where the list is scrolled (windowing.ts), and the keyboard access of wide code blocks (a
 * search result's message is brought into view by found-message.ts, with the history pane's
 * code). Before each update it remembers what the visitor is reading; after it, it puts that
 * back in place and measures what the next first paint fills.
 */
import type { ReactiveController } from 'lit';
import type { ChatController } from '../conversation/chat-controller.js';
import { ScrollableCode } from './code-blocks.js';
import { partOf, type PanelHost } from './panel-host.js';
import { MessageWindow } from './windowing.js';

export class MessageList implements ReactiveController {
  /** The slice drawn and the scroll position kept. */
  readonly window: MessageWindow;
  readonly #codeBlocks: ScrollableCode;
  /** Whether the panel was open at the last update (closing it narrows the next paint). */
  #open = false;

  readonly #host: PanelHost;
  constructor(host: PanelHost, chat: ChatController) {
    this.#host = host;

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
  }

  hostUpdated() {
    // Hidden, nothing is measured: every measure would lay out the page for a panel not seen.
    if (!this.#host.isShown) return;
    const list = this.element;
    this.window.restoreScroll(list);
    // Laid out by now (restoring the scroll position measured it): what the next first paint fills.
    if (list) this.window.measured(list.clientHeight, list.clientWidth);
    this.#codeBlocks.update(
      list,
      this.window.rendered.map((m) => m.key),
    );
    this.window.widenAfterPaint();
  }

  hostDisconnected() {
    this.#codeBlocks.disconnect();
  }

  readonly onScroll = () => {
    const list = this.element;
    if (list) this.window.onScroll(list);
  };

  readonly loadOlder = () => void this.window.loadOlder();
}
