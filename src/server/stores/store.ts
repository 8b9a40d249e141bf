/**
 * The handler's store: where limit counters, idempotency records, visitor revocations and
 * visitors' ratings live.
 *
 * Four operations on one key space, each atomic on its own, are all the handler needs for
 * idempotency (claim, complete, release), revocation and every limit. Ratings need one thing more:
 * a listing, newest first, that stays quick however many there are. For that a store also keeps
 * **record sets** ({@link RecordSets}): records under an id, sorted by a score, each optionally
 * filed under a tag, listed by score range and counted. That keeps each shared store small and
 * easy to prove race-free:
 * - Redis: each operation is one short Lua script (INCR then PEXPIREAT; `SET NX PXAT`; compare,
 *   then SET or DEL; GET), so no other client's command runs in between.
 * - A Durable Object: one object serialises every call, so plain reads and writes of its storage
 *   are atomic.
 * - Deno KV: `add` and `swap` are `kv.atomic().check({ key, versionstamp })` commits, `increment`
 *   a check-and-set loop (or `sum` on a `Deno.KvU64` counter).
 *
 * Keys are short ASCII strings the handler builds (`<chatbotId>:<kind>:<subject>[:<window>]`);
 * values are strings (a counter's value reads back as its decimal text). Expiry times are Unix
 * milliseconds; a store may keep a key longer than `expiresAt` but must never hand back an
 * expired one (expired is absent).
 *
 * Failures: a store that cannot answer (down, timed out) rejects; the handler then answers 503
 * and logs why, it never lets a request through unchecked. A store that is full rejects writes
 * of new keys with {@link StoreFullError}: refusing new work is safe, forgetting a key is not.
 */
export interface HandlerStore extends RecordSets {
  /**
   * Adds one to the counter `key` and resolves to its value after adding (1 for a new or expired
   * key). `expiresAt` is when the counter may be dropped; it is the same for every call with the
   * same key.
   */
  increment(key: string, expiresAt: number): Promise<number>;
  /** The value of `key`, or undefined when it is absent or expired. */
  get(key: string): Promise<string | undefined>;
  /** Stores `value` under `key` only when the key is absent or expired. Resolves true when stored. */
  add(key: string, value: string, expiresAt: number): Promise<boolean>;
  /**
   * Replaces the value of `key` only while it is exactly `expected` (and not expired): with
   * `value` until `expiresAt`, or deletes the key when `value` is undefined. Resolves true when
   * replaced. Counters too, by their decimal text: the handler takes a count back this way.
   */
  swap(key: string, expected: string, value: string | undefined, expiresAt: number): Promise<boolean>;
}

/** A record of a record set. */
export interface SetRecord {
  /** Unique within its set; putting a record with the same id replaces it. */
  id: string;
  /** What the set is sorted by (the handler uses Unix milliseconds). A finite number. */
  score: number;
  /** A second listing the record is filed under (the handler files a rating under its value). */
  tag?: string;
  /** The record's text. */
  value: string;
}

/** Which records of a set: scores in [`min`, `max`), all of them or only those filed under `tag`. */
export interface RecordRange {
  /** Lowest score, included. Default: no bound. */
  min?: number;
  /** Score bound, excluded. Default: no bound. */
  max?: number;
  tag?: string;
}

/**
 * Sorted record sets, the store's listing capability. A set is named like a key; its records are
 * listed by score descending (newest first), equal scores by id descending, so every store lists a
 * set in the same order and a page is the same whichever instance answers. Each operation is
 * atomic on its own: a put or delete changes the record and its place in the listings together,
 * and answers the record it replaced, so a caller can keep counts beside the set exactly.
 *
 * Listing a page reads that page, not the set: `offset` skips within the store's sorted index
 * (Redis ZREVRANGEBYSCORE … LIMIT, SQLite's index, Deno KV's ordered keys). `countRecords` is
 * one index look-up in memory, Redis and SQLite; Deno KV, which has no counts, reads the range's
 * keys. A record is deleted some time after its `expiresAt`; until then it may still be listed, so
 * a caller that needs a sharp end (ratings kept 400 days) bounds its ranges by `min`.
 */
export interface RecordSets {
  /** Stores `record` in `set`, replacing the record with its id; resolves to the one replaced, if any. */
  putRecord(set: string, record: SetRecord, expiresAt: number): Promise<SetRecord | undefined>;
  /** Deletes the record `id` of `set`; resolves to the one deleted, if there was one. */
  deleteRecord(set: string, id: string): Promise<SetRecord | undefined>;
  /** At most `limit` records of the range, newest first, after skipping `offset` of them. */
  listRecords(set: string, range: RecordRange & { offset: number; limit: number }): Promise<SetRecord[]>;
  /** How many records the range holds. */
  countRecords(set: string, range: RecordRange): Promise<number>;
}

/** A store refused to take a new key because it holds as many as it may. */
export class StoreFullError extends Error {
  constructor(message = 'the store is full') {
    super(message);
    this.name = 'StoreFullError';
  }
}
