/**
 * The handler's store: where limit counters, idempotency records and visitor revocations live.
 *
 * Four operations on one key space, each atomic on its own, are all the handler needs: it builds
 * idempotency (claim, complete, release), revocation and every limit from them. That keeps each
 * shared store small and easy to prove race-free:
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
export interface HandlerStore {
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

/** A store refused to take a new key because it holds as many as it may. */
export class StoreFullError extends Error {
  constructor(message = 'the store is full') {
    super(message);
    this.name = 'StoreFullError';
  }
}
