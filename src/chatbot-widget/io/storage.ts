/**
 * The widget's key-value storage: IndexedDB through idb-keyval, or, where IndexedDB is missing
 * or refuses to open (private modes, disabled storage), a Map that lives as long as the page.
 * The widget then works the same, only without a cache across reloads.
 */
import { createStore, get, set, del, update, promisifyRequest, type UseStore } from 'idb-keyval';

/**
 * One part of a storage key. Keys are parts joined with `|`, and a visitor's records are listed by
 * key prefix: a user id holding `|` (the site's login names users as its `identify` likes) would
 * make one user's prefix list another's records (`ann` would read `ann|x`'s). `%` and `|` are
 * escaped as in a URL, so a part without them, as every key already written, stays as it was.
 * The endpoint's base URL is the site's own setting and is kept as written.
 */
export const keyPart = (part: string) => part.replace(/%/g, '%25').replace(/\|/g, '%7C');

export interface KeyValueStorage {
  /** Whether what is stored outlives the page (false once it fell back to memory). */
  readonly persistent: boolean;
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown): Promise<void>;
  /** Sets a key from its current value in one transaction (no other tab writes in between). */
  update<T>(key: string, change: (current: T | undefined) => T): Promise<T>;
  delete(key: string): Promise<void>;
  /** Deletes a key if its current value passes `when`, in one transaction (no other tab writes in between). */
  deleteIf<T>(key: string, when: (current: T | undefined) => boolean): Promise<void>;
  /** Removes every key that starts with `prefix`. */
  deletePrefix(prefix: string): Promise<void>;
  /** Every value whose key starts with `prefix`, in key order. */
  list<T>(prefix: string): Promise<T[]>;
}

class MemoryStorage implements KeyValueStorage {
  readonly persistent = false;
  readonly #map = new Map<string, unknown>();
  async get<T>(key: string) {
    return structuredClone(this.#map.get(key)) as T | undefined;
  }
  async set(key: string, value: unknown) {
    this.#map.set(key, structuredClone(value));
  }
  async update<T>(key: string, change: (current: T | undefined) => T) {
    const next = change(structuredClone(this.#map.get(key)) as T | undefined);
    this.#map.set(key, structuredClone(next));
    return next;
  }
  async delete(key: string) {
    this.#map.delete(key);
  }
  async deleteIf<T>(key: string, when: (current: T | undefined) => boolean) {
    if (when(structuredClone(this.#map.get(key)) as T | undefined)) this.#map.delete(key);
  }
  async deletePrefix(prefix: string) {
    for (const key of [...this.#map.keys()]) if (key.startsWith(prefix)) this.#map.delete(key);
  }
  async list<T>(prefix: string) {
    return [...this.#map.keys()]
      .filter((key) => key.startsWith(prefix))
      .sort()
      .map((key) => structuredClone(this.#map.get(key)) as T);
  }
}

/** Keys starting with `prefix`: strings sort between the prefix and the prefix plus the highest code unit. */
const range = (prefix: string) => IDBKeyRange.bound(prefix, prefix + '\uffff');

/** IndexedDB with a silent switch to memory on the first failure, so a broken store never breaks the chat. */
class FallbackStorage implements KeyValueStorage {
  #memory: MemoryStorage | undefined;
  readonly #store: UseStore;
  constructor(store: UseStore) {
    this.#store = store;
  }

  get persistent() {
    return !this.#memory;
  }

  async #run<T>(action: (store: UseStore) => Promise<T>, fallback: (memory: MemoryStorage) => Promise<T>) {
    if (!this.#memory) {
      try {
        return await action(this.#store);
      } catch {
        this.#memory = new MemoryStorage();
      }
    }
    return fallback(this.#memory);
  }

  get<T>(key: string) {
    return this.#run(
      (s) => get<T>(key, s),
      (m) => m.get<T>(key),
    );
  }
  set(key: string, value: unknown) {
    return this.#run(
      (s) => set(key, value, s),
      (m) => m.set(key, value),
    );
  }
  update<T>(key: string, change: (current: T | undefined) => T) {
    let next: T;
    return this.#run(
      async (s) => {
        await update<T>(key, (current) => (next = change(current)), s);
        return next;
      },
      (m) => m.update(key, change),
    );
  }
  delete(key: string) {
    return this.#run(
      (s) => del(key, s),
      (m) => m.delete(key),
    );
  }
  deleteIf<T>(key: string, when: (current: T | undefined) => boolean) {
    return this.#run(
      (s) =>
        s(
          'readwrite',
          (store) =>
            new Promise<void>((resolve, reject) => {
              const request = store.get(key);
              request.onerror = () => reject(request.error ?? new Error(`IndexedDB could not read ${key}`));
              request.onsuccess = () => {
                try {
                  if (when(request.result as T | undefined)) store.delete(key);
                  resolve(promisifyRequest(store.transaction) as Promise<void>);
                } catch (error) {
                  reject(error);
                }
              };
            }),
        ),
      (m) => m.deleteIf(key, when),
    );
  }
  deletePrefix(prefix: string) {
    return this.#run(
      (s) => s('readwrite', (store) => promisifyRequest(store.delete(range(prefix)))),
      (m) => m.deletePrefix(prefix),
    );
  }
  list<T>(prefix: string) {
    return this.#run(
      (s) => s('readonly', (store) => promisifyRequest(store.getAll(range(prefix)) as IDBRequest<T[]>)),
      (m) => m.list<T>(prefix),
    );
  }
}

let shared: KeyValueStorage | undefined;

/** The page's storage: one IndexedDB database, `chatbot-widget`, shared by every widget on the page. */
export function openStorage(): KeyValueStorage {
  if (!shared) {
    let idb: IDBFactory | undefined;
    try {
      idb = globalThis.indexedDB;
    } catch {
      idb = undefined; // some private modes throw on access
    }
    shared = idb ? new FallbackStorage(createStore('chatbot-widget', 'kv')) : new MemoryStorage();
  }
  return shared;
}
