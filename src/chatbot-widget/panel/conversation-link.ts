/**
 * Keeps the conversation connected to the element's endpoint and fresh while seen, as a Lit
 * reactive controller: it connects on the first update after the element is attached and again
 * for a new `endpoint`, and asks the handler for new messages when the panel is opened or the
 * widget turns inline.
 */
import type { ReactiveController } from 'lit';
import type { ChatController } from '../conversation/chat-controller.js';
import { afterNextPaint } from '../../ui/after-paint.js';
import type { PanelHost } from './panel-host.js';
import type { TimeFormat } from './time-format.js';

export class ConversationLink implements ReactiveController {
  /** The endpoint the conversation is connected to; undefined until it connects (again). */
  #endpoint: string | undefined;
  /** Whether the panel was open at the last update. */
  #open = false;
  /** The mode at the last update. */
  #mode: PanelHost['mode'];

  readonly #host: PanelHost;
  readonly #chat: ChatController;
  readonly #time: TimeFormat;
  /** A new connection begins: the message list goes back to the newest messages, its next paint a first one. */
  readonly #onConnect: () => void;
  constructor(host: PanelHost, chat: ChatController, time: TimeFormat, onConnect: () => void) {
    this.#host = host;
    this.#chat = chat;
    this.#time = time;
    this.#onConnect = onConnect;

    this.#mode = host.mode;
    host.addController(this);
  }

  /** Attached again: the conversation reconnects on the next update, asked for now. */
  hostConnected() {
    this.#endpoint = undefined;
    this.#host.requestUpdate();
  }

  hostDisconnected() {
    this.#endpoint = undefined;
  }

  hostUpdate() {
    const host = this.#host;
    const opened = host.open && !this.#open;
    this.#open = host.open;
    // Not connected yet, it refreshes as it connects (shown). Otherwise the refresh is asked once
    // the opened panel is on screen: building the request would delay that frame.
    if (opened && this.#endpoint !== undefined) void afterNextPaint().then(() => this.#chat.conversation.revalidate());
    // Lit keeps updating a detached element when asked (a late async continuation, a property
    // set by the page): only an attached one may connect, or a removed widget would come back to
    // life and write its stale view over what other tabs and elements stored since.
    if (host.isConnected) void this.connect();
  }

  hostUpdated() {
    const { mode } = this.#host;
    if (mode === this.#mode) return;
    this.#mode = mode;
    if (mode === 'inline') void this.#chat.conversation.revalidate();
  }

  /** Connects to the element's endpoint unless connected to it already; resolves once its storage is read. */
  connect(): Promise<void> {
    const host = this.#host;
    if (this.#endpoint === host.endpoint) return Promise.resolve();
    this.#endpoint = host.endpoint;
    this.#onConnect();
    const connecting = this.#chat.connect(host.endpoint, host.isShown);
    // Shown with nothing to draw yet, the formatters are built while IndexedDB reads the cache.
    // Bubbles from the first-paint record are drawn in this very task: its render builds the one
    // shape they need, the other waits for an idle moment.
    this.#time.prepare(host.isShown && this.#chat.conversation.messages.length === 0);
    return connecting;
  }
}
