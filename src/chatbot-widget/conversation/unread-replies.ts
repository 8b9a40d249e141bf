/**
 * The launcher's unread badge: how many replies arrived while no tab showed the panel: the
 * assistant's and a person's (an agent's), not notices (sender-kind.ts). The count lives in
 * IndexedDB, one per endpoint and identity, so every tab of the site shows the same number;
 * a tab that changes it posts an `unread` note and the others read it again. Opening the panel
 * in any tab clears it everywhere.
 */
import type { KeyValueStorage } from '../io/storage.js';

export class UnreadReplies {
  /** The number the badge shows. */
  count = 0;
  #key: string | undefined;

  readonly #storage: KeyValueStorage;
  readonly #changed: (shared: boolean) => void;
  constructor(
    storage: KeyValueStorage,
    /** The count changed here (redraw) — `shared` when this tab wrote it (tell the others). */
    changed: (shared: boolean) => void,
  ) {
    this.#storage = storage;
    this.#changed = changed;
  }

  /** Counts for one identity at one endpoint (its namespace, identity/visitor.ts; undefined: none). */
  use(namespace: string | undefined) {
    this.#key = namespace ? `unread|${namespace}` : undefined;
    this.count = 0;
  }

  /** Reads the stored count (on connecting, and when another tab changed it). */
  async load() {
    const key = this.#key;
    if (!key) return;
    const stored = await this.#storage.get<number>(key).catch(() => undefined);
    const count = typeof stored === 'number' && stored > 0 ? Math.floor(stored) : 0;
    if (key === this.#key && count !== this.count) {
      this.count = count;
      this.#changed(false);
    }
  }

  /** Replies arrived that nobody saw (one, unless told). */
  async add(replies = 1) {
    const key = this.#key;
    if (!key) return;
    const count = await this.#storage.update<number>(
      key,
      (current) => (typeof current === 'number' && current > 0 ? current : 0) + replies,
    );
    if (key !== this.#key) return;
    this.count = count;
    this.#changed(true);
  }

  /** The visitor sees the conversation: nothing is unread, in any tab. */
  async clear() {
    const key = this.#key;
    if (!key) return;
    // This tab's count may be behind the stored one: clear what is stored, tell the others if it was set.
    let previous: number | undefined;
    this.count = 0;
    await this.#storage.update<number>(key, (current) => {
      previous = current;
      return 0;
    });
    if (previous) this.#changed(true);
  }

  /** Forgets the count of a namespace and of those under it (the visitor was reset). */
  async forget(namespace: string) {
    this.count = 0;
    await this.#storage.delete(`unread|${namespace}`);
    await this.#storage.deletePrefix(`unread|${namespace}|`);
  }
}
