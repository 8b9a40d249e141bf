// What a refused request costs the handler's store: nothing for bad input, nothing in any other
// window for a send refused by one, a bounded number of keys for anything else. The real handler
// is called in-process (many addresses through the adapter context, a fake clock through `now`)
// in front of the real emulator over HTTP; the stores are the memory store and a real redis-server.
import { after, afterEach, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createClient } from 'redis';
import { Agent, fetch as undiciFetch } from 'undici';
import { createEmulator } from '../../../src/emulator/index.js';
import { createSigningHandler, MemoryStore, type HandlerStore, type SigningHandlerOptions } from '../../../src/server/index.js';
import { createRedisStore } from '../../../src/server/stores/redis.js';
import { startRedisServer, type RunningRedis } from '../../helpers/redis-server.js';

const BOT = { id: 'bot_refusals', apiKey: 'pk_refusals_key', apiSecret: 'sk_refusals_secret_0123456789abcdef' };
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

interface Stack {
  handler: ReturnType<typeof createSigningHandler>;
  /** POST /message calls that reached upstream. */
  upstreamSends(): number;
  close(): Promise<void>;
}

/** A clock in the middle of a minute of today, well before UTC midnight, that the tests move on. */
function testClock() {
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  return { now: today + 12 * 60 * MINUTE_MS + 30_000 };
}

/**
 * For Redis, which expires keys by its own clock: the middle of a minute a little ahead of the
 * machine's, so no window the test counts in ends while it runs.
 */
function redisClock() {
  return { now: (Math.floor(Date.now() / MINUTE_MS) + 2) * MINUTE_MS + 30_000 };
}

async function startStack(
  clock: { now: number },
  store: HandlerStore,
  dailyLimit: number,
  handler: Partial<SigningHandlerOptions> = {},
): Promise<Stack> {
  const emulator = createEmulator({
    db: ':memory:',
    now: () => clock.now,
    chatbots: [{ ...BOT, tier: 'enterprise', dailyLimit }],
    replySource: { name: 'echo', reply: async (request) => `Echo: ${request.content}` },
  });
  const server = await emulator.listen({ port: 0 });
  let sends = 0;
  const fresh = new Agent({ pipelining: 0 });
  return {
    handler: createSigningHandler({
      apiBaseUrl: server.url,
      apiKey: BOT.apiKey,
      apiSecret: BOT.apiSecret,
      chatbotId: BOT.id,
      store,
      now: () => clock.now,
      logger: { warn() {}, error() {} },
      fetch: (input, init) => {
        const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
        if (init?.method === 'POST' && url.endsWith('/message')) sends++;
        // A connection per call: between the floods' few upstream calls a kept-alive one idles
        // past the emulator's keep-alive time, and a send on it as the server closes it fails.
        return undiciFetch(url, { ...init, dispatcher: fresh } as Parameters<typeof undiciFetch>[1]) as unknown as Promise<Response>;
      },
      ...handler,
    }),
    upstreamSends: () => sends,
    async close() {
      await server.close();
      await fresh.close();
      emulator.close();
    },
  };
}

const request = (method: string, path: string, token?: string, body?: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost/chatbot${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}), ...headers },
    body,
  });

/** The user id of each token issued here. */
const userIds = new Map<string, string>();

async function newVisitor(stack: Stack, address: string): Promise<string> {
  const response = await stack.handler(request('POST', '/visitor', undefined, '{}'), { clientAddress: address });
  assert.equal(response.status, 200, await response.clone().text());
  const { token, userId } = ((await response.json()) as { data: { token: string; userId: string } }).data;
  userIds.set(token, userId);
  return token;
}

function send(stack: Stack, token: string, address: string, content = 'hello', key?: string): Promise<Response> {
  const headers: Record<string, string> = key === undefined ? {} : { 'Idempotency-Key': key };
  return stack.handler(request('POST', '/message', token, JSON.stringify({ content }), headers), { clientAddress: address });
}

const userIdOf = (token: string) => userIds.get(token)!;

/** `count` addresses: IPv4 ones from a benchmark range and IPv6 /64s of one /48, half each. */
const manyAddresses = (count: number) =>
  Array.from({ length: count }, (_, i) => (i % 2 === 0 ? `198.18.${i >> 8}.${i & 255}` : `2001:db8:7:${i.toString(16)}::1`));

/**
 * Six hundred identities from forty addresses (more than the small memory store below has keys
 * for) make three thousand attempts, all refused; then a visitor who was already chatting
 * sends, and a brand-new visitor starts. `keys()` is what the store holds.
 */
