/**
 * The handler's store on Cloudflare Workers: a Durable Object class, `ChatbotStore`, that holds
 * the keys in its SQLite storage, and `createDurableObjectStore(namespace)`, the store the
 * handler is given, which calls the object over RPC.
 *
 * Atomic because a Durable Object runs one call at a time: each method reads and writes with the
 * synchronous SQL API and no `await` in between, so no other call can interleave. Every Worker
 * instance worldwide that reaches the object by the same name shares its keys. Expired rows are
 * treated as absent at once, and deleted by an alarm some time later.
 */
import { DurableObject } from 'cloudflare:workers';
import type { HandlerStore, RecordRange, SetRecord } from './store.js';
import { SqlRecordSets, type SqlStorageLike } from './cloudflare-record-sets.js';

interface StorageLike {
  sql?: SqlStorageLike;
  getAlarm(): Promise<number | null>;
  setAlarm(scheduledTime: number): Promise<void>;
}

interface StateLike {
  storage: StorageLike;
  blockConcurrencyWhile<T>(callback: () => Promise<T>): Promise<T>;
}

interface Row {
  value: string;
  expires_at: number;
}

/** Expired rows wait at least this long for the alarm that deletes them, so alarms come in batches. */
const SWEEP_DELAY_MS = 1_000;

/**
 * The Durable Object that holds the handler's store. Export it from the Worker's main module and
 * bind it as a SQLite-backed class (`new_sqlite_classes` in the migration of `wrangler.toml`).
 * Its methods are the store's operations (and `keyCount`, for diagnostics), called over RPC
 * by {@link createDurableObjectStore}.
 */
export class ChatbotStore extends DurableObject {
  readonly #sql: SqlStorageLike;
  readonly #storage: StorageLike;
  readonly #records: SqlRecordSets;
  /** When the sweeping alarm is due (null: none set), kept to avoid a storage read per write. */
  #alarmAt: number | null = null;

  constructor(ctx: unknown, env: unknown) {
    super(ctx, env);
    const state = ctx as StateLike;
    this.#storage = state.storage;
    if (!state.storage.sql) {
      throw new Error(
        'ChatbotStore needs a SQLite-backed Durable Object: list it under `new_sqlite_classes` (not `new_classes`) in a migration of wrangler.toml.',
      );
    }
    this.#sql = state.storage.sql;
    this.#sql.exec('CREATE TABLE IF NOT EXISTS chatbot_store (key TEXT PRIMARY KEY, value TEXT NOT NULL, expires_at INTEGER NOT NULL)');
    this.#sql.exec('CREATE INDEX IF NOT EXISTS chatbot_store_expiry ON chatbot_store (expires_at)');
    this.#records = new SqlRecordSets(this.#sql);
    void state.blockConcurrencyWhile(async () => {
      this.#alarmAt = await this.#storage.getAlarm();
    });
  }

  async increment(key: string, expiresAt: number): Promise<number> {
    const row = this.#live(key);
    const count = row ? Number(row.value) + 1 : 1;
    // A live counter keeps the expiry it was created with, like every other store.
    await this.#write(key, String(count), row ? row.expires_at : expiresAt);
    return count;
  }

  async get(key: string): Promise<string | undefined> {
    return this.#live(key)?.value;
  }

