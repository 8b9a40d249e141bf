// The test Worker of the Durable Object store (see wrangler.toml beside it). Every route runs
// checks inside workerd and answers 200 "ok", or 500 with the failure, for the Node test to report:
//   GET  /cases              the names of the shared store cases
//   POST /cases/N?shards=S   shared case N against createDurableObjectStore(env.CHATBOT_STORE, { shards: S })
//   POST /spread             keys spread over the shards, each in one object
//   POST /sweep              the alarm deletes expired rows
//   POST /not-sqlite         a class bound as key-value storage rejects with how to fix it
//   POST /feedback-listing   the handler's ratings listed and counted on createDurableObjectStore(env.CHATBOT_STORE)
import assert from 'node:assert/strict';
import {
  ChatbotStore,
  createDurableObjectStore,
  durableObjectNameFor,
  type ChatbotStoreNamespace,
  type ChatbotStoreStub,
} from '../../../../src/server/stores/cloudflare.js';
import { STORE_CASES } from '../store-conformance.js';
import { feedbackListingCase } from '../feedback-listing-case.js';

export { ChatbotStore };
/** The same class, bound under `new_classes` in wrangler.toml: the misconfiguration to report. */
export class KeyValueChatbotStore extends ChatbotStore {}

interface Env {
  CHATBOT_STORE: ChatbotStoreNamespace;
  OLD_KV_STORE: ChatbotStoreNamespace;
}

const objectNamed = (namespace: ChatbotStoreNamespace, name: string) =>
  namespace.get(namespace.idFromName(name) as never) as ChatbotStoreStub;

const checks: Record<string, (env: Env, url: URL) => Promise<void>> = {
  async '/spread'(env) {
    const name = `spread-${crypto.randomUUID()}`;
    const store = createDurableObjectStore(env.CHATBOT_STORE, { name, shards: 4 });
    const keys = Array.from({ length: 24 }, (_, i) => `key-${i}`);
    for (const key of keys) await store.add(key, 'x', Date.now() + 60_000);
    const counts = await Promise.all([0, 1, 2, 3].map((shard) => objectNamed(env.CHATBOT_STORE, `${name}:${shard}`).keyCount()));
    assert.equal(
      counts.reduce((a, b) => a + b, 0),
      keys.length,
      'each key is held by exactly one shard',
    );
    assert.ok(counts.filter((n) => n > 0).length >= 3, `keys spread over the shards: ${counts}`);
    for (const key of keys)
      assert.equal(await objectNamed(env.CHATBOT_STORE, durableObjectNameFor(key, { name, shards: 4 })).get(key), 'x');
  },
  async '/sweep'(env) {
    const name = `sweep-${crypto.randomUUID()}`;
    const store = createDurableObjectStore(env.CHATBOT_STORE, { name });
    await store.add('short', 'x', Date.now() + 500);
    await store.increment('long', Date.now() + 60_000);
    const object = objectNamed(env.CHATBOT_STORE, name);
    assert.equal(await object.keyCount(), 2);
    const deadline = Date.now() + 10_000;
    while ((await object.keyCount()) > 1 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(await object.keyCount(), 1, 'the alarm deleted the expired row and kept the live one');
    assert.equal(await store.get('long'), '1');
  },
  async '/feedback-listing'(env) {
    await feedbackListingCase(createDurableObjectStore(env.CHATBOT_STORE, { name: `feedback-${crypto.randomUUID()}`, shards: 4 }));
  },
  async '/not-sqlite'(env) {
    const store = createDurableObjectStore(env.OLD_KV_STORE, { name: 'misconfigured' });
    await assert.rejects(store.increment('k', Date.now() + 60_000), /Durable Object store could not increment: .*new_sqlite_classes/);
  },
};

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    const url = new URL(request.url);
    if (url.pathname === '/cases') return Response.json(STORE_CASES.map((check) => check.name));
    const index = /^\/cases\/(\d+)$/.exec(url.pathname)?.[1];
    const check = index === undefined ? checks[url.pathname] : undefined;
    if (index === undefined && !check) return new Response('no such check', { status: 404 });
    try {
      if (check) await check(env, url);
      else {
        const run = crypto.randomUUID();
        const store = createDurableObjectStore(env.CHATBOT_STORE, { shards: Number(url.searchParams.get('shards') ?? '1') });
        await STORE_CASES[Number(index)]!.run(store, (key) => `test:${run}:${key}`);
      }
      return new Response('ok');
    } catch (error) {
      return new Response(error instanceof Error ? (error.stack ?? error.message) : String(error), { status: 500 });
    }
  },
};
