// Runs under Bun (started by test/server/stores/redis-store.test.ts): every shared store case
// against createRedisStore with each client it supports, on the redis-server at argv[2].
import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { Redis } from 'ioredis';
import { createRedisStore } from '../../../../src/server/stores/redis.js';
import { STORE_CASES } from '../store-conformance.js';
import { reportCase, reportDone } from '../case-report.js';

const url = process.argv[2]!;
const nodeRedis = createClient({ url });
await nodeRedis.connect();
const ioredis = new Redis(url);

for (const [name, client] of [
  ['redis 6', nodeRedis],
  ['ioredis 6', ioredis],
] as const) {
  for (const check of STORE_CASES) {
    const run = randomUUID();
    await reportCase(`${name}: ${check.name}`, () => check.run(createRedisStore(client), (key) => `bun:${run}:${key}`));
  }
}

nodeRedis.destroy();
ioredis.disconnect();
reportDone();