  async add(key: string, value: string, expiresAt: number): Promise<boolean> {
    if (this.#live(key)) return false;
    await this.#write(key, value, expiresAt);
    return true;
  }

  async swap(key: string, expected: string, value: string | undefined, expiresAt: number): Promise<boolean> {
    const row = this.#live(key);
    if (!row || row.value !== expected) return false;
    if (value === undefined) this.#sql.exec('DELETE FROM chatbot_store WHERE key = ?', key);
    else await this.#write(key, value, expiresAt);
    return true;
  }

  async putRecord(set: string, record: SetRecord, expiresAt: number): Promise<SetRecord | undefined> {
    const replaced = this.#records.put(set, record, expiresAt);
    await this.#scheduleSweep(expiresAt);
    return replaced;
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

  /** Rows held, expired ones the alarm has not deleted yet included. */
  async keyCount(): Promise<number> {
    return Number(this.#sql.exec('SELECT COUNT(*) AS n FROM chatbot_store').toArray()[0]!.n);
  }

  /** Deletes expired rows and records, then sets the next alarm for the earliest expiry left. */
  async alarm(): Promise<void> {
    const now = Date.now();
    this.#sql.exec('DELETE FROM chatbot_store WHERE expires_at <= ?', now);
    const nextKey = this.#sql.exec('SELECT MIN(expires_at) AS next FROM chatbot_store').toArray()[0]!.next as number | null;
    const nextRecord = this.#records.sweep(now);
    const next = nextKey === null ? nextRecord : nextRecord === null ? nextKey : Math.min(nextKey, nextRecord);
    this.#alarmAt = null;
    if (next !== null) await this.#scheduleSweep(next);
  }

  #live(key: string): Row | undefined {
    const row = this.#sql.exec('SELECT value, expires_at FROM chatbot_store WHERE key = ?', key).toArray()[0] as Row | undefined;
    return row && row.expires_at > Date.now() ? row : undefined;
  }

  /** Writes synchronously (so atomically with the read before it); the alarm follows. */
  async #write(key: string, value: string, expiresAt: number): Promise<void> {
    this.#sql.exec('INSERT OR REPLACE INTO chatbot_store (key, value, expires_at) VALUES (?, ?, ?)', key, value, expiresAt);
    await this.#scheduleSweep(expiresAt);
  }

  async #scheduleSweep(expiresAt: number): Promise<void> {
    const due = Math.max(expiresAt, Date.now() + SWEEP_DELAY_MS);
    if (this.#alarmAt !== null && this.#alarmAt <= due) return;
    this.#alarmAt = due;
    await this.#storage.setAlarm(due);
  }
}

/** The RPC stub of a {@link ChatbotStore}, as `namespace.get(id)` returns it. */
export interface ChatbotStoreStub {
  increment(key: string, expiresAt: number): Promise<number>;
  get(key: string): Promise<string | undefined>;
  add(key: string, value: string, expiresAt: number): Promise<boolean>;
  swap(key: string, expected: string, value: string | undefined, expiresAt: number): Promise<boolean>;
  putRecord(set: string, record: SetRecord, expiresAt: number): Promise<SetRecord | undefined>;
  deleteRecord(set: string, id: string): Promise<SetRecord | undefined>;
  listRecords(set: string, range: RecordRange & { offset: number; limit: number }): Promise<SetRecord[]>;
  countRecords(set: string, range: RecordRange): Promise<number>;
  keyCount(): Promise<number>;
}

/** The part of the Durable Object namespace binding (`env.CHATBOT_STORE`) the store uses. */
export interface ChatbotStoreNamespace {
  idFromName(name: string): unknown;
  get(id: never): unknown;
}

/** Options of {@link createDurableObjectStore}. */
export interface DurableObjectStoreOptions {
  /**
   * The object's name: one name, one set of keys. Two sites in one Worker account that must not
   * share limits use two names. Default `chatbot-store`.
   */
  name?: string;
  /**
   * How many objects the keys are spread over, by a hash of the key. One object serves every
   * call in turn (a few hundred to a thousand small calls a second); more shards share that load.
   * Each key, and each record set, lives in exactly one shard, so every operation stays atomic. Choose it before going
   * live: a new count moves keys to other objects, which forgets counters, idempotency records and
   * revocations. Default 1.
   */
  shards?: number;
}

/** FNV-1a, 32 bits: a fast, stable spread of keys over shards (not for security). */
function shardOf(key: string, shards: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    hash ^= key.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % shards;
}

/** The name of the object that holds `key` (exported for tests and diagnostics). */
export function durableObjectNameFor(key: string, options: DurableObjectStoreOptions = {}): string {
  const name = options.name ?? 'chatbot-store';
  const shards = options.shards ?? 1;
  return shards === 1 ? name : `${name}:${shardOf(key, shards)}`;
}

/**
 * The handler's store on the {@link ChatbotStore} Durable Object bound as `namespace`:
 *
 * ```js
 * export { ChatbotStore } from 'chatbot-widget/server/cloudflare';
 * // in fetch(request, env):
 * createSigningHandler({ ...options, store: createDurableObjectStore(env.CHATBOT_STORE) });
 * ```
 */
export function createDurableObjectStore(namespace: ChatbotStoreNamespace, options: DurableObjectStoreOptions = {}): HandlerStore {
  if (!namespace || typeof namespace.idFromName !== 'function' || typeof namespace.get !== 'function') {
    throw new TypeError(
      'createDurableObjectStore(namespace) needs the Durable Object binding of ChatbotStore, such as env.CHATBOT_STORE (see durable_objects.bindings in wrangler.toml).',
    );
  }
  const shards = options.shards ?? 1;
  if (!Number.isInteger(shards) || shards < 1)
    throw new TypeError('createDurableObjectStore: shards must be a whole number of at least 1.');
  // A stub per call: stubs are cheap, and one kept across requests is not allowed on Workers.
  const stub = (key: string) => namespace.get(namespace.idFromName(durableObjectNameFor(key, options)) as never) as ChatbotStoreStub;
  const call = async <T>(operation: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw new Error(`the Durable Object store could not ${operation}: ${(error as Error | undefined)?.message ?? String(error)}`, {
        cause: error,
      });
    }
  };
  return {
    increment: (key, expiresAt) => call('increment', () => stub(key).increment(key, expiresAt)),
    get: (key) => call('get', () => stub(key).get(key)),
    add: (key, value, expiresAt) => call('add', () => stub(key).add(key, value, expiresAt)),
    swap: (key, expected, value, expiresAt) => call('swap', () => stub(key).swap(key, expected, value, expiresAt)),
    // A record set is held whole by the shard of its name, so its listings need one object.
    putRecord: (set, record, expiresAt) => call('put a record', () => stub(set).putRecord(set, record, expiresAt)),
    deleteRecord: (set, id) => call('delete a record', () => stub(set).deleteRecord(set, id)),
    listRecords: (set, range) => call('list records', () => stub(set).listRecords(set, range)),
    countRecords: (set, range) => call('count records', () => stub(set).countRecords(set, range)),
  };
}
