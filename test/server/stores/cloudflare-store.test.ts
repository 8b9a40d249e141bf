// The Durable Object store under workerd, started by `wrangler dev` once for this file: the test
// Worker in test/server/stores/cloudflare/ runs every shared store case inside the runtime (with
// one object and with keys sharded over four) and the Durable Object's own checks; each answers
// "ok" or the failure, and each is one test here.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startWranglerDev, type RunningWorker } from '../../helpers/wrangler-dev.js';
import { STORE_CASES } from './store-conformance.js';
import { FEEDBACK_LISTING_CASE_NAME } from './feedback-listing-case.js';

let worker: RunningWorker;
before(async () => {
  worker = await startWranglerDev('test/server/stores/cloudflare/wrangler.toml');
});
after(() => worker?.stop());

async function check(path: string): Promise<void> {
  const response = await fetch(`${worker.origin}${path}`, { method: 'POST' });
  const text = await response.text();
  assert.equal(response.status, 200, `${path} inside workerd:\n${text}\n--- wrangler output ---\n${worker.output()}`);
  assert.equal(text, 'ok');
}

// The checks side by side, each shard count's cases one at a time: every check has objects or keys
// of its own, and much of their time is waiting (for keys to expire, for the alarm).
describe('the Durable Object store under workerd (wrangler dev)', { concurrency: true }, () => {
  it('the Worker runs the same store cases as every other store', async () => {
    const names = await (await fetch(`${worker.origin}/cases`)).json();
    assert.deepEqual(
      names,
      STORE_CASES.map((c) => c.name),
    );
  });

  for (const shards of [1, 4]) {
    describe(`createDurableObjectStore(namespace, { shards: ${shards} })`, { concurrency: false }, () => {
      STORE_CASES.forEach((storeCase, index) => {
        it(storeCase.name, () => check(`/cases/${index}?shards=${shards}`));
      });
    });
  }

  it('spreads keys over the shards, each key held by exactly one object', () => check('/spread'));
  it('an alarm deletes expired rows and keeps live ones', () => check('/sweep'));
  it(`${FEEDBACK_LISTING_CASE_NAME} (keys sharded over four objects)`, () => check('/feedback-listing'));
  it('a ChatbotStore bound as a key-value class rejects every call, saying to use new_sqlite_classes', () => check('/not-sqlite'));
});
