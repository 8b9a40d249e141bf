/**
 * The store as routes use it: every failure becomes an answer the visitor can act on (503) and,
 * for the site owner, one clear log line, never a 500 and never a request let through unchecked.
 * A full store refuses new keys ({@link StoreFullError}): the visitor is asked to try again, and
 * nothing already recorded is lost.
 */
import type { Logger } from './logger.js';
import { refuse, TEXT } from './responses.js';
import { StoreFullError, type HandlerStore, type RecordRange, type SetRecord } from '../stores/store.js';

/** While the store keeps failing, the owner is told again at most this often. */
const REPEAT_LOG_MS = 60_000;

export class GuardedStore implements HandlerStore {
  #failingSince: number | undefined;
  #lastLog = 0;

  readonly #store: HandlerStore;
  readonly #logger: Logger;
  readonly #now: () => number;
  constructor(store: HandlerStore, logger: Logger, now: () => number) {
    this.#store = store;
    this.#logger = logger;
    this.#now = now;
  }

  increment(key: string, expiresAt: number): Promise<number> {
    return this.#guard(() => this.#store.increment(key, expiresAt));
  }

  get(key: string): Promise<string | undefined> {
    return this.#guard(() => this.#store.get(key));
  }

  add(key: string, value: string, expiresAt: number): Promise<boolean> {
    return this.#guard(() => this.#store.add(key, value, expiresAt));
  }

  swap(key: string, expected: string, value: string | undefined, expiresAt: number): Promise<boolean> {
    return this.#guard(() => this.#store.swap(key, expected, value, expiresAt));
  }

  putRecord(set: string, record: SetRecord, expiresAt: number): Promise<SetRecord | undefined> {
    return this.#guard(() => this.#store.putRecord(set, record, expiresAt));
  }

  deleteRecord(set: string, id: string): Promise<SetRecord | undefined> {
    return this.#guard(() => this.#store.deleteRecord(set, id));
  }

  listRecords(set: string, range: RecordRange & { offset: number; limit: number }): Promise<SetRecord[]> {
    return this.#guard(() => this.#store.listRecords(set, range));
  }

  countRecords(set: string, range: RecordRange): Promise<number> {
    return this.#guard(() => this.#store.countRecords(set, range));
  }

  /** Sets `key` to `value` whatever it held (get, then add or swap; a lost race is retried once). */
  async put(key: string, value: string, expiresAt: number): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt++) {
      const current = await this.get(key);
      if (current === value) return;
      if (current === undefined ? await this.add(key, value, expiresAt) : await this.swap(key, current, value, expiresAt)) return;
    }
  }

  /** The operation's result, or the 503 its failure becomes (a failure thrown at once included). */
  #guard<T>(operation: () => Promise<T>): Promise<T> {
    let pending: Promise<T>;
    try {
      pending = operation();
    } catch (error) {
      return Promise.reject(error).catch(this.#failed);
    }
    return pending.then(this.#answered, this.#failed);
  }

  /** The store answered: it is not failing (any more). */
  readonly #answered = <T>(result: T): T => {
    this.#failingSince = undefined;
    return result;
  };

  readonly #failed = (error: unknown): never => {
    if (error instanceof StoreFullError) {
      this.#tell(
        `the handler's store is full (${error.message}): new sends are refused with 503 until keys expire. Give it more room (MemoryStore maxKeys, or a shared store).`,
      );
      refuse(503, TEXT.storeFull, { 'Retry-After': '60' });
    }
    // The error's name and code only: a store's message may quote a connection URL with a password.
    const code = (error as { code?: unknown })?.code;
    this.#tell(
      `the handler's store failed (${(error as Error)?.name ?? 'error'}${typeof code === 'string' ? ` ${code}` : ''}): ` +
        'visitor requests are refused with 503 until it answers again. Check the store passed as the store option.',
    );
    refuse(503, TEXT.storeDown, { 'Retry-After': '30' });
  };

  /** Logs when the store starts failing, then at most once a minute while it keeps failing. */
  #tell(message: string): void {
    const now = this.#now();
    if (this.#failingSince !== undefined && now - this.#lastLog < REPEAT_LOG_MS) return;
    this.#failingSince ??= now;
    this.#lastLog = now;
    this.#logger.error(message);
  }
}
