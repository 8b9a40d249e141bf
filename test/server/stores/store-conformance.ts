// What every HandlerStore must do, written once and run against each store: the memory store
// here, the shared stores (Redis, Durable Object, Deno KV) on their own runtimes. Each case
// would fail on a store that loses an update under concurrency, returns expired keys, lets a
// second writer win an add or swap, or lists a record set in another order, page or count than
// the others do.
import assert from 'node:assert/strict';
import type { HandlerStore, SetRecord } from '../../../src/server/stores/store.js';

/** One check of the suite: a name and a body that throws on failure. */
export interface StoreCase {
  name: string;
  run(store: HandlerStore, key: (name: string) => string): Promise<void>;
}

const LATER = () => Date.now() + 60_000;

/** Ids of listed records, in the order listed. */
const idsOf = (records: readonly SetRecord[]) => records.map((record) => record.id);

export const STORE_CASES: readonly StoreCase[] = [
  {
    name: 'increment counts from 1 and reads back as decimal text',
    async run(store, key) {
      const k = key('count');
      assert.equal(await store.increment(k, LATER()), 1);
      assert.equal(await store.increment(k, LATER()), 2);
      assert.equal(await store.get(k), '2');
    },
  },
  {
    name: 'a count is taken back with swap on its decimal text, and a first count leaves no key',
    async run(store, key) {
      const k = key('uncount');
      const expiresAt = LATER();
      await store.increment(k, expiresAt);
      await store.increment(k, expiresAt);
      assert.equal(await store.swap(k, '2', '1', expiresAt), true);
      assert.equal(await store.increment(k, expiresAt), 2, 'counting goes on from the value taken back');
      assert.equal(await store.swap(k, '1', undefined, expiresAt), false, 'not while another count came since');
      assert.equal(await store.swap(k, '2', '1', expiresAt), true);
      assert.equal(await store.swap(k, '1', undefined, expiresAt), true);
      assert.equal(await store.get(k), undefined);
      assert.equal(await store.increment(k, expiresAt), 1);
    },
  },
  {
    name: 'increment loses no update when 50 run at once',
    async run(store, key) {
      const k = key('race');
      const expiresAt = LATER();
      const results = await Promise.all(Array.from({ length: 50 }, () => store.increment(k, expiresAt)));
      assert.deepEqual(
        [...results].sort((a, b) => a - b),
        Array.from({ length: 50 }, (_, i) => i + 1),
      );
    },
  },
  {
    name: 'get of an absent key is undefined',
    async run(store, key) {
      assert.equal(await store.get(key('absent')), undefined);
    },
  },
  {
    name: 'add stores only when absent, and exactly one of many concurrent adds wins',
    async run(store, key) {
      const k = key('add');
      const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => store.add(k, `v${i}`, LATER())));
      assert.equal(wins.filter(Boolean).length, 1);
      const winner = wins.indexOf(true);
      assert.equal(await store.get(k), `v${winner}`);
      assert.equal(await store.add(k, 'again', LATER()), false);
    },
  },
  {
    name: 'swap replaces only the expected value, and exactly one of many concurrent swaps wins',
    async run(store, key) {
      const k = key('swap');
      assert.equal(await store.swap(k, 'x', 'y', LATER()), false, 'swap of an absent key');
      await store.add(k, 'pending', LATER());
      assert.equal(await store.swap(k, 'other', 'done', LATER()), false, 'swap with the wrong expected value');
      assert.equal(await store.get(k), 'pending');
      const wins = await Promise.all(Array.from({ length: 20 }, (_, i) => store.swap(k, 'pending', `done${i}`, LATER())));
      assert.equal(wins.filter(Boolean).length, 1);
      assert.equal(await store.get(k), `done${wins.indexOf(true)}`);
    },
  },
  {
    name: 'swap to undefined deletes the key, which can then be added again',
    async run(store, key) {
      const k = key('delete');
      await store.add(k, 'a', LATER());
      assert.equal(await store.swap(k, 'a', undefined, LATER()), true);
      assert.equal(await store.get(k), undefined);
      assert.equal(await store.add(k, 'b', LATER()), true);
      assert.equal(await store.get(k), 'b');
    },
  },
  {
    name: 'values keep any text, JSON with quotes and non-ASCII included',
    async run(store, key) {
      const k = key('text');
      const value = JSON.stringify({ body: 'Grüße "quoted" \n 😀', status: 200 });
      await store.add(k, value, LATER());
      assert.equal(await store.get(k), value);
    },
  },
  {
    name: 'expired keys are absent: get, add, swap and increment treat them as new',
    async run(store, key) {
      const soon = Date.now() + 1_200;
      const counter = key('expiring-counter');
      const record = key('expiring-record');
      // Live until then: a store that took fresh keys for expired ones would pass what follows.
      assert.equal(await store.increment(counter, soon), 1);
      assert.equal(await store.increment(counter, soon), 2);
      assert.equal(await store.add(record, 'old', soon), true);
      assert.equal(await store.get(record), 'old');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      assert.equal(await store.get(record), undefined);
      assert.equal(await store.swap(record, 'old', 'new', LATER()), false);
      assert.equal(await store.add(record, 'fresh', LATER()), true);
      assert.equal(await store.increment(counter, LATER()), 1);
    },
  },
  {
    name: 'a record set lists newest first (equal scores by id descending), by pages and score ranges, and counts',
    async run(store, key) {
      const set = key('records-order');
      // Put out of order, so the order listed is the store's own doing.
      for (const [id, score] of [
        ['c', 20],
        ['a', 30],
        ['e', 10],
        ['b', 20],
        ['d', 20],
        ['f', 40],
      ] as const)
        assert.equal(await store.putRecord(set, { id, score, value: `v-${id}` }, LATER()), undefined);
      const all = await store.listRecords(set, { offset: 0, limit: 10 });
      assert.deepEqual(idsOf(all), ['f', 'a', 'd', 'c', 'b', 'e']);
      assert.deepEqual(all[0], { id: 'f', score: 40, value: 'v-f' });
      assert.deepEqual(idsOf(await store.listRecords(set, { offset: 2, limit: 3 })), ['d', 'c', 'b'], 'a page in the middle');
      assert.deepEqual(idsOf(await store.listRecords(set, { offset: 5, limit: 3 })), ['e'], 'the last page');
      assert.deepEqual(await store.listRecords(set, { offset: 6, limit: 3 }), [], 'past the end');
      assert.deepEqual(
        idsOf(await store.listRecords(set, { min: 20, max: 40, offset: 0, limit: 10 })),
        ['a', 'd', 'c', 'b'],
        'min in, max out',
      );
      assert.deepEqual(idsOf(await store.listRecords(set, { min: 20, max: 40, offset: 1, limit: 2 })), ['d', 'c']);
      assert.equal(await store.countRecords(set, {}), 6);
      assert.equal(await store.countRecords(set, { min: 20, max: 40 }), 4);
      assert.equal(await store.countRecords(set, { min: 20 }), 5);
      assert.equal(await store.countRecords(set, { max: 20 }), 1);
      assert.equal(await store.countRecords(set, { min: 41 }), 0);
      assert.equal(await store.countRecords(key('records-none'), {}), 0, 'a set never written is empty');
      assert.deepEqual(await store.listRecords(key('records-none'), { offset: 0, limit: 10 }), []);
    },
  },
  {
    name: 'a record set files records under their tag: listed and counted by tag, moved when a put changes it',
    async run(store, key) {
      const set = key('records-tags');
      const expiresAt = LATER();
      await store.putRecord(set, { id: 'm1', score: 1, tag: 'up', value: '1' }, expiresAt);
      await store.putRecord(set, { id: 'm2', score: 2, tag: 'down', value: '2' }, expiresAt);
      await store.putRecord(set, { id: 'm3', score: 3, tag: 'up', value: '3' }, expiresAt);
      await store.putRecord(set, { id: 'm4', score: 4, value: 'no tag' }, expiresAt);
      assert.deepEqual(idsOf(await store.listRecords(set, { tag: 'up', offset: 0, limit: 10 })), ['m3', 'm1']);
      assert.equal(await store.countRecords(set, { tag: 'down' }), 1);
      const replaced = await store.putRecord(set, { id: 'm1', score: 5, tag: 'down', value: 'changed' }, expiresAt);
      assert.deepEqual(replaced, { id: 'm1', score: 1, tag: 'up', value: '1' }, 'a put answers the record it replaced');
      assert.deepEqual(idsOf(await store.listRecords(set, { tag: 'up', offset: 0, limit: 10 })), ['m3'], 'no longer under its old tag');
      assert.deepEqual(await store.listRecords(set, { tag: 'down', offset: 0, limit: 10 }), [
        { id: 'm1', score: 5, tag: 'down', value: 'changed' },
        { id: 'm2', score: 2, tag: 'down', value: '2' },
      ]);
      assert.deepEqual(
        idsOf(await store.listRecords(set, { offset: 0, limit: 10 })),
        ['m1', 'm4', 'm3', 'm2'],
        'one place in the whole set',
      );
      assert.equal(await store.countRecords(set, {}), 4);
      assert.equal(await store.countRecords(set, { tag: 'up', min: 1, max: 3 }), 0);
      assert.equal(await store.countRecords(set, { tag: 'missing' }), 0);
    },
  },
  {
    name: 'deleting a record answers it and takes it out of every listing; deleting an absent one answers nothing',
    async run(store, key) {
      const set = key('records-delete');
      const text = JSON.stringify({ comment: 'Grüße "quoted" \n 😀' });
      await store.putRecord(set, { id: 'gone', score: 7, tag: 'down', value: text }, LATER());
      await store.putRecord(set, { id: 'kept', score: 8, tag: 'down', value: 'x' }, LATER());
      assert.deepEqual(
        await store.deleteRecord(set, 'gone'),
        { id: 'gone', score: 7, tag: 'down', value: text },
        'any text kept as it was',
      );
      assert.equal(await store.deleteRecord(set, 'gone'), undefined);
      assert.equal(await store.deleteRecord(key('records-none'), 'gone'), undefined);
      assert.deepEqual(idsOf(await store.listRecords(set, { tag: 'down', offset: 0, limit: 10 })), ['kept']);
      assert.equal(await store.countRecords(set, { tag: 'down' }), 1);
      assert.equal(await store.countRecords(set, {}), 1);
      assert.deepEqual(
        await store.putRecord(set, { id: 'gone', score: 9, value: 'back' }, LATER()),
        undefined,
        'a deleted id is new again',
      );
    },
  },
  {
    name: 'concurrent puts of one record: each replaces exactly one other, and one record is left',
    async run(store, key) {
      const set = key('records-race');
      const puts = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.putRecord(set, { id: 'same', score: i, tag: i % 2 ? 'odd' : 'even', value: `v${i}` }, LATER()),
        ),
      );
      assert.equal(puts.filter((replaced) => replaced === undefined).length, 1, 'exactly one put found no record');
      const replacedValues = new Set(puts.flatMap((replaced) => (replaced ? [replaced.value] : [])));
      assert.equal(replacedValues.size, 19, 'no record was replaced twice');
      const left = await store.listRecords(set, { offset: 0, limit: 10 });
      assert.equal(left.length, 1);
      assert.ok(!replacedValues.has(left[0]!.value), 'the one left is the one nobody replaced');
      assert.equal((await store.countRecords(set, { tag: 'odd' })) + (await store.countRecords(set, { tag: 'even' })), 1, 'under one tag');
    },
  },
];
