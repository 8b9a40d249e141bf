/**
 * The record sets of the memory store: each set a map by id plus sorted arrays (the whole set,
 * and one per tag), so a page and a count are binary searches rather than scans. The arrays are
 * kept oldest first and read from their end: a new record, usually the newest, is appended
 * rather than put in front of all the others.
 */
import type { RecordRange, SetRecord } from './store.js';

interface Held {
  record: SetRecord;
  expiresAt: number;
}

interface MemorySet {
  byId: Map<string, Held>;
  /** Every record, oldest first. */
  all: SetRecord[];
  /** The records of each tag, oldest first. */
  byTag: Map<string, SetRecord[]>;
}

/** The arrays' order, the listing order reversed: score ascending, then id ascending. */
function before(a: SetRecord, b: SetRecord): boolean {
  return a.score !== b.score ? a.score < b.score : a.id < b.id;
}

/** The first index of `list` not listed before `probe`. */
function firstNotBefore(list: readonly SetRecord[], isBefore: (record: SetRecord) => boolean): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (isBefore(list[middle]!)) low = middle + 1;
    else high = middle;
  }
  return low;
}

function insert(list: SetRecord[], record: SetRecord): void {
  list.splice(
    firstNotBefore(list, (other) => before(other, record)),
    0,
    record,
  );
}

function remove(list: SetRecord[], record: SetRecord): void {
  const index = firstNotBefore(list, (other) => before(other, record));
  if (list[index] === record) list.splice(index, 1);
}

/** The [start, end) indexes of `list` whose scores are in [min, max). */
function span(list: readonly SetRecord[], range: RecordRange): [number, number] {
  const max = range.max ?? Infinity;
  const min = range.min ?? -Infinity;
  return [firstNotBefore(list, (record) => record.score < min), firstNotBefore(list, (record) => record.score < max)];
}

export class MemoryRecordSets {
  readonly #sets = new Map<string, MemorySet>();
  /** Records held, in every set. */
  size = 0;

  /** Whether putting `id` in `set` adds a record (rather than replacing one). */
  isNew(set: string, id: string): boolean {
    return !this.#sets.get(set)?.byId.has(id);
  }

  put(set: string, record: SetRecord, expiresAt: number): SetRecord | undefined {
    let held = this.#sets.get(set);
    if (!held) this.#sets.set(set, (held = { byId: new Map(), all: [], byTag: new Map() }));
    const replaced = this.delete(set, record.id);
    const copy = { ...record };
    held.byId.set(copy.id, { record: copy, expiresAt });
    insert(held.all, copy);
    if (copy.tag !== undefined) {
      let tagged = held.byTag.get(copy.tag);
      if (!tagged) held.byTag.set(copy.tag, (tagged = []));
      insert(tagged, copy);
    }
    this.size++;
    return replaced;
  }

  delete(set: string, id: string): SetRecord | undefined {
    const held = this.#sets.get(set);
    const old = held?.byId.get(id);
    if (!held || !old) return undefined;
    held.byId.delete(id);
    remove(held.all, old.record);
    if (old.record.tag !== undefined) remove(held.byTag.get(old.record.tag)!, old.record);
    this.size--;
    return { ...old.record };
  }

  list(set: string, range: RecordRange & { offset: number; limit: number }): SetRecord[] {
    const list = this.#listOf(set, range.tag);
    const [start, end] = span(list, range);
    // Newest first: from the end of the span backwards.
    const page = list.slice(Math.max(start, end - range.offset - range.limit), Math.max(start, end - range.offset));
    return page.reverse().map((record) => ({ ...record }));
  }

  count(set: string, range: RecordRange): number {
    const [start, end] = span(this.#listOf(set, range.tag), range);
    return end - start;
  }

  /** Deletes the records past their expiry. */
  sweep(now: number): void {
    for (const [name, held] of this.#sets) {
      for (const [id, { expiresAt }] of held.byId) if (expiresAt <= now) this.delete(name, id);
      if (held.byId.size === 0) this.#sets.delete(name);
    }
  }

  #listOf(set: string, tag: string | undefined): readonly SetRecord[] {
    const held = this.#sets.get(set);
    if (!held) return [];
    return tag === undefined ? held.all : (held.byTag.get(tag) ?? []);
  }
}
