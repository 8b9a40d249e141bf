/**
 * The counters-only store of the previous release (`limitStore` option), kept for one release:
 * new code passes a {@link HandlerStore} as `store`, which also holds idempotency records and
 * revocations.
 */
import type { HandlerStore } from './store.js';
import { MemoryStore } from './stores/memory.js';

/**
 * A store of counters for fixed windows.
 *
 * The handler names each window in the key (e.g. `send-minute:v_abc:29188263`), so a store never
 * has to know about windows: it adds one and forgets the key after `expiresAt`.
 *
 * @example Redis (ioredis), shared by every instance:
 * const limitStore = {
 *   async increment(key, expiresAt) {
 *     const [[, count]] = await redis.multi().incr(key).pexpireat(key, expiresAt).exec();
 *     return count;
 *   },
 * };
 */
/** @deprecated Use {@link HandlerStore} and the `store` option. */
export interface LimitStore {
  /**
   * Adds one to the counter `key` and resolves to its value after adding (1 for a new key).
   * `expiresAt` (Unix milliseconds) is when the counter may be dropped; it is the same for
   * every call with the same key.
   */
  increment(key: string, expiresAt: number): Promise<number>;
}

/**
 * A {@link HandlerStore} over a deprecated `limitStore`: its `increment` keeps counting (so a
 * shared counter store stays shared), records live in this process's memory.
 */
export function storeFromLimitStore(limitStore: LimitStore): HandlerStore {
  const records = new MemoryStore();
  return {
    increment: (key, expiresAt) => limitStore.increment(key, expiresAt),
    get: (key) => records.get(key),
    add: (key, value, expiresAt) => records.add(key, value, expiresAt),
    swap: (key, expected, value, expiresAt) => records.swap(key, expected, value, expiresAt),
  };
}

/**
 * @deprecated Use {@link MemoryStore}. The previous default: counters in this process's memory, dropped once expired. Right for one
 * process; several instances each count on their own (use a shared store there).
 */
export class MemoryLimitStore implements LimitStore {
  private readonly counters = new Map<string, { count: number; expiresAt: number }>();
  private nextSweep = 0;

  /**
   * @param maxKeys bound on live counters, so a flood of distinct keys cannot exhaust memory:
   *   past it, the oldest counters are dropped (those visitors get a fresh window).
   * @param now clock in milliseconds (for tests).
   */
  constructor(
    private readonly maxKeys = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  async increment(key: string, expiresAt: number): Promise<number> {
    const now = this.now();
    this.sweep(now);
    const entry = this.counters.get(key);
    if (entry && entry.expiresAt > now) {
      entry.count++;
      return entry.count;
    }
    this.counters.delete(key);
    while (this.counters.size >= this.maxKeys) this.counters.delete(this.counters.keys().next().value as string);
    this.counters.set(key, { count: 1, expiresAt });
    return 1;
  }

  /** Number of live counters (for tests and diagnostics). */
  get size(): number {
    return this.counters.size;
  }

  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + 60_000;
    for (const [key, entry] of this.counters) if (entry.expiresAt <= now) this.counters.delete(key);
  }
}
