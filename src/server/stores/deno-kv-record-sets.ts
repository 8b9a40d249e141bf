/**
 * The record sets of the Deno KV store. A record of set `S` is kept three times over, under keys
 * that KV keeps in order: `[…prefix, S, 'record', id]` (to find it by id), `[…prefix, S, 'all',
 * score, id]` and, with a tag, `[…prefix, S, 'tag', tag, score, id]` (the listings, read backwards
 * for newest first: numbers sort by value, then ids). A put or delete reads the record by id and
 * commits all its keys in one atomic operation checked against that read, so a record and its
 * listings change together. A page reads only its own entries (and those it skips); a count reads
 * the range's entries, KV having no counts of its own.
 */
import type { RecordRange, SetRecord } from './store.js';

/** A Deno KV key (`Deno.KvKey`). */
export type DenoKvKey = readonly (string | number | bigint | boolean | Uint8Array)[];

/** A `Deno.KvListSelector`. */
export type DenoKvSelector =
  | { prefix: DenoKvKey }
  | { prefix: DenoKvKey; start: DenoKvKey }
  | { prefix: DenoKvKey; end: DenoKvKey }
  | { start: DenoKvKey; end: DenoKvKey };

/** The part of a `Deno.AtomicOperation` the store uses. */
export interface DenoKvAtomicLike {
  check(...checks: { key: DenoKvKey; versionstamp: string | null }[]): DenoKvAtomicLike;
  set(key: DenoKvKey, value: unknown, options?: { expireIn?: number }): DenoKvAtomicLike;
  delete(key: DenoKvKey): DenoKvAtomicLike;
  commit(): Promise<{ ok: boolean }>;
}

/** The part of a `Deno.Kv` (from `await Deno.openKv()`) the store uses. */
export interface DenoKvLike {
  get(key: DenoKvKey): Promise<{ value: unknown; versionstamp: string | null }>;
  list(selector: DenoKvSelector, options?: { reverse?: boolean; limit?: number }): AsyncIterable<{ key: DenoKvKey; value: unknown }>;
  atomic(): DenoKvAtomicLike;
}

/** What KV keeps of a record, under each of its keys. */
type HeldRecord = SetRecord & { expiresAt: number };

function recordOf(held: SetRecord): SetRecord {
  return held.tag === undefined
    ? { id: held.id, score: held.score, value: held.value }
    : { id: held.id, score: held.score, tag: held.tag, value: held.value };
}

export class DenoKvRecordSets {
  readonly #kv: DenoKvLike;
  readonly #prefix: DenoKvKey;
  /** Commits; false when it lost to a concurrent write. */
  readonly #committed: (atomic: DenoKvAtomicLike) => Promise<boolean>;
  /** Runs `attempt` until it answers (a lost commit answers undefined), or gives up saying `operation`. */
  readonly #retried: <T>(operation: string, attempt: () => Promise<{ done: true; result: T } | undefined>) => Promise<T>;
  constructor(
    kv: DenoKvLike,
    prefix: DenoKvKey,
    committed: (atomic: DenoKvAtomicLike) => Promise<boolean>,
    retried: <T>(operation: string, attempt: () => Promise<{ done: true; result: T } | undefined>) => Promise<T>,
  ) {
    this.#kv = kv;
    this.#prefix = prefix;
    this.#committed = committed;
    this.#retried = retried;
  }

  put(set: string, record: SetRecord, expiresAt: number): Promise<SetRecord | undefined> {
    return this.#change('put a record', set, record.id, { ...recordOf(record), expiresAt });
  }

  delete(set: string, id: string): Promise<SetRecord | undefined> {
    return this.#change('delete a record', set, id, undefined);
  }

  async list(set: string, range: RecordRange & { offset: number; limit: number }): Promise<SetRecord[]> {
    const records: SetRecord[] = [];
    let skipped = 0;
    for await (const entry of this.#kv.list(this.#selectorOf(set, range), { reverse: true, limit: range.offset + range.limit })) {
      if (skipped++ < range.offset) continue;
      records.push(recordOf(entry.value as HeldRecord));
    }
    return records;
  }

  async count(set: string, range: RecordRange): Promise<number> {
    let count = 0;
    for await (const _ of this.#kv.list(this.#selectorOf(set, range))) count++;
    return count;
  }

  /**
   * Reads record `id` and, if it is unchanged since, replaces it by `next` (undefined deletes it)
   * in one commit: the old record's keys deleted, unless `next` sets them again, and `next`'s set.
   */
  #change(operation: string, set: string, id: string, next: HeldRecord | undefined): Promise<SetRecord | undefined> {
    const idKey = [...this.#prefix, set, 'record', id];
    const nextKeys = next ? this.#keysOf(set, next) : [];
    const setAgain = new Set(nextKeys.map((key) => JSON.stringify(key)));
    return this.#retried(operation, async () => {
      const read = await this.#kv.get(idKey);
      const old = read.value as HeldRecord | null;
      const atomic = this.#kv.atomic().check({ key: idKey, versionstamp: read.versionstamp });
      for (const key of old ? this.#keysOf(set, old) : []) if (!setAgain.has(JSON.stringify(key))) atomic.delete(key);
      // KV drops the keys some time after expireIn; until then they may still be listed.
      const options = next && { expireIn: Math.max(1, Math.ceil(next.expiresAt - Date.now())) };
      for (const key of nextKeys) atomic.set(key, next, options);
      return (await this.#committed(atomic)) ? { done: true, result: old ? recordOf(old) : undefined } : undefined;
    });
  }

  /** Every key a record is kept under. */
  #keysOf(set: string, record: SetRecord): DenoKvKey[] {
    const keys: DenoKvKey[] = [
      [...this.#prefix, set, 'record', record.id],
      [...this.#prefix, set, 'all', record.score, record.id],
    ];
    if (record.tag !== undefined) keys.push([...this.#prefix, set, 'tag', record.tag, record.score, record.id]);
    return keys;
  }

  /** The keys of a range's listing: scores in [min, max), each score followed by its ids. */
  #selectorOf(set: string, range: RecordRange): DenoKvSelector {
    const listing = range.tag === undefined ? [...this.#prefix, set, 'all'] : [...this.#prefix, set, 'tag', range.tag];
    const start = range.min === undefined ? undefined : [...listing, range.min];
    const end = range.max === undefined ? undefined : [...listing, range.max];
    if (start && end) return { start, end };
    if (start) return { prefix: listing, start };
    if (end) return { prefix: listing, end };
    return { prefix: listing };
  }
}
