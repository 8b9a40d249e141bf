/**
 * `npm start` with CHATBOT_REDIS_URL: connects the `redis` client, checks that a Redis answers
 * there, and hands the handler a store on it. Starting fails with one line when it cannot; once
 * running, an outage is one line in the log when it starts and one when Redis is back (the
 * handler answers 503 to what needs the store in between).
 */
import { createClient } from 'redis';
import { createRedisStore } from '../src/server/stores/redis.js';
import type { HandlerStore } from '../src/server/stores/store.js';
import { StartConfigError } from './config.js';

export interface RedisStoreConnection {
  store: HandlerStore;
  /** host:port, without any password the URL holds: for the banner and the log. */
  address: string;
  close(): Promise<void>;
}

const CONNECT_TIMEOUT_MS = 5_000;

export async function connectRedisStore(url: string, log: (line: string) => void = console.error): Promise<RedisStoreConnection> {
  const parsed = new URL(url);
  const address = `${parsed.hostname}:${parsed.port || '6379'}`;
  let connected = false;
  let down = false;
  const client = createClient({
    url,
    // While it reconnects, a command fails at once instead of at the store's time bound: in an
    // outage each visitor gets the 503 straight away, and no request waits on a Redis that is gone.
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      // At start a failure ends the attempt (npm start stops and says why); later, keep trying.
      reconnectStrategy: (retries: number, cause: Error) => (connected ? Math.min(100 * 2 ** retries, 2_000) : cause),
    },
  });
  client.on('error', (error: Error) => {
    if (!connected || down) return;
    down = true;
    log(
      `chatbot handler: Redis at ${address} (CHATBOT_REDIS_URL) is unreachable (${error.message}); requests that need the store get 503 until it is back.`,
    );
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    log(`chatbot handler: Redis at ${address} is back; the store answers again.`);
  });

  const fail = (reason: string) =>
    new StartConfigError(
      `CHATBOT_REDIS_URL: no Redis answers at ${address} (${reason}). Start Redis there, or correct or unset CHATBOT_REDIS_URL.`,
    );
  try {
    await client.connect();
  } catch (error) {
    throw fail((error as Error).message);
  }
  // Something else listening on that port accepts the connection but does not answer PING.
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const pong = await Promise.race([
      client.ping(),
      new Promise<never>(
        (_, reject) =>
          (timer = setTimeout(() => reject(new Error(`no answer to PING within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS)),
      ),
    ]);
    if (pong !== 'PONG') throw new Error(`it answered PING with ${JSON.stringify(pong)}`);
  } catch (error) {
    client.destroy();
    throw fail((error as Error).message);
  } finally {
    clearTimeout(timer);
  }
  connected = true;
  return { store: createRedisStore(client), address, close: async () => client.destroy() };
}
