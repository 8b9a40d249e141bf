/**
 * Keeps two tabs of the same site in step: after one tab changes the cache or the outbox it
 * posts a note on a BroadcastChannel, and the others re-read IndexedDB. Notes carry no message
 * text, only what changed. Without BroadcastChannel tabs simply don't hear of each other.
 *
 * `left`: a tab stopped sending (its page closed, or the element was removed) while messages
 * were pending in the outbox: the other tabs send them, with their keys.
 */
export type TabNote = { type: 'changed' } | { type: 'reset' } | { type: 'identity' } | { type: 'unread' } | { type: 'left' };

export class TabSync {
  #channel: BroadcastChannel | undefined;

  readonly #onNote: (note: TabNote) => void;
  constructor(onNote: (note: TabNote) => void) {
    this.#onNote = onNote;
  }

  /** Listens on the channel of one endpoint (all visitors of a browser profile share it). */
  use(name: string) {
    this.close();
    if (typeof BroadcastChannel === 'undefined') return;
    this.#channel = new BroadcastChannel(`chatbot-widget|${name}`);
    this.#channel.onmessage = (event: MessageEvent<TabNote>) => {
      if (event.data && typeof event.data.type === 'string') this.#onNote(event.data);
    };
  }

  post(note: TabNote) {
    this.#channel?.postMessage(note);
  }

  close() {
    this.#channel?.close();
    this.#channel = undefined;
  }
}
