// The default store: the shared conformance cases, and what is its own: the bound on keys.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryStore } from '../../../src/server/stores/memory.js';
import { StoreFullError } from '../../../src/server/stores/store.js';
import { STORE_CASES } from './store-conformance.js';
import { FEEDBACK_LISTING_CASE_NAME, feedbackListingCase } from './feedback-listing-case.js';

describe('MemoryStore', () => {
  for (const check of STORE_CASES) {
    it(check.name, () => check.run(new MemoryStore(), (name) => `test:${name}`));
  }
  it(FEEDBACK_LISTING_CASE_NAME, () => feedbackListingCase(new MemoryStore()));

  it('refuses new keys with StoreFullError when full, keeps the ones it has, and takes new ones after expiry', async () => {
    let clock = 1_000_000;
    const store = new MemoryStore({ maxKeys: 2, now: () => clock });
    await store.add('a', '1', clock + 1_000);
    await store.increment('b', clock + 5_000);
    await assert.rejects(store.add('c', '1', clock + 1_000), StoreFullError);
    await assert.rejects(store.increment('d', clock + 1_000), StoreFullError);
    assert.equal(await store.get('a'), '1', 'a full store forgets nothing');
    assert.equal(await store.increment('b', clock + 5_000), 2, 'existing keys still count');
    clock += 1_001;
    assert.equal(await store.add('c', '1', clock + 1_000), true, 'an expired key makes room');
  });

  it('rejects a maxKeys that is not a whole number of at least 1', () => {
    assert.throws(() => new MemoryStore({ maxKeys: 0 }), /maxKeys/);
  });
});
