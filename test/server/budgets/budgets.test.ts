// Send budgets per client address and the X-RateLimit headers, through the real handler over HTTP
// in front of the real emulator (its quota, its counting reply source). A test header stands in
// for the proxy header a site owner names with `clientAddress`, so one test can be many addresses.
import { afterEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TEXT } from '../../../src/server/core/responses.js';
import { jsonHeaders, newVisitor, rawRequest, type RawResponse } from '../helpers/handler-server.js';
import { STACK_BOT, startFaultyStack, type FaultyStack } from '../helpers/faulty-stack.js';
import { MemoryStore, type SigningHandlerOptions } from '../../../src/server/index.js';

const ADDRESS_HEADER = 'X-Test-Address';
const fromAddress = (request: Request) => request.headers.get(ADDRESS_HEADER);
const nextUtcMidnightSeconds = () => Math.floor(Date.now() / 86_400_000 + 1) * 86_400;
/**
 * A handler clock held in the middle of the current minute. Minute windows are fixed (by clock
 * minute): a test that counts sends in one must not see it turn over between two sends.
 */
const midMinute = () => {
  const held = Math.floor(Date.now() / 60_000) * 60_000 + 30_000;
  return () => held;
};

describe('send budgets and rate headers', () => {
  const running: FaultyStack[] = [];
  afterEach(async () => {
    for (const stack of running.splice(0)) await stack.close();
  });

  async function start(dailyLimit: number, handler: Partial<SigningHandlerOptions> = {}): Promise<FaultyStack> {
    const stack = await startFaultyStack({ dailyLimit, handler: { clientAddress: fromAddress, ...handler } });
    running.push(stack);
    return stack;
  }
  const identities = async (s: FaultyStack, count: number, address: string) => {
    const tokens: string[] = [];
    for (let i = 0; i < count; i++) tokens.push((await newVisitor(s.handler.port, { [ADDRESS_HEADER]: address })).token);
    return tokens;
  };
  const sendFrom = (s: FaultyStack, token: string, address: string, text = 'hello', key?: string) =>
    s.send(token, text, key, { [ADDRESS_HEADER]: address });
  const statuses = (answers: RawResponse[]) => answers.map((a) => a.status);
  const upstreamSends = (s: FaultyStack) => s.proxy.requests.filter((r) => r.faulty).length;

  it('one address with 30 identities sends at most 20 a minute; the refused never reach upstream', async () => {
    const s = await start(10_000, { now: midMinute() });
    const tokens = await identities(s, 30, '198.51.100.1');
    assert.equal((await sendFrom(s, tokens[0]!, '198.51.100.1')).status, 200, 'the first send learns the quota');
    const answers = await Promise.all(tokens.slice(1).map((token) => sendFrom(s, token, '198.51.100.1')));
    assert.equal(answers.filter((a) => a.status === 200).length, 19);
    const refused = answers.filter((a) => a.status === 429);
    assert.equal(refused.length, 10);
    for (const answer of refused) {
      assert.equal(answer.json.error, TEXT.tooManySendsFromAddress);
      assert.equal(answer.headers['retry-after'], '30', 'the rest of the minute the clock is held in the middle of');
      assert.equal(answer.headers['x-ratelimit-remaining'], '0');
    }
    assert.equal(upstreamSends(s), 20);
    assert.equal(s.replies(), 20, 'the reply source ran for the accepted sends only');
    assert.equal((await sendFrom(s, tokens[0]!, '198.51.100.2')).status, 200, 'another address is not held back');
  });

  it('one address spends at most 10 % of the daily quota a UTC day, whatever its identities; other addresses go on', async () => {
    const s = await start(100);
    const tokens = await identities(s, 15, '198.51.100.7');
    const answers: RawResponse[] = [];
    for (const token of tokens) answers.push(await sendFrom(s, token, '198.51.100.7'));
    assert.deepEqual(statuses(answers), [...Array(10).fill(200), ...Array(5).fill(429)]);
    const refused = answers[10]!;
    assert.equal(refused.json.error, TEXT.addressDailyLimit);
    assert.ok(
      Math.abs(Number(refused.headers['retry-after']) - (nextUtcMidnightSeconds() - Date.now() / 1000)) <= 2,
      'retry at the next UTC midnight',
    );
    assert.equal(upstreamSends(s), 10);
    const [elsewhere] = await identities(s, 1, '203.0.113.9');
    assert.equal((await sendFrom(s, elsewhere!, '203.0.113.9')).status, 200);
  });

  it('until upstream has reported its quota an address gets 10; then 10 % of what upstream reported', async () => {
    // Were the minute to turn over before the thirteenth send, the identity's minute (10) would
    // be the tightest window instead of the address's.
    const s = await start(1000, { now: midMinute() });
    const tokens = await identities(s, 25, '198.51.100.20');
    // Upstream slow enough that no answer (and no quota figure) arrives before all twelve counted.
    s.proxy.configure({ delayBeforeMs: 500 });
    const early = await Promise.all(tokens.slice(0, 12).map((token) => sendFrom(s, token, '198.51.100.20')));
    assert.equal(early.filter((a) => a.status === 200).length, 10, 'ten before the quota is known');
    assert.equal(early.filter((a) => a.status === 429).length, 2);
    // Now upstream said 1000 a day: the address may spend 100.
    s.proxy.configure({ delayBeforeMs: 0 });
    const later = await sendFrom(s, tokens[12]!, '198.51.100.20');
    assert.equal(later.status, 200, later.text);
    // Eleven of the address's 20 this minute (the two refused counted nowhere) and one of the
    // identity's 10: 9 left in both, no longer 0 of the address's day.
    assert.equal(later.headers['x-ratelimit-remaining'], '9');
  });

  it('a stored quota the handler did not write (null, a number, a list, bad figures, not JSON) reads as none reported', async () => {
    for (const [i, stored] of ['null', '7', '[]', '{"limit":"many"}', 'not json'].entries()) {
      const store = new MemoryStore();
      await store.add(`${STACK_BOT.id}:upstream-quota`, stored, Date.now() + 60_000);
      const s = await start(1000, { now: midMinute(), store });
      const address = `198.51.100.${40 + i}`;
      const tokens = await identities(s, 11, address);
      // No answer (and so no quota figure) arrives before all eleven are counted.
      s.proxy.configure({ delayBeforeMs: 500 });
      const answers = await Promise.all(tokens.map((token) => sendFrom(s, token, address)));
      assert.deepEqual(statuses(answers).sort(), [...Array(10).fill(200), 429], `${stored}: the assumed 100 a day, so 10 for the address`);
    }
  });

  it("ten addresses spend the free tier's 100; the 101st send is refused by upstream, and its reply source never ran for it", async () => {
    const s = await start(100);
    for (let a = 0; a < 10; a++) {
      const address = `192.0.2.${a + 1}`;
      const tokens = await identities(s, 10, address);
      const answers = await Promise.all(tokens.map((token) => sendFrom(s, token, address)));
      assert.deepEqual(statuses(answers), Array(10).fill(200), address);
    }
    const [late] = await identities(s, 1, '192.0.2.200');
    const refused = await sendFrom(s, late!, '192.0.2.200');
    assert.equal(refused.status, 429);
    assert.equal(refused.json.error, TEXT.upstreamBusy);
    assert.equal(refused.headers['x-ratelimit-remaining'], '0');
    assert.equal(s.replies(), 100);
    assert.equal(upstreamSends(s), 101, 'the handler let it through: upstream refused it itself');
  });

  it("identify() users are not held to the address budget (their own limits and upstream's apply)", async () => {
    const s = await start(100, { identify: (request) => ({ userId: request.headers.get('X-Test-User') ?? 'nobody' }) });
    const answers: RawResponse[] = [];
    for (let i = 0; i < 15; i++)
      answers.push(await s.send('', 'member says hi', undefined, { [ADDRESS_HEADER]: '198.51.100.50', 'X-Test-User': `member-${i}` }));
    assert.deepEqual(statuses(answers), Array(15).fill(200));
  });

  it("X-RateLimit headers give the tightest of the visitor's own, their address's and upstream's windows", async () => {
    const s = await start(100);
    const [token] = await identities(s, 1, '198.51.100.60');
    const sent = await sendFrom(s, token!, '198.51.100.60', 'count me', 'k-headers');
    assert.equal(sent.status, 200);
    // Own: 9 of 10 this minute, 99 of 100 today; address: 19 of 20, 9 of 10 (10 % of 100) today;
    // upstream: 99 of 100. Tightest: 9 left, and of the two windows with 9 the one that ends last.
    assert.equal(sent.headers['x-ratelimit-limit'], '10');
    assert.equal(sent.headers['x-ratelimit-remaining'], '9');
    assert.equal(sent.headers['x-ratelimit-reset'], String(nextUtcMidnightSeconds()));

    const replay = await sendFrom(s, token!, '198.51.100.60', 'count me', 'k-headers');
    assert.equal(replay.headers['x-ratelimit-remaining'], '9', 'a repeat answered from its record spends nothing');
    const badKey = await sendFrom(s, token!, '198.51.100.60', 'x', 'bad key!');
    assert.equal(badKey.status, 400);
    assert.equal(badKey.headers['x-ratelimit-remaining'], '9', 'refusals carry the figures too');

    const clock = midMinute();
    const member = await start(100, { identify: () => ({ userId: 'member-headers' }), now: clock });
    const own = await member.send('', 'member', undefined, { [ADDRESS_HEADER]: '198.51.100.61' });
    assert.equal(own.headers['x-ratelimit-limit'], '10', 'identity minute: 9 of 10 is tighter than 99 of 100 today');
    assert.equal(own.headers['x-ratelimit-remaining'], '9');
    assert.equal(own.headers['x-ratelimit-reset'], String(Math.ceil(clock() / 60_000) * 60));
  });

  it("the visitor's listings carry the figures, spending nothing: a page loaded again knows the day is spent", async () => {
    const s = await start(100, { limits: { sendsPerDay: 2 }, now: midMinute() });
    const [token] = await identities(s, 1, '198.51.100.62');
    const list = (path: string) =>
      rawRequest(s.handler.port, { path: `/chatbot/${path}`, headers: { ...jsonHeaders(token), [ADDRESS_HEADER]: '198.51.100.62' } });
    const before = await list('messages');
    assert.equal(before.status, 200);
    assert.equal(before.headers['x-ratelimit-remaining'], '2', 'nothing sent yet: the day limit of 2 is the tightest');
    for (let i = 0; i < 2; i++) assert.equal((await sendFrom(s, token!, '198.51.100.62', `day ${i}`)).status, 200);
    for (const path of ['messages', 'sessions', 'messages', 'sessions?page=1']) {
      const spent = await list(path);
      assert.equal(spent.status, 200, path);
      assert.equal(spent.headers['x-ratelimit-limit'], '2', path);
      assert.equal(spent.headers['x-ratelimit-remaining'], '0', path);
      assert.equal(spent.headers['x-ratelimit-reset'], String(nextUtcMidnightSeconds()), path);
    }
    const refused = await sendFrom(s, token!, '198.51.100.62', 'one more');
    assert.equal(refused.status, 429);
    assert.equal(refused.json.error, TEXT.dailyLimit, 'the listings spent nothing: the third send is the first refused');
    assert.equal(upstreamSends(s), 2);
    const someoneElse = await rawRequest(s.handler.port, { path: '/chatbot/messages', headers: { [ADDRESS_HEADER]: '198.51.100.62' } });
    assert.equal(someoneElse.status, 401);
    assert.equal(someoneElse.headers['x-ratelimit-remaining'], undefined, 'no identity, no figures');
  });

  it("a listing reads the visitor's budget while upstream answers, not after it (the store adds no wait)", async () => {
    // Upstream answers a listing only once the handler has begun reading the budget's day window:
    // a handler that read it only after upstream's answer would keep every listing waiting here.
    const budgetReads: string[] = [];
    class WatchedStore extends MemoryStore {
      override get(key: string) {
        if (key.includes(':send-day:')) budgetReads.push(key);
        return super.get(key);
      }
    }
    const answeredAfterReads: boolean[] = [];
    const upstreamFetch: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (/\/(messages|sessions)\?/.test(url)) {
        const begun = () => budgetReads.length > 0;
        for (const started = Date.now(); !begun() && Date.now() - started < 2_000;) await new Promise((resolve) => setTimeout(resolve, 5));
        answeredAfterReads.push(begun());
        budgetReads.length = 0;
      }
      return fetch(input, init);
    };
    const s = await start(100, { store: new WatchedStore(), fetch: upstreamFetch });
    const [token] = await identities(s, 1, '198.51.100.63');
    for (const path of ['messages', 'sessions']) {
      const listed = await rawRequest(s.handler.port, {
        path: `/chatbot/${path}`,
        headers: { ...jsonHeaders(token), [ADDRESS_HEADER]: '198.51.100.63' },
      });
      assert.equal(listed.status, 200, path);
      assert.ok(listed.headers['x-ratelimit-remaining'], `${path}: the figures`);
    }
    assert.deepEqual(answeredAfterReads, [true, true], 'each listing began reading the budget before upstream answered');
  });

  it('repeats answered from their record do not count against limits', async () => {
    const s = await start(10_000, { limits: { sendsPerMinute: 2 }, now: midMinute() });
    const [token] = await identities(s, 1, '198.51.100.70');
    for (let i = 0; i < 4; i++) assert.equal((await sendFrom(s, token!, '198.51.100.70', 'again', 'k-once')).status, 200);
    assert.equal((await sendFrom(s, token!, '198.51.100.70', 'second', 'k-twice')).status, 200);
    const third = await sendFrom(s, token!, '198.51.100.70', 'third', 'k-thrice');
    assert.equal(third.status, 429);
    assert.equal(third.json.error, TEXT.tooManySends);
    assert.equal(upstreamSends(s), 2);
  });

  it("the default store keeps the handler's clock: windows end when the handler's now says, not the machine's", async () => {
    // The handler's clock held 70 s back: its minute ended 10 to 70 s ago by the machine's clock
    // (still within upstream's signature window). A store on the machine's clock would forget
    // every count at once.
    const held = Date.now() - 70_000;
    const s = await start(10_000, { limits: { sendsPerMinute: 2 }, now: () => held });
    const [token] = await identities(s, 1, '198.51.100.73');
    assert.deepEqual(
      statuses([await sendFrom(s, token!, '198.51.100.73', 'one'), await sendFrom(s, token!, '198.51.100.73', 'two')]),
      [200, 200],
    );
    assert.equal((await sendFrom(s, token!, '198.51.100.73', 'three')).status, 429);
  });

  it('a send refused for its body counts nowhere, with a key or without', async () => {
    const s = await start(10_000, { limits: { sendsPerMinute: 2 }, now: midMinute() });
    const [token] = await identities(s, 1, '198.51.100.72');
    for (let i = 0; i < 3; i++) {
      assert.equal((await sendFrom(s, token!, '198.51.100.72', '', `k-empty-${i}`)).status, 400);
      assert.equal((await sendFrom(s, token!, '198.51.100.72', '')).status, 400);
    }
    const first = await sendFrom(s, token!, '198.51.100.72', 'now a real one', 'k-real');
    assert.equal(first.status, 200, first.text);
    assert.equal(first.headers['x-ratelimit-remaining'], '1', 'one of two spent: the six refused bodies spent nothing');
    assert.equal((await sendFrom(s, token!, '198.51.100.72', 'and another')).status, 200);
    assert.equal((await sendFrom(s, token!, '198.51.100.72', 'one too many')).status, 429);
    assert.equal(upstreamSends(s), 2);
  });

  it('repeats that arrive together with one key cost one send, and a key refused by a limit is free again', async () => {
    let clock = midMinute()();
    const s = await start(10_000, { limits: { sendsPerMinute: 3 }, now: () => clock });
    const [token] = await identities(s, 1, '198.51.100.71');
    // All five are in the handler before any has taken the key (their bodies come 300 ms after
    // their headers), and upstream is slow to store.
    s.proxy.configure({ delayBeforeMs: 400 });
    const storm = () =>
      rawRequest(s.handler.port, {
        method: 'POST',
        path: '/chatbot/message',
        headers: { ...jsonHeaders(token), 'Idempotency-Key': 'k-storm', [ADDRESS_HEADER]: '198.51.100.71' },
        body: JSON.stringify({ content: 'storm' }),
        bodyDelayMs: 300,
      });
    const together = await Promise.all(Array.from({ length: 5 }, storm));
    assert.deepEqual(statuses(together), Array(5).fill(200));
    assert.equal(together.filter((a) => a.headers['idempotency-replayed'] === 'true').length, 4, 'four answered from the record');
    assert.equal(upstreamSends(s), 1);
    s.proxy.configure({ delayBeforeMs: 0 });
    const next = await sendFrom(s, token!, '198.51.100.71', 'next', 'k-next');
    assert.equal(next.status, 200, next.text);
    assert.equal(next.headers['x-ratelimit-remaining'], '1', 'two of three spent: the storm counted once');
    assert.equal((await sendFrom(s, token!, '198.51.100.71', 'third', 'k-third')).status, 200);
    const refused = await sendFrom(s, token!, '198.51.100.71', 'over', 'k-over');
    assert.equal(refused.status, 429);
    // The refused key was given back, not left held: its repeat is refused at once, by the limit
    // again (a held key would make it wait for the holder's lease).
    const repeating = sendFrom(s, token!, '198.51.100.71', 'over', 'k-over');
    const repeat = await Promise.race([repeating, new Promise<undefined>((resolve) => setTimeout(resolve, 3_000))]);
    clock += 60_000; // were it held, its lease ends now: the test ends either way
    await repeating;
    assert.equal(repeat?.status, 429, 'answered at once');
    assert.equal(upstreamSends(s), 3);
  });

  it('cross-origin callers may send Idempotency-Key and DELETE, and read the rate headers', async () => {
    const s = await start(100, { allowedOrigins: ['https://shop.example'] });
    const preflight = await rawRequest(s.handler.port, {
      method: 'OPTIONS',
      path: '/chatbot/message',
      headers: {
        Origin: 'https://shop.example',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'idempotency-key, content-type, authorization',
      },
    });
    assert.equal(preflight.status, 204);
    assert.match(String(preflight.headers['access-control-allow-headers']), /Idempotency-Key/);
    assert.match(String(preflight.headers['access-control-allow-methods']), /DELETE/);
    const [token] = await identities(s, 1, '198.51.100.80');
    const sent = await sendFrom(s, token!, '198.51.100.80', 'from the shop', undefined);
    assert.equal(sent.status, 200);
    const cors = await s.send(token!, 'cors', 'k-cors', { Origin: 'https://shop.example', [ADDRESS_HEADER]: '198.51.100.80' });
    for (const name of ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
      assert.match(String(cors.headers['access-control-expose-headers']), new RegExp(name));
    }
  });
});
