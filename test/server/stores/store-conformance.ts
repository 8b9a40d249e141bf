// What every HandlerStore must do, written once and run against each store: the memory store
// here, the shared stores (Redis, Durable Object, Deno KV) on their own runtimes. Each case
// would fail on a store that loses an update under concurrency, returns expired keys or lets a
// second writer win an add or swap.
import assert from 'node:assert/strict';
import type { HandlerStore } from '../../../src/server/stores/store.js';

/** One check of the suite: a name and a body that throws on failure. */
export interface StoreCase {
  name: string;
  run(store: HandlerStore, key: (name: string) => string): Promise<void>;
}

const LATER = () => Date.now() + 60_000;

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
      await store.increment(counter, soon);
      await store.increment(counter, soon);
      await store.add(record, 'old', soon);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      assert.equal(await store.get(record), undefined);
      assert.equal(await store.swap(record, 'old', 'new', LATER()), false);
      assert.equal(await store.add(record, 'fresh', LATER()), true);
      assert.equal(await store.increment(counter, LATER()), 1);
    },
  },
];
