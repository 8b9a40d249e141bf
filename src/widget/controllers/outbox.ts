/**
 * The outbox: every message the visitor sent, from the moment Send is pressed until the server
 * has confirmed it. Each entry is its own IndexedDB key (no read-modify-write of a shared list,
 * so two tabs adding at once lose nothing), and survives reloads: pending entries are resumed,
 * failed ones wait for Retry.
 */
import type { ChatbotErrorKind } from '../events.js';
import type { KeyValueStorage } from './storage.js';

export interface OutboxEntry {
  localId: string;
  content: string;
  file?: string;
  name?: string;
  /** When the visitor pressed Send (browser clock, ISO 8601). */
  createdAt: string;
  /**
   * `createdAt` of the newest server message of the conversation when the entry was queued
   * (server clock). A server copy of this message must be newer than that, which tells it apart
   * from an identical earlier message.
   */
  after?: string;
  state: 'pending' | 'failed';
  /** An earlier attempt may have reached the server: look for the message before sending again. */
  mayHaveArrived: boolean;
  attempts: number;
  error?: { kind: ChatbotErrorKind; status: number; detail: string; retryAfter?: number };
  /** Not before this time (ms), after a 429. */
  retryAt?: number;
}

const usable = (entry: OutboxEntry) => !!entry && typeof entry.localId === 'string' && typeof entry.content === 'string' && typeof entry.createdAt === 'string';

export class Outbox {
  private namespace = '';
  constructor(private readonly storage: KeyValueStorage) {}

  use(namespace: string) {
    this.namespace = namespace;
  }

  private get prefix() {
    return `outbox|${this.namespace}|`;
  }

  /**
   * Entries in the order they were sent (local ids sort by creation time). Stored values are
   * checked, as IndexedDB returns whatever was put there: one without a string id and text is
   * left out (it could be neither shown nor sent).
   */
  async list() {
    return (await this.storage.list<OutboxEntry>(this.prefix)).filter(usable);
  }

  async get(localId: string) {
    const entry = await this.storage.get<OutboxEntry>(this.prefix + localId);
    return entry && usable(entry) ? entry : undefined;
  }

  put(entry: OutboxEntry) {
    return this.storage.set(this.prefix + entry.localId, entry);
  }

  remove(localId: string) {
    return this.storage.delete(this.prefix + localId);
  }

  clear() {
    return this.storage.deletePrefix(this.prefix);
  }
}

let counter = 0;
/** A local id that sorts by creation time: `local-<ms base36, padded>-<counter>-<random>`. */
export function newLocalId(now = Date.now()) {
  counter = (counter + 1) % 1296;
  return `local-${now.toString(36).padStart(9, '0')}-${counter.toString(36).padStart(2, '0')}-${Math.random().toString(36).slice(2, 8)}`;
}
