/**
 * The default store: this process's memory. Right for one process; several instances behind a
 * balancer each count on their own, so they need a shared store (Redis, a Durable Object, Deno KV).
 */
import { MemoryRecordSets } from './memory-record-sets.js';
import { StoreFullError, type HandlerStore, type RecordRange, type SetRecord } from './store.js';

interface Entry {
  value: string;
  expiresAt: number;
}

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /**
   * The most live keys it holds (each record of a record set, such as a rating, counts as one), so a flood of distinct keys cannot exhaust memory. Past it,
   * writes of new keys reject with {@link StoreFullError} (the handler answers 503) until keys
   * expire: refusing is safe, silently forgetting an idempotency record or a revocation is not.
   * Default 200,000: about 115 MB at the handler's sizes, where a remembered send takes two keys
   * (its outcome record and its message claim), about 1.2 KB together (`npm run bench -- handler`).
   */
  maxKeys?: number;
  /** Clock in milliseconds (for tests). Default `Date.now`. */
  now?: () => number;
}

/** {@link HandlerStore} in memory, with expiry and a bound on the number of keys. */
export class MemoryStore implements HandlerStore {
  readonly #entries = new Map<string, Entry>();
  readonly #records = new MemoryRecordSets();
  readonly #maxKeys: number;
  readonly #now: () => number;
  #nextSweep = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.#maxKeys = options.maxKeys ?? 200_000;
    this.#now = options.now ?? Date.now;
    if (!Number.isInteger(this.#maxKeys) || this.#maxKeys < 1)
      throw new TypeError('MemoryStore: maxKeys must be a whole number of at least 1.');
  }

  async increment(key: string, expiresAt: number): Promise<number> {
    const entry = this.#live(key);
    if (entry) {
      const count = Number(entry.value) + 1;
      entry.value = String(count);
      return count;
    }
    this.#insert(key, '1', expiresAt);
    return 1;
  }

  async get(key: string): Promise<string | undefined> {
    return this.#live(key)?.value;
  }

  async add(key: string, value: string, expiresAt: number): Promise<boolean> {
    if (this.#live(key)) return false;
    this.#insert(key, value, expiresAt);
    return true;
  }

  async swap(key: string, expected: string, value: string | undefined, expiresAt: number): Promise<boolean> {
    const entry = this.#live(key);
    if (!entry || entry.value !== expected) return false;
    if (value === undefined) this.#entries.delete(key);
    else this.#entries.set(key, { value, expiresAt });
    return true;
  }

  async putRecord(set: string, record: SetRecord, expiresAt: number): Promise<SetRecord | undefined> {
    if (this.#records.isNew(set, record.id)) this.#makeRoom();
    return this.#records.put(set, record, expiresAt);
  }

  async deleteRecord(set: string, id: string): Promise<SetRecord | undefined> {
    return this.#records.delete(set, id);
  }

  async listRecords(set: string, range: RecordRange & { offset: number; limit: number }): Promise<SetRecord[]> {
    return this.#records.list(set, range);
  }

  async countRecords(set: string, range: RecordRange): Promise<number> {
    return this.#records.count(set, range);
  }

  /** Number of keys and records held, expired ones not yet swept included (for tests and diagnostics). */
  get size(): number {
    return this.#entries.size + this.#records.size;
  }

  #live(key: string): Entry | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > this.#now()) return entry;
    this.#entries.delete(key);
    return undefined;
  }

  #insert(key: string, value: string, expiresAt: number): void {
    this.#makeRoom();
    this.#entries.set(key, { value, expiresAt });
  }

  /** Before a new key or record: refuses when the store is full even after dropping what expired. */
  #makeRoom(): void {
    if (this.size >= this.#maxKeys) this.#sweep(true);
    if (this.size >= this.#maxKeys) throw new StoreFullError(`the handler's memory store holds ${this.#maxKeys} live keys, its maxKeys`);
    this.#sweep(false);
  }

  /** Drops expired keys: at most once a minute, or at once when the store is full. */
  #sweep(force: boolean): void {
    const now = this.#now();
    if (!force && now < this.#nextSweep) return;
    this.#nextSweep = now + 60_000;
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key);
    this.#records.sweep(now);
  }
}
