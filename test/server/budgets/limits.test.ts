// The handler's own limits: sends per identity per minute and per day, new visitors per client
// address, 429 with Retry-After, a pluggable store. The handler is called in-process with Web
// Requests (its core API) in front of the real recording upstream, on a controlled clock.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startRecordingUpstream, API_KEY, API_SECRET, CHATBOT_ID, type RecordingUpstream } from '../helpers/recording-upstream.js';
import { createSigningHandler, MemoryStore, type HandlerStore, type SigningHandlerOptions } from '../../../src/server/index.js';

describe('limits', () => {
  let upstream: RecordingUpstream;
  let clock: number;

  before(async () => {
    upstream = await startRecordingUpstream();
  });
  after(() => upstream.close());
  beforeEach(() => {
    upstream.reset();
    clock = Date.now();
  });

  function makeHandler(options: Partial<SigningHandlerOptions> = {}) {
    return createSigningHandler({
      apiBaseUrl: upstream.baseUrl,
      apiKey: API_KEY,
      apiSecret: API_SECRET,
      chatbotId: CHATBOT_ID,
      now: () => clock,
      logger: { warn() {}, error() {} },
      ...options,
    });
  }
  type Handler = ReturnType<typeof makeHandler>;

  async function visitor(handler: Handler, address = '192.0.2.1', headers: Record<string, string> = {}) {
    return handler(
      new Request('http://localhost/chatbot/visitor', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body: '{}',
      }),
      { clientAddress: address },
    );
  }
  async function token(handler: Handler, address?: string): Promise<string> {
    const response = await visitor(handler, address);
    assert.equal(response.status, 200);
    return ((await response.json()) as { data: { token: string } }).data.token;
  }
  function send(handler: Handler, bearer: string, body = '{"content":"hi"}') {
    return handler(
      new Request('http://localhost/chatbot/message', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${bearer}` },
        body,
      }),
    );
  }

  it('refuses the send past sendsPerMinute with 429 and Retry-After, and allows it again in the next minute', async () => {
    const handler = makeHandler({ limits: { sendsPerMinute: 2 } });
    const bearer = await token(handler);
    clock = Math.floor(clock / 60_000) * 60_000 + 15_000; // 15 s into a minute
    assert.equal((await send(handler, bearer)).status, 200);
    assert.equal((await send(handler, bearer)).status, 200);
    const refused = await send(handler, bearer);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('Retry-After'), '45');
    assert.equal(refused.headers.get('Cache-Control'), 'no-store');
    assert.match(((await refused.json()) as { error: string }).error, /too quickly/);
    assert.equal(upstream.requests.length, 2, 'the refused send never reached upstream');
    clock += 46_000;
    assert.equal((await send(handler, bearer)).status, 200);
  });

  it('counts per identity: another visitor is not held back', async () => {
    const handler = makeHandler({ limits: { sendsPerMinute: 1 } });
    const first = await token(handler);
    const second = await token(handler);
    assert.equal((await send(handler, first)).status, 200);
    assert.equal((await send(handler, first)).status, 429);
    assert.equal((await send(handler, second)).status, 200);
  });

  it('refuses past sendsPerDay until the next UTC midnight', async () => {
    const handler = makeHandler({ limits: { sendsPerMinute: 100, sendsPerDay: 2 } });
    const bearer = await token(handler);
    await send(handler, bearer);
    await send(handler, bearer);
    const refused = await send(handler, bearer);
    assert.equal(refused.status, 429);
    const untilMidnight = Math.ceil((Math.floor(clock / 86_400_000 + 1) * 86_400_000 - clock) / 1000);
    assert.equal(refused.headers.get('Retry-After'), String(Math.max(1, untilMidnight)));
    assert.match(((await refused.json()) as { error: string }).error, /today/);
  });

  it('counts the sends handed to upstream: not those refused for their body, nor those without identity', async () => {
    const handler = makeHandler({ limits: { sendsPerMinute: 2 } });
    const bearer = await token(handler);
    assert.equal((await send(handler, 'forged')).status, 401);
    assert.equal((await send(handler, bearer, '{"content":""}')).status, 400);
    assert.equal((await send(handler, bearer, '{"content":"ok"}')).status, 200);
    assert.equal((await send(handler, bearer, '{"content":"ok"}')).status, 200);
    assert.equal((await send(handler, bearer, '{"content":"ok"}')).status, 429);
    assert.equal(upstream.requests.length, 2);
  });

  it('limits new visitors per client address; renewals do not count; X-Forwarded-For is not trusted', async () => {
    const handler = makeHandler({ limits: { visitorsPerMinutePerAddress: 2 } });
    const bearer = await token(handler, '192.0.2.7');
    assert.equal((await visitor(handler, '192.0.2.7', { 'X-Forwarded-For': '203.0.113.1' })).status, 200);
    const refused = await visitor(handler, '192.0.2.7', { 'X-Forwarded-For': '203.0.113.2' });
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('Retry-After')) >= 1);
    assert.match(((await refused.json()) as { error: string }).error, /new chats/);
    assert.equal(
      (await visitor(handler, '192.0.2.7', { Authorization: `Bearer ${bearer}` })).status,
      200,
      'a renewal is not a new visitor',
    );
    assert.equal((await visitor(handler, '198.51.100.9')).status, 200, 'another address has its own count');
  });

  it('a clientAddress option names the proxy header to trust', async () => {
    const handler = makeHandler({ limits: { visitorsPerMinutePerAddress: 1 }, clientAddress: (r) => r.headers.get('CF-Connecting-IP') });
    const as = (ip: string) =>
      handler(
        new Request('http://localhost/chatbot/visitor', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': ip },
        }),
        { clientAddress: '10.0.0.1' },
      );
    assert.equal((await as('203.0.113.1')).status, 200);
    assert.equal((await as('203.0.113.2')).status, 200);
    assert.equal((await as('203.0.113.1')).status, 429);
  });

  it('counts in the store it is given, under keys named by window, until the window ends', async () => {
    const calls: Array<[string, number]> = [];
    const inner = new MemoryStore({ now: () => clock });
    const store: HandlerStore = {
      increment(key, expiresAt) {
        calls.push([key, expiresAt]);
        return inner.increment(key, expiresAt);
      },
      get: (key) => inner.get(key),
      add: (key, value, expiresAt) => inner.add(key, value, expiresAt),
      swap: (key, expected, value, expiresAt) => inner.swap(key, expected, value, expiresAt),
      putRecord: (set, record, expiresAt) => inner.putRecord(set, record, expiresAt),
      deleteRecord: (set, id) => inner.deleteRecord(set, id),
      listRecords: (set, range) => inner.listRecords(set, range),
      countRecords: (set, range) => inner.countRecords(set, range),
    };
    const handler = makeHandler({ store, limits: { sendsPerMinute: 1 } });
    const bearer = await token(handler, '192.0.2.50');
    await send(handler, bearer);
    assert.equal((await send(handler, bearer)).status, 429);
    const keys = calls.map(([key]) => key);
    assert.ok(keys.some((k) => k.startsWith(`${CHATBOT_ID}:visitor-minute:192.0.2.50:`)));
    assert.ok(keys.some((k) => k.startsWith(`${CHATBOT_ID}:send-minute:v_`)));
    assert.ok(keys.some((k) => k.startsWith(`${CHATBOT_ID}:send-day:v_`)));
    for (const [key, expiresAt] of calls) {
      assert.ok(expiresAt > clock, `${key} expires in the future`);
      assert.ok(expiresAt - clock <= (key.includes('day') ? 86_400_000 : 60_000));
    }
  });
});
