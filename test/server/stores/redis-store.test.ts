// The Redis store against a real redis-server, through both clients it supports: every shared
// conformance case (under Node, and under Bun in its own process), two stores on one Redis acting
// as one, and a Redis that is down making calls reject in bounded time rather than hang.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient } from 'redis';
import { createClient as createClientV4 } from 'redis-v4';
import { Redis } from 'ioredis';
import { Redis as RedisV5 } from 'ioredis-v5';
import { createRedisStore, type IoRedisClientLike, type NodeRedisClientLike } from '../../../src/server/stores/redis.js';
import { startRedisServer, type RunningRedis } from '../../helpers/redis-server.js';
import { STORE_CASES } from './store-conformance.js';
import { FEEDBACK_LISTING_CASE_NAME, feedbackListingCase } from './feedback-listing-case.js';
import { assertCasePassed, runCases, type CaseOutcome } from './case-report.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bun = ['node_modules/bun/bin/bun.exe', 'node_modules/.bin/bun'].map((p) => root + p).find((p) => existsSync(p));

interface Connected {
  client: NodeRedisClientLike | IoRedisClientLike;
  close(): Promise<void>;
}

// Both ends of each supported range: the newest major and the oldest one the store promises.
const clients: Record<string, (url: string) => Promise<Connected>> = {
  async 'redis 6'(url) {
    const client = createClient({ url });
    client.on('error', () => {}); // reconnect attempts after a test stops the server
    await client.connect();
    return { client, close: async () => void client.destroy() };
  },
  async 'redis 4'(url) {
    const client = createClientV4({ url });
    client.on('error', () => {});
    await client.connect();
    return { client, close: async () => void (await client.disconnect().catch(() => {})) };
  },
  async 'ioredis 6'(url) {
    const client = new Redis(url, { lazyConnect: true });
    client.on('error', () => {});
    await client.connect();
    return { client, close: async () => client.disconnect() };
  },
  async 'ioredis 5'(url) {
    const client = new RedisV5(url, { lazyConnect: true });
    client.on('error', () => {});
    await client.connect();
    return { client, close: async () => client.disconnect() };
  },
};

let redis: RunningRedis;
/**
 * The Bun process's checks, started as soon as Redis is up: they take seconds, mostly waiting for
 * keys to expire, and their keys are their own, so they run while the Node clients' checks do.
 */
let bunOutcomes: Promise<Map<string, CaseOutcome>> | undefined;
before(async () => {
  redis = await startRedisServer();
  if (bun) {
    bunOutcomes = runCases(bun, ['run', 'test/server/stores/bun/run-redis-cases.ts', redis.url], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NO_COLOR: '1' },
    });
    // Awaited (and its failure reported) by the Bun tests below; not an unhandled rejection meanwhile.
    bunOutcomes.catch(() => {});
  }
});
after(async () => {
  // Redis stays up until the Bun process is through with it.
  await bunOutcomes?.catch(() => {});
  await redis?.stop();
});

// The clients side by side: most of each one's time is waiting (for keys to expire, for a stopped
// Redis to time out), and each check has keys of its own. Within a client, one check at a time.
describe('createRedisStore under Node', { concurrency: true }, () => {
  for (const [name, connect] of Object.entries(clients)) {
    describe(`createRedisStore with a client of ${name}`, { concurrency: false }, () => {
      const open: Connected[] = [];
      const connectTo = async (url: string) => {
        const connected = await connect(url);
        open.push(connected);
        return connected.client;
      };
      after(async () => {
        for (const connected of open) await connected.close();
      });

      for (const check of STORE_CASES) {
        it(check.name, async () => {
          const store = createRedisStore(await connectTo(redis.url));
          const run = randomUUID();
          await check.run(store, (key) => `test:${run}:${key}`);
        });
      }

      it(FEEDBACK_LISTING_CASE_NAME, async () => feedbackListingCase(createRedisStore(await connectTo(redis.url))));

      it('two stores on two clients of one Redis share counters and records', async () => {
        const first = createRedisStore(await connectTo(redis.url));
        const second = createRedisStore(await connectTo(redis.url));
        const key = `shared:${randomUUID()}`;
        const expiresAt = Date.now() + 60_000;
        const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? first : second).increment(key, expiresAt)));
        assert.deepEqual(
          [...counts].sort((a, b) => a - b),
          Array.from({ length: 20 }, (_, i) => i + 1),
        );
        assert.equal(await first.add(`${key}:record`, 'claimed', expiresAt), true);
        assert.equal(await second.add(`${key}:record`, 'again', expiresAt), false);
        assert.equal(await second.swap(`${key}:record`, 'claimed', 'done', expiresAt), true);
        assert.equal(await first.get(`${key}:record`), 'done');
      });

      it('keeps keys under its prefix, so two prefixes on one Redis stay apart', async () => {
        const client = await connectTo(redis.url);
        const siteA = createRedisStore(client, { prefix: 'site-a:' });
        const siteB = createRedisStore(client, { prefix: 'site-b:' });
        const key = `counter:${randomUUID()}`;
        await siteA.increment(key, Date.now() + 60_000);
        assert.equal(await siteB.increment(key, Date.now() + 60_000), 1);
        const raw = createRedisStore(client, { prefix: '' });
        assert.equal(await raw.get(`site-a:${key}`), '1');
      });

      it('rejects in bounded time, with a reason, when Redis is down', async () => {
        const doomed = await startRedisServer();
        const store = createRedisStore(await connectTo(doomed.url), { timeoutMs: 500 });
        assert.equal(await store.increment(`down:${randomUUID()}`, Date.now() + 60_000), 1);
        await doomed.stop();
        const started = Date.now();
        for (const call of [
          () => store.increment('down:counter', Date.now() + 60_000),
          () => store.get('down:record'),
          () => store.add('down:record', 'x', Date.now() + 60_000),
          () => store.swap('down:record', 'x', 'y', Date.now() + 60_000),
        ]) {
          await assert.rejects(call(), /the Redis store (did not answer|could not)/);
        }
        assert.ok(Date.now() - started < 4 * 500 + 2_000, `took ${Date.now() - started} ms`);
      });
    });
  }
});

describe('createRedisStore under Bun', () => {
  let outcomes: Map<string, CaseOutcome>;
  before(async () => {
    assert.ok(bun, 'Bun is not installed: `npm install` installs it (the "bun" devDependency, whose install script must be allowed).');
    outcomes = await bunOutcomes!;
  });
  for (const client of ['redis 6', 'ioredis 6']) {
    for (const check of STORE_CASES) it(`${client}: ${check.name}`, () => assertCasePassed(outcomes, `${client}: ${check.name}`));
  }
});

describe('createRedisStore', () => {
  it('refuses something that is not a Redis client, saying which clients it takes', () => {
    assert.throws(() => createRedisStore({} as NodeRedisClientLike), /`redis` package.*`ioredis`/);
    assert.throws(() => createRedisStore({ call: async () => 1 }, { timeoutMs: 0 }), /timeoutMs/);
  });
});
