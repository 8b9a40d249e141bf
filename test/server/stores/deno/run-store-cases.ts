// Runs under Deno (started by test/server/stores/deno-kv-store.test.ts): every shared store case
// against createDenoKvStore on a real Deno KV, plus what is Deno KV's own. Prints one JSON line
// per check, `{ name, ok, error? }`, and never exits early, so the Node side reports each one.
// Deno.args[0]: a database file the run may create (two handles on it act as two instances).
import assert from 'node:assert/strict';
import { createDenoKvStore, type DenoKvKey, type DenoKvLike } from '../../../../src/server/stores/deno-kv.js';
import { STORE_CASES } from '../store-conformance.js';
import { reportCase, reportDone } from '../case-report.js';
import { FEEDBACK_LISTING_CASE_NAME, feedbackListingCase } from '../feedback-listing-case.js';

// What this file uses of Deno's global, for the project's type check (Deno does not check types on run).
interface Kv extends DenoKvLike {
  set(key: DenoKvKey, value: unknown): Promise<unknown>;
  get<T = unknown>(key: DenoKvKey): Promise<{ value: T | null; versionstamp: string | null }>;
  close(): void;
}
declare const Deno: { args: string[]; openKv(path: string): Promise<Kv> };

const file = Deno.args[0]!;
const memory = await Deno.openKv(':memory:');

await Promise.all(STORE_CASES.map((check) => reportCase(check.name, () => check.run(createDenoKvStore(memory), (key) => `test:${key}`))));

await reportCase('two databases handles on one file (two instances) share counters and records', async () => {
  const first = await Deno.openKv(file);
  const second = await Deno.openKv(file);
  try {
    const a = createDenoKvStore(first);
    const b = createDenoKvStore(second);
    const expiresAt = Date.now() + 60_000;
    const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).increment('shared', expiresAt)));
    assert.deepEqual(
      [...counts].sort((x, y) => x - y),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    assert.equal(await a.add('record', 'claimed', expiresAt), true);
    assert.equal(await b.add('record', 'again', expiresAt), false);
    assert.equal(await b.swap('record', 'claimed', 'done', expiresAt), true);
    assert.equal(await a.get('record'), 'done');
  } finally {
    first.close();
    second.close();
  }
});

await reportCase('an entry past its expiry that KV has not deleted yet counts as absent', async () => {
  const store = createDenoKvStore(memory, { prefix: ['lazy'] });
  // Written without expireIn, as if KV had not got round to deleting it.
  await memory.set(['lazy', 'record'], { value: 'old', expiresAt: Date.now() - 1 });
  await memory.set(['lazy', 'counter'], { value: '7', expiresAt: Date.now() - 1 });
  assert.equal(await store.get('record'), undefined);
  assert.equal(await store.swap('record', 'old', 'new', Date.now() + 60_000), false);
  assert.equal(await store.add('record', 'fresh', Date.now() + 60_000), true);
  assert.equal(await store.increment('counter', Date.now() + 60_000), 1);
});

await reportCase("keys live under the prefix, so the app's own keys stay apart", async () => {
  const store = createDenoKvStore(memory, { prefix: ['site-a'] });
  await store.add('k', 'v', Date.now() + 60_000);
  const raw = await memory.get<{ value: string }>(['site-a', 'k']);
  assert.equal(raw.value?.value, 'v');
  assert.equal((await memory.get(['chatbot', 'k'])).versionstamp, null);
});

await reportCase(FEEDBACK_LISTING_CASE_NAME, () => feedbackListingCase(createDenoKvStore(memory, { prefix: ['feedback-case'] })));

memory.close();
reportDone();