async function refusedFlood(clock: { now: number }, store: HandlerStore, keys: () => Promise<number>) {
  const stack = await startStack(clock, store, 10_000, {
    // An address may send 10 a day (0.1 % of the 10,000 upstream reports), an identity 2 a minute.
    limits: { sendsPerMinute: 2, dailyQuotaSharePerAddress: 0.001, revocationsPerDay: 5 },
  });
  try {
    const statuses = new Map<number, number>();
    const tally = (response: Response) => statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);

    // What legitimate use wrote: a visitor who spent their minute, an address that spent its day.
    const regular = await newVisitor(stack, '203.0.113.1');
    for (const text of ['one', 'two']) assert.equal((await send(stack, regular, '203.0.113.1', text)).status, 200);
    const spentAddress = '203.0.113.2';
    for (let i = 0; i < 10; i++) assert.equal((await send(stack, await newVisitor(stack, spentAddress), spentAddress)).status, 200);

    // The addresses act at once, as a flood does; each address's own requests go one after another.
    const addresses = manyAddresses(40);
    const tokensByAddress = await Promise.all(
      addresses.map(async (address) => {
        const tokens: string[] = [];
        for (let i = 0; i < 15; i++) tokens.push(await newVisitor(stack, address));
        return tokens;
      }),
    );
    const tokens = tokensByAddress.flatMap((list, i) => list.map((token): [string, string] => [token, addresses[i]!]));
    const before = await keys();
    const sendsBefore = stack.upstreamSends();

    await Promise.all(
      addresses.map(async (address, i) => {
        for (const token of tokensByAddress[i]!) {
          tally(await send(stack, token, address, '')); // 400: no content
          tally(await send(stack, token, address, '   ', `k-${address}`)); // 400: no content, with a key
          tally(await send(stack, token, address, 'hi', 'not a key!')); // 400: malformed key
          tally(await send(stack, token, spentAddress, 'hi', 'k-spent')); // 429: the address's day
          tally(await send(stack, regular, address, 'hi')); // 429: the identity's minute
        }
      }),
    );
    // Revocations: five a day, then 429; the revoked identities are refused with 401.
    const revoked = tokens.slice(0, 200).map(([token]) => token);
    for (const token of revoked) tally(await stack.handler(request('DELETE', '/visitor', token), { clientAddress: '198.51.100.99' }));
    for (const token of revoked.slice(0, 5)) tally(await send(stack, token, '198.51.100.99'));

    assert.deepEqual(
      Object.fromEntries(statuses),
      { 400: tokens.length * 3, 429: tokens.length * 2 + revoked.length - 5, 204: 5, 401: 5 },
      `every attempt refused, none with 503: ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    assert.equal(stack.upstreamSends(), sendsBefore, 'none reached upstream');
    // The five revocation records, the day's count of them and their address's minute: nothing else.
    assert.equal(await keys(), before + 7, `${tokens.length * 5 + revoked.length + 5} refused attempts`);

    const answer = await send(stack, regular, '203.0.113.1', 'still here');
    assert.equal(answer.status, 429, 'the regular visitor spent their minute');
    clock.now += MINUTE_MS;
    const later = await send(stack, regular, '203.0.113.1', 'a minute later');
    assert.equal(later.status, 200, await later.text());
    const newcomer = await newVisitor(stack, '203.0.113.50');
    assert.equal((await send(stack, newcomer, '203.0.113.50', 'first words', 'k-first')).status, 200);
  } finally {
    await stack.close();
  }
}

describe('what a refused request costs the store', () => {
  const stores: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of stores.splice(0)) await close();
  });

  it('thousands of refused attempts from many addresses leave a small memory store room for everyone', async () => {
    const clock = testClock();
    // Room for what legitimate use writes here, not for two keys per refused identity.
    const store = new MemoryStore({ maxKeys: 250, now: () => clock.now });
    await refusedFlood(clock, store, async () => store.size);
  });

  describe('on Redis', () => {
    let redis: RunningRedis;
    let client: ReturnType<typeof createClient>;
    before(async () => {
      redis = await startRedisServer();
      client = createClient({ url: redis.url });
      client.on('error', () => {});
      await client.connect();
    });
    after(async () => {
      client.destroy();
      await redis.stop();
    });

    it('thousands of refused attempts add no keys to Redis, and visitors go on', async () => {
      const clock = redisClock();
      await client.flushAll();
      await refusedFlood(clock, createRedisStore(client), () => client.dbSize());
    });
  });

  it('a send refused for its body or its key writes nothing', async () => {
    const clock = testClock();
    const store = new MemoryStore({ now: () => clock.now });
    const stack = await startStack(clock, store, 10_000);
    stores.push(stack.close);
    const token = await newVisitor(stack, '203.0.113.5');
    const before = store.size;
    const bodies = ['{"content":""}', '{"content":"   "}', '{"content":"x","file":"ftp://a"}', '{"content":"x","name":7}', '{}', '[]'];
    for (const body of bodies)
      for (const key of [undefined, 'k-1'])
        assert.equal(
          (
            await stack.handler(request('POST', '/message', token, body, key ? { 'Idempotency-Key': key } : {}), {
              clientAddress: '203.0.113.5',
            })
          ).status,
          400,
          body,
        );
    assert.equal((await send(stack, token, '203.0.113.5', 'fine', 'bad key!')).status, 400);
    assert.equal(store.size, before, 'no counter, claim or record');
    assert.equal(stack.upstreamSends(), 0);
  });

  it("a send refused by one window leaves every other window's count exactly as it was", async () => {
    const clock = testClock();
    const store = new MemoryStore({ now: () => clock.now });
    const stack = await startStack(clock, store, 10_000, { limits: { sendsPerMinute: 2, dailyQuotaSharePerAddress: 0.0003 } });
    stores.push(stack.close);
    const window = (name: string, subject: string, ms: number) => `${BOT.id}:${name}:${subject}:${Math.floor(clock.now / ms)}`;
    const counts = async (userId: string, address: string) =>
      Promise.all([
        store.get(window('send-minute', userId, MINUTE_MS)),
        store.get(window('send-day', userId, DAY_MS)),
        store.get(window('address-send-minute', address, MINUTE_MS)),
        store.get(window('address-send-day', address, DAY_MS)),
      ]);

    // The identity's minute refuses: the address's windows and the identity's day stay.
    const token = await newVisitor(stack, '203.0.113.6');
    const userId = userIdOf(token);
    for (const text of ['one', 'two']) assert.equal((await send(stack, token, '203.0.113.6', text)).status, 200);
    assert.deepEqual(await counts(userId, '203.0.113.6'), ['2', '2', '2', '2']);
    const refused = await send(stack, token, '203.0.113.6', 'three', 'k-three');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('X-RateLimit-Remaining'), '0');
    assert.equal(refused.headers.get('Retry-After'), '30');
    assert.deepEqual(await counts(userId, '203.0.113.6'), ['2', '2', '2', '2']);

    // The address's day (3 = 0.03 % of 10,000, rounded up) refuses a fresh identity: it gets no window at all.
    const other = await newVisitor(stack, '203.0.113.6');
    assert.equal((await send(stack, other, '203.0.113.6', 'four')).status, 200);
    const fresh = await newVisitor(stack, '203.0.113.6');
    const dayRefused = await send(stack, fresh, '203.0.113.6', 'five');
    assert.equal(dayRefused.status, 429);
    assert.equal(dayRefused.headers.get('X-RateLimit-Remaining'), '0');
    assert.deepEqual(await counts(userIdOf(fresh), '203.0.113.6'), [undefined, undefined, '3', '3']);
    assert.equal(stack.upstreamSends(), 3);
  });

  it('of two sends racing for the last place, the one refused takes back what it counted', async () => {
    const clock = testClock();
    // Both sends read the windows before either counts: the race a shared store sees.
    let reading = 0;
    let release!: () => void;
    const bothRead = new Promise<void>((resolve) => (release = resolve));
    class RacingStore extends MemoryStore {
      override async get(key: string) {
        const value = await super.get(key);
        if (key.includes(':send-minute:')) {
          if (++reading === 2) release();
          await bothRead;
        }
        return value;
      }
    }
    const store = new RacingStore({ now: () => clock.now });
    const stack = await startStack(clock, store, 10_000, { limits: { sendsPerMinute: 1 } });
    stores.push(stack.close);
    const token = await newVisitor(stack, '203.0.113.8');
    const answers = await Promise.all([send(stack, token, '203.0.113.8', 'a', 'k-a'), send(stack, token, '203.0.113.8', 'b', 'k-b')]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 429]);
    const minute = Math.floor(clock.now / MINUTE_MS);
    const day = Math.floor(clock.now / DAY_MS);
    const userId = userIdOf(token);
    assert.deepEqual(
      await Promise.all([
        store.get(`${BOT.id}:address-send-day:203.0.113.8:${day}`),
        store.get(`${BOT.id}:address-send-minute:203.0.113.8:${minute}`),
        store.get(`${BOT.id}:send-day:${userId}:${day}`),
        store.get(`${BOT.id}:send-minute:${userId}:${minute}`),
      ]),
      ['1', '1', '1', '1'],
      'one send counted once everywhere',
    );
    assert.equal(stack.upstreamSends(), 1);
    // The refused send's key is free again: its retry goes (in the next minute).
    clock.now += MINUTE_MS;
    const refusedKey = answers[0]!.status === 429 ? 'k-a' : 'k-b';
    assert.equal((await send(stack, token, '203.0.113.8', 'again', refusedKey)).status, 200);
  });

  it('a keyed send that waited for its key into the next minute is checked again in that minute', async () => {
    const clock = testClock();
    let meanwhile: (() => Promise<void>) | undefined;
    class WaitingClaims extends MemoryStore {
      override async add(key: string, value: string, expiresAt: number) {
        const wait = key.includes(':idem:') ? meanwhile : undefined;
        meanwhile = undefined;
        await wait?.();
        return super.add(key, value, expiresAt);
      }
    }
    const store = new WaitingClaims({ now: () => clock.now });
    const stack = await startStack(clock, store, 10_000, { limits: { sendsPerMinute: 1 } });
    stores.push(stack.close);
    const token = await newVisitor(stack, '203.0.113.9');
    // While the keyed send takes its key the minute turns, and another send spends the new one.
    meanwhile = async () => {
      clock.now += MINUTE_MS;
      assert.equal((await send(stack, token, '203.0.113.9', 'meanwhile')).status, 200);
    };
    const late = await send(stack, token, '203.0.113.9', 'late', 'k-late');
    assert.equal(late.status, 429, await late.clone().text());
    assert.equal(stack.upstreamSends(), 1);
  });

  it("revocations take places in their address's new-visitor window; revoking again is free", async () => {
    const clock = testClock();
    const store = new MemoryStore({ now: () => clock.now });
    const stack = await startStack(clock, store, 10_000, { limits: { visitorsPerMinutePerAddress: 3 } });
    stores.push(stack.close);
    const revoke = async (token: string) =>
      (await stack.handler(request('DELETE', '/visitor', token), { clientAddress: '203.0.113.30' })).status;
    const first = await newVisitor(stack, '203.0.113.30');
    assert.equal(await revoke(first), 204);
    assert.equal(await revoke(first), 204, 'a retried reset');
    const second = await newVisitor(stack, '203.0.113.30');
    const before = store.size;
    const refused = await stack.handler(request('DELETE', '/visitor', second), { clientAddress: '203.0.113.30' });
    assert.equal(refused.status, 429, 'three places: a visitor, a revocation, a visitor');
    assert.equal(refused.headers.get('Retry-After'), '30', 'the rest of the minute the clock is in the middle of');
    assert.equal(store.size, before, 'nothing written');
    assert.equal((await send(stack, second, '203.0.113.30', 'still mine')).status, 200, 'the refused revocation left the token as it was');
    clock.now += MINUTE_MS;
    assert.equal(await revoke(second), 204);
    assert.equal((await send(stack, second, '203.0.113.30', 'gone')).status, 401);
  });

  it("while upstream's quota is spent one send a minute goes to upstream, the others are refused writing nothing", async () => {
    const clock = testClock();
    const store = new MemoryStore({ now: () => clock.now });
    const stack = await startStack(clock, store, 5);
    stores.push(stack.close);
    for (let i = 0; i < 5; i++)
      assert.equal((await send(stack, await newVisitor(stack, `203.0.113.${10 + i}`), `203.0.113.${10 + i}`)).status, 200);
    const addresses = manyAddresses(1_000);
    const tokens: Array<[string, string]> = [];
    for (const address of addresses) tokens.push([await newVisitor(stack, address), address]);
    const before = store.size;
    const answers = [];
    for (const [token, address] of tokens) answers.push(await send(stack, token, address, 'anyone there?'));
    assert.ok(answers.every((answer) => answer.status === 429));
    assert.equal(stack.upstreamSends(), 6, 'five spent the quota, one probe went on');
    const midnight = Math.ceil(clock.now / DAY_MS) * DAY_MS;
    assert.equal(answers[1]!.headers.get('Retry-After'), String(Math.ceil((midnight - clock.now) / 1000)));
    assert.equal(answers[1]!.headers.get('X-RateLimit-Remaining'), '0');
    // The probe's four windows and its slot; the 999 refused wrote nothing.
    assert.equal(store.size, before + 5);

    clock.now += MINUTE_MS;
    assert.equal((await send(stack, tokens[2]![0], tokens[2]![1], 'and now?')).status, 429);
    assert.equal((await send(stack, tokens[3]![0], tokens[3]![1], 'and now?')).status, 429);
    assert.equal(stack.upstreamSends(), 7, 'the next minute, one probe again');

    clock.now = midnight + MINUTE_MS; // upstream's day has reset
    assert.equal((await send(stack, tokens[4]![0], tokens[4]![1], 'a new day')).status, 200);
  });
});
