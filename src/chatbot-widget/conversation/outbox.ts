/**
 * The outbox: every message the visitor sent, from the moment Send is pressed until the server
 * has confirmed it. Each entry is its own IndexedDB key (no read-modify-write of a shared list,
 * so two tabs adding at once lose nothing), and survives reloads: pending entries are resumed,
 * failed ones wait for Retry.
 */
import type { ChatbotErrorKind } from '../../ui/events.js';
import type { KeyValueStorage } from '../io/storage.js';

export interface OutboxEntry {
  localId: string;
  /**
   * The idempotency key, made once when the visitor pressed Send and stored with the entry.
   * Every attempt carries it, from whichever tab and after any reload, so the handler stores the
   * message once however often it is sent (see {@link newIdempotencyKey}).
   */
  key: string;
  content: string;
  file?: string;
  name?: string;
  /**
   * The user id it was written as. With the site's login it goes out only while `/visitor` names
   * that same user (see OutboxSender); absent in an entry kept before writers were noted, or
   * written before a visitor token existed.
   */
  writer?: string;
  /** When the visitor pressed Send (browser clock, ISO 8601). */
  createdAt: string;
  state: 'pending' | 'failed';
  attempts: number;
  error?: { kind: ChatbotErrorKind; status: number; detail: string; retryAfter?: number };
  /** Not before this time (ms), after a 429. */
  retryAt?: number;
}

/** What the handler accepts as an `Idempotency-Key`. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * A fresh idempotency key: 128 random bits, base64url (22 characters). `crypto.getRandomValues`
 * works on plain-http pages too, where `crypto.randomUUID` does not exist.
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

const usable = (entry: OutboxEntry) =>
  !!entry && typeof entry.localId === 'string' && typeof entry.content === 'string' && typeof entry.createdAt === 'string';

/** Sending order: as written (local ids sort by creation time, see {@link newLocalId}). */
export const byCreation = (a: OutboxEntry, b: OutboxEntry) => (a.localId > b.localId ? 1 : a.localId < b.localId ? -1 : 0);

export class Outbox {
  #namespace = '';
  readonly #storage: KeyValueStorage;
  constructor(storage: KeyValueStorage) {
    this.#storage = storage;
  }

  use(namespace: string) {
    this.#namespace = namespace;
  }

  get #prefix() {
    return `outbox|${this.#namespace}|`;
  }

  /**
   * Entries in the order they were sent. Stored values are checked, as IndexedDB returns
   * whatever was put there: one without a string id and text is left out (it could be neither
   * shown nor sent). An entry without a valid key (written by a widget that had none) gets one
   * now and keeps it; such an entry, if it was already in flight, is the one case a key cannot
   * cover.
   */
  async list() {
    const entries = (await this.#storage.list<OutboxEntry>(this.#prefix)).filter(usable);
    return Promise.all(entries.map((entry) => this.#withKey(entry))).then((list) => list.sort(byCreation));
  }

  async get(localId: string) {
    const entry = await this.#storage.get<OutboxEntry>(this.#prefix + localId);
    return entry && usable(entry) ? this.#withKey(entry) : undefined;
  }

  async #withKey(entry: OutboxEntry) {
    if (typeof entry.key === 'string' && IDEMPOTENCY_KEY.test(entry.key)) return entry;
    const keyed = { ...entry, key: newIdempotencyKey() };
    await this.put(keyed);
    return keyed;
  }

  put(entry: OutboxEntry) {
    return this.#storage.set(this.#prefix + entry.localId, entry);
  }

  remove(localId: string) {
    return this.#storage.delete(this.#prefix + localId);
  }

  clear() {
    return this.#storage.deletePrefix(this.#prefix);
  }
}

let counter = 0;
/** A local id that sorts by creation time: `local-<ms base36, padded>-<counter>-<random>`. */
export function newLocalId(now = Date.now()) {
  counter = (counter + 1) % 1296;
  return `local-${now.toString(36).padStart(9, '0')}-${counter.toString(36).padStart(2, '0')}-${Math.random().toString(36).slice(2, 8)}`;
}
