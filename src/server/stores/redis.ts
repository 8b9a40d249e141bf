/**
 * The handler's store on Redis, shared by every instance that uses the same Redis: limits,
 * idempotency records and revocations then hold across all of them.
 *
 * Each operation is one Lua script run with EVALSHA, so Redis runs it as one step that no other
 * command can interleave with: an increment and its expiry, a compare-and-set, a set-if-absent.
 * Only raw commands are sent (node-redis `sendCommand`, ioredis `call`), so the store works with
 * every version of both clients that has them (`redis` 4 and later, `ioredis` 5 and later) and
 * needs neither as a dependency. Needs Redis 6.2 or later (or Valkey) for `SET … PXAT`.
 */
import type { HandlerStore, RecordRange, SetRecord } from './store.js';
import { boundsOf, DELETE_RECORD, LIST_RECORDS, listingOf, PUT_RECORD, recordOf, recordText } from './redis-record-sets.js';

/** The part of a connected `redis` (node-redis, v4 or later) client the store uses. */
export interface NodeRedisClientLike {
  sendCommand(args: string[]): Promise<unknown>;
  isOpen?: boolean;
}

/** The part of a connected `ioredis` client the store uses. */
export interface IoRedisClientLike {
  call(command: string, ...args: string[]): Promise<unknown>;
  status?: string;
}

/** Options of {@link createRedisStore}. */
export interface RedisStoreOptions {
  /**
   * Put before every key, so the handler's keys stay apart from anything else in the same Redis
   * (and two sites on one Redis can use two prefixes). Default `chatbot:`.
   */
  prefix?: string;
  /**
   * How long one call may take before it rejects (the handler then answers 503). Clients queue
   * commands while they reconnect, so without a bound a Redis that is down would hang every
   * request. A command that timed out may still run once Redis is back: for a counter that counts
   * one refused request, for a record it stores what was asked. Default 2,000 ms.
   */
  timeoutMs?: number;
}

// KEYS[1] the key; ARGV[1] expiry in Unix ms. The expiry is set on every call: it is the same for
// every call with the key, and setting it each time also repairs a key that lost its expiry.
const INCREMENT = `local n = redis.call('INCR', KEYS[1])
redis.call('PEXPIREAT', KEYS[1], ARGV[1])
return n`;

// KEYS[1] the key; ARGV[1] the value; ARGV[2] expiry in Unix ms. Returns 1 when stored.
const ADD = `if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PXAT', ARGV[2]) then return 1 end
return 0`;

