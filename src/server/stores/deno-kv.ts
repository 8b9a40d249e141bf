/**
 * The handler's store on Deno KV (`Deno.openKv()`), shared by every isolate that opens the same
 * database: on Deno Deploy, all instances of the site.
 *
 * Every write is a check-and-set: read the entry, decide, then commit with
 * `kv.atomic().check({ key, versionstamp })`, which fails when anyone wrote the key in between;
 * then read again and decide again. So an increment never loses an update and of two concurrent
 * adds or swaps exactly one wins. KV's own expiry (`expireIn`) deletes a key some time after it is
 * due, not at once, so each value also carries its expiry and an entry past it counts as absent.
 */
import type { HandlerStore, RecordRange, SetRecord } from './store.js';
import { DenoKvRecordSets, type DenoKvAtomicLike, type DenoKvKey, type DenoKvLike } from './deno-kv-record-sets.js';

export type { DenoKvAtomicLike, DenoKvKey, DenoKvLike, DenoKvSelector } from './deno-kv-record-sets.js';

/** Options of {@link createDenoKvStore}. */
export interface DenoKvStoreOptions {
  /** Put before every key, so the handler's keys stay apart from the app's own. Default `['chatbot']`. */
  prefix?: DenoKvKey;
  /**
   * How many times one operation tries its check-and-set before it rejects (the handler then
   * answers 503). Each round that fails lost to a writer that succeeded, so this bounds waiting,
   * not correctness. Default 100.
   */
  maxAttempts?: number;
}

/** What the store keeps under each key. */
interface Entry {
  value: string;
  expiresAt: number;
}

/** What an operation decides from the live entry: what to write (null deletes) and what to answer. */
interface Decision<T> {
  write?: Entry | null;
  result: T;
}

function live(stored: unknown): Entry | undefined {
  const entry = stored as Partial<Entry> | null;
  if (!entry || typeof entry.value !== 'string' || typeof entry.expiresAt !== 'number') return undefined;
  return entry.expiresAt > Date.now() ? (entry as Entry) : undefined;
}

/**
 * Commits; false when it lost to a concurrent write. A local database file opened by several
 * processes (or handles) answers a commit that met another's lock with "database is locked":
 * that too is a lost round, not a failure.
 */
async function committed(atomic: DenoKvAtomicLike): Promise<boolean> {
  try {
    return (await atomic.commit()).ok;
  } catch (error) {
    if (/database is locked/i.test(String((error as Error | undefined)?.message))) return false;
    throw error;
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class DenoKvStore implements HandlerStore {
  readonly #records: DenoKvRecordSets;

  readonly #kv: DenoKvLike;
  readonly #prefix: DenoKvKey;
  readonly #maxAttempts: number;
  constructor(kv: DenoKvLike, prefix: DenoKvKey, maxAttempts: number) {
    this.#kv = kv;
    this.#prefix = prefix;
    this.#maxAttempts = maxAttempts;
    this.#records = new DenoKvRecordSets(kv, prefix, committed, (operation, attempt) => this.#retried(operation, attempt));
  }

  increment(key: string, expiresAt: number): Promise<number> {
    return this.#update('increment', key, (entry) => {
      // A live counter keeps the expiry it was created with, like every other store.
      const count = entry ? Number(entry.value) + 1 : 1;
      return { write: { value: String(count), expiresAt: entry?.expiresAt ?? expiresAt }, result: count };
    });
  }

  async get(key: string): Promise<string | undefined> {
    return live((await this.#kv.get([...this.#prefix, key])).value)?.value;
  }

  add(key: string, value: string, expiresAt: number): Promise<boolean> {
    return this.#update('add', key, (entry) => (entry ? { result: false } : { write: { value, expiresAt }, result: true }));
  }

  swap(key: string, expected: string, value: string | undefined, expiresAt: number): Promise<boolean> {
    return this.#update('swap', key, (entry) => {
      if (!entry || entry.value !== expected) return { result: false };
      return { write: value === undefined ? null : { value, expiresAt }, result: true };
    });
  }

  putRecord(set: string, record: SetRecord, expiresAt: number): Promise<SetRecord | undefined> {
    return this.#records.put(set, record, expiresAt);
  }

  deleteRecord(set: string, id: string): Promise<SetRecord | undefined> {
    return this.#records.delete(set, id);
  }

  listRecords(set: string, range: RecordRange & { offset: number; limit: number }): Promise<SetRecord[]> {
    return this.#records.list(set, range);
  }

  countRecords(set: string, range: RecordRange): Promise<number> {
    return this.#records.count(set, range);
  }

  /** Read, decide, commit only if the key is unchanged since the read; on a conflict, again. */
  #update<T>(operation: string, key: string, decide: (entry: Entry | undefined) => Decision<T>): Promise<T> {
    const kvKey = [...this.#prefix, key];
    return this.#retried(operation, async () => {
      const read = await this.#kv.get(kvKey);
      const decision = decide(live(read.value));
      if (decision.write === undefined) return { done: true, result: decision.result };
      const atomic = this.#kv.atomic().check({ key: kvKey, versionstamp: read.versionstamp });
      if (decision.write === null) atomic.delete(kvKey);
      // KV drops the key some time after expireIn; until then `live` treats it as absent.
      else atomic.set(kvKey, decision.write, { expireIn: Math.max(1, Math.ceil(decision.write.expiresAt - Date.now())) });
      return (await committed(atomic)) ? { done: true, result: decision.result } : undefined;
    });
  }

  /** Runs a check-and-set `attempt` until it commits (a lost one answers undefined), at most maxAttempts times. */
  async #retried<T>(operation: string, attempt: () => Promise<{ done: true; result: T } | undefined>): Promise<T> {
    for (let round = 1; round <= this.#maxAttempts; round++) {
      const outcome = await attempt();
      if (outcome) return outcome.result;
      // Lost to a concurrent writer: retry at once a few times, then spread the retries out.
      if (round > 3) await pause(Math.random() * Math.min(2 ** round, 50));
    }
    throw new Error(`the Deno KV store gave up on ${operation} after ${this.#maxAttempts} attempts that each lost to a concurrent write`);
  }
}

/**
 * The handler's store on Deno KV:
 *
 * ```ts
 * const kv = await Deno.openKv(); // deno run --unstable-kv …
 * const handler = createSigningHandler({ ...options, store: createDenoKvStore(kv) });
 * ```
 */
export function createDenoKvStore(kv: DenoKvLike, options: DenoKvStoreOptions = {}): HandlerStore {
  if (!kv || typeof kv.get !== 'function' || typeof kv.list !== 'function' || typeof kv.atomic !== 'function') {
    throw new TypeError('createDenoKvStore(kv) needs an open Deno KV database: `await Deno.openKv()` (run Deno with --unstable-kv).');
  }
  const maxAttempts = options.maxAttempts ?? 100;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1)
    throw new TypeError('createDenoKvStore: maxAttempts must be a whole number of at least 1.');
  return new DenoKvStore(kv, options.prefix ?? ['chatbot'], maxAttempts);
}