// KEYS[1] the key; ARGV[1] the expected value; ARGV[2] '1' to replace, '0' to delete; ARGV[3] the
// new value; ARGV[4] expiry in Unix ms. Redis never returns an expired key, so expired is absent.
const SWAP = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if ARGV[2] == '1' then redis.call('SET', KEYS[1], ARGV[3], 'PXAT', ARGV[4]) else redis.call('DEL', KEYS[1]) end
return 1`;

type Send = (args: string[]) => Promise<unknown>;

/** An expiry as PXAT and PEXPIREAT take it: whole milliseconds. */
const unixMs = (expiresAt: number) => String(Math.ceil(expiresAt));

/** Reads the kind of client from its API: ioredis has `call`, node-redis `sendCommand` + `isOpen`. */
function rawCommands(client: unknown): Send {
  const candidate = client as Partial<NodeRedisClientLike & IoRedisClientLike> | null;
  if (candidate && typeof candidate.call === 'function') {
    return ([command, ...args]) => (candidate as IoRedisClientLike).call(command!, ...args);
  }
  if (candidate && typeof candidate.sendCommand === 'function' && 'isOpen' in candidate) {
    return (args) => (candidate as NodeRedisClientLike).sendCommand(args);
  }
  throw new TypeError(
    'createRedisStore(client) needs a client of the `redis` package (v4 or later, from createClient() and connected) or of `ioredis` (new Redis(url)).',
  );
}

/** The SHA-1 of a script, as EVALSHA names it (Web Crypto, so this runs wherever the handler does). */
async function sha1(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

class RedisStore implements HandlerStore {
  readonly #hashes = new Map<string, Promise<string>>();

  readonly #send: Send;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  constructor(send: Send, prefix: string, timeoutMs: number) {
    this.#send = send;
    this.#prefix = prefix;
    this.#timeoutMs = timeoutMs;
  }

  async increment(key: string, expiresAt: number): Promise<number> {
    return Number(await this.#run('increment', INCREMENT, key, [unixMs(expiresAt)]));
  }

  async get(key: string): Promise<string | undefined> {
    const value = await this.#bounded('get', this.#send(['GET', this.#prefix + key]));
    if (value === null || value === undefined) return undefined;
    // Clients configured to return buffers hand back bytes; the stored values are UTF-8 text.
    return value instanceof Uint8Array ? new TextDecoder().decode(value) : String(value as string);
  }

  async add(key: string, value: string, expiresAt: number): Promise<boolean> {
    return Number(await this.#run('add', ADD, key, [value, unixMs(expiresAt)])) === 1;
  }

  async swap(key: string, expected: string, value: string | undefined, expiresAt: number): Promise<boolean> {
    const args = [expected, value === undefined ? '0' : '1', value ?? '', unixMs(expiresAt)];
    return Number(await this.#run('swap', SWAP, key, args)) === 1;
  }

  async putRecord(set: string, record: SetRecord, expiresAt: number): Promise<SetRecord | undefined> {
    const args = [record.id, String(record.score), record.tag ?? '', recordText(record, expiresAt), unixMs(expiresAt), String(Date.now())];
    return recordOf(await this.#run('put a record', PUT_RECORD, set, args));
  }

  async deleteRecord(set: string, id: string): Promise<SetRecord | undefined> {
    return recordOf(await this.#run('delete a record', DELETE_RECORD, set, [id, String(Date.now())]));
  }

  async listRecords(set: string, range: RecordRange & { offset: number; limit: number }): Promise<SetRecord[]> {
    const { min, max } = boundsOf(range);
    const args = [listingOf(range), max, min, String(range.offset), String(range.limit)];
    const texts = (await this.#run('list records', LIST_RECORDS, set, args)) as unknown[];
    return texts.map(recordOf).filter((record) => record !== undefined);
  }

  async countRecords(set: string, range: RecordRange): Promise<number> {
    const { min, max } = boundsOf(range);
    return Number(await this.#bounded('count records', this.#send(['ZCOUNT', this.#prefix + set + listingOf(range), min, max])));
  }

  /** Runs a script by its hash; the first time on a Redis that has not seen it, sends it whole. */
  async #run(operation: string, script: string, key: string, args: string[]): Promise<unknown> {
    let hash = this.#hashes.get(script);
    if (!hash) this.#hashes.set(script, (hash = sha1(script)));
    const call = async () => {
      const keyAndArgs = ['1', this.#prefix + key, ...args];
      try {
        return await this.#send(['EVALSHA', await hash!, ...keyAndArgs]);
      } catch (error) {
        if (!String((error as Error | undefined)?.message).startsWith('NOSCRIPT')) throw error;
        return this.#send(['EVAL', script, ...keyAndArgs]);
      }
    };
    return this.#bounded(operation, call());
  }

  /** Rejects when Redis fails or takes longer than the timeout, with the reason for the log. */
  async #bounded<T>(operation: string, pending: Promise<T>): Promise<T> {
    const timedOut = new Error(`the Redis store did not answer ${operation} within ${this.#timeoutMs} ms (is Redis up and reachable?)`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timedOut), this.#timeoutMs);
    });
    try {
      return await Promise.race([pending, timeout]);
    } catch (error) {
      if (error === timedOut) throw error;
      throw new Error(`the Redis store could not ${operation}: ${(error as Error | undefined)?.message ?? String(error)}`, {
        cause: error,
      });
    } finally {
      clearTimeout(timer);
      pending.catch(() => {}); // a late failure after the timeout is already reported
    }
  }
}

/**
 * The handler's store on Redis, for a connected client of the `redis` package (v4 or later) or
 * of `ioredis`:
 *
 * ```js
 * import { createClient } from 'redis';
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const handler = createSigningHandler({ ...options, store: createRedisStore(client) });
 * ```
 */
export function createRedisStore(client: NodeRedisClientLike | IoRedisClientLike, options: RedisStoreOptions = {}): HandlerStore {
  const send = rawCommands(client);
  const timeoutMs = options.timeoutMs ?? 2_000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new TypeError('createRedisStore: timeoutMs must be a positive number of milliseconds.');
  return new RedisStore(send, options.prefix ?? 'chatbot:', timeoutMs);
}
