// Which outcomes a key keeps, and what the handler does when its store fails or fills up. The
// handler runs in-process with Web Requests in front of the recording upstream, which can answer
// anything, so every upstream call (or its absence) is visible.
import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CHATBOT_ID } from '../helpers/recording-upstream.js';
import { createSigningHandler, MemoryStore, type HandlerStore, type SigningHandlerOptions } from '../../../src/server/index.js';
import { TEXT } from '../../../src/server/core/responses.js';
import { handlerOptions, logInto, ROOMY_SEND_LIMITS, type CapturedLog } from '../helpers/handler-options.js';
import { recordingUpstreamForFile } from '../helpers/stack-for-file.js';

const upstream = await recordingUpstreamForFile();

describe('idempotency outcomes and the store', () => {
  let logs: CapturedLog[];
  beforeEach(() => {
    logs = [];
  });

  const makeHandler = (options: Partial<SigningHandlerOptions> = {}) =>
    createSigningHandler(handlerOptions(upstream, { limits: ROOMY_SEND_LIMITS, logger: logInto(logs), ...options }));
  type Handler = ReturnType<typeof makeHandler>;
  async function visitor(handler: Handler): Promise<{ token: string; userId: string }> {
    const response = await handler(
      new Request('http://localhost/chatbot/visitor', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
    );
    assert.equal(response.status, 200);
    return ((await response.json()) as { data: { token: string; userId: string } }).data;
  }
  function send(handler: Handler, token: string, content: string, key?: string) {
    return handler(
      new Request('http://localhost/chatbot/message', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, ...(key ? { 'Idempotency-Key': key } : {}) },
        body: JSON.stringify({ content }),
      }),
    );
  }
  const posts = () => upstream.requests.filter((r) => r.method === 'POST').length;
  /** Keyed sends whose answers upstream lost (a 5xx): each key is left uncertain. */
  async function lostSends(handler: Handler, token: string, content: string, ...keys: string[]) {
    upstream.override = (r) => (r.method === 'POST' ? { status: 500, body: '{"data":null,"error":"boom"}' } : undefined);
    for (const key of keys) assert.equal((await send(handler, token, content, key)).status, 502);
    upstream.override = undefined;
  }

  it('keeps an upstream 400 about the message: the repeat gets it without calling upstream', async () => {
    const handler = makeHandler();
    const { token } = await visitor(handler);
    const validation = JSON.stringify({
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: { 'message.content': ['Not allowed.'] },
    });
    upstream.override = (r) => (r.method === 'POST' ? { status: 400, body: validation } : undefined);
    const first = await send(handler, token, 'refused by upstream', 'k-400');
    assert.equal(first.status, 400);
    const firstText = await first.text();
    upstream.override = undefined;
    const repeat = await send(handler, token, 'refused by upstream', 'k-400');
    assert.equal(repeat.status, 400);
    assert.equal(await repeat.text(), firstText);
    assert.equal(posts(), 1);
  });

  it("does not keep upstream's 429: nothing was stored, so the retry sends", async () => {
    const handler = makeHandler();
    const { token, userId } = await visitor(handler);
    upstream.override = (r) =>
      r.method === 'POST'
        ? {
            status: 429,
            headers: { 'Content-Type': 'application/json', 'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) + 60) },
            body: '{"data":null,"error":"quota"}',
          }
        : undefined;
    assert.equal((await send(handler, token, 'later', 'k-429')).status, 429);
    upstream.override = undefined;
    const retry = await send(handler, token, 'later', 'k-429');
    assert.equal(retry.status, 200);
    assert.equal(posts(), 2);
    assert.equal(
      upstream.requests.filter((r) => r.method === 'GET' && r.query.get('userId') === userId).length,
      1,
      'no look-up before the retry, one to name the stored messages',
    );
  });

  it('two keys whose questions upstream stamped in the same millisecond: each retry names its own question and a reply of its own', async () => {
    const handler = makeHandler();
    const { token, userId } = await visitor(handler);
    // Both sends fail with a 5xx, yet upstream stored them (seeded below): two tabs, one instant.
    await lostSends(handler, token, 'yes', 'k-tab1', 'k-tab2');
    const at = Date.now();
    const asked = (ms: number) => new Date(at + ms).toISOString();
    for (const id of ['q1', 'q2']) upstream.seed({ id, chatUserId: userId, text: 'yes', createdAt: asked(0) });
    for (const [id, ms] of [
      ['r1', 300],
      ['r2', 301],
    ] as const)
      upstream.seed({ id, chatUserId: userId, text: 'You said: yes', senderType: 'Bot', createdAt: asked(ms), responseTime: ms / 1000 });
    const named = async (key: string) => {
      const retry = await send(handler, token, 'yes', key);
      assert.equal(retry.status, 200);
      return ((await retry.json()) as { stored: { id: string }[] }).stored.map((m) => m.id);
    };
    const first = await named('k-tab1');
    const second = await named('k-tab2');
    assert.equal(first.length, 2);
    assert.equal(second.length, 2);
    assert.equal(new Set([...first, ...second]).size, 4, `no message named twice: ${first} and ${second}`);
    assert.equal(posts(), 2, 'the retries sent nothing');
  });

  it('a look-up page that cannot be read (the first, or an older one it needs) answers 502 and sends nothing; the next retry finds the message', async () => {
    for (const [page, newer] of [
      ['1', 0],
      ['2', 30],
    ] as const) {
      upstream.reset();
      const handler = makeHandler();
      const { token, userId } = await visitor(handler);
      await lostSends(handler, token, 'stored after all', 'k-unread');
      // Upstream stored it after all; `newer` exchanges from another tab since push it onto page 2.
      upstream.seed({ id: 'q-unread', chatUserId: userId, text: 'stored after all' });
      upstream.seed({ id: 'r-unread', chatUserId: userId, text: 'You said: stored after all', senderType: 'Bot' });
      for (let i = 0; i < newer; i++) {
        upstream.seed({ chatUserId: userId, text: `meanwhile ${i}` });
        upstream.seed({ chatUserId: userId, text: `You said: meanwhile ${i}`, senderType: 'Bot' });
      }
      // An answer that is not a listing (a 5xx is refused the same way by every upstream call).
      upstream.override = (r) =>
        r.method === 'GET' && r.query.get('page') === page ? { status: 200, body: '{"data":"not a list","error":null}' } : undefined;
      assert.equal((await send(handler, token, 'stored after all', 'k-unread')).status, 502, `no verdict without page ${page}`);
      assert.equal(posts(), 1, 'not sent again');
      upstream.override = undefined;
      const retry = await send(handler, token, 'stored after all', 'k-unread');
      assert.equal(retry.status, 200);
      const body = (await retry.json()) as { data: string; stored: { id: string }[] };
      assert.deepEqual(
        body.stored.map((m) => m.id),
        ['q-unread', 'r-unread'],
      );
      assert.equal(body.data, 'You said: stored after all');
      assert.equal(posts(), 1, 'found, not sent again');
    }
  });

  it('after a 5xx the key is uncertain: the retry looks upstream, finds nothing, sends once', async () => {
    const handler = makeHandler();
    const { token, userId } = await visitor(handler);
    // The same text sent a minute ago and never claimed: not this attempt's, so not an answer to it.
    upstream.seed({ chatUserId: userId, text: 'after a fault', createdAt: new Date(Date.now() - 60_000).toISOString() });
    upstream.seed({
      chatUserId: userId,
      text: 'You said: after a fault',
      senderType: 'Bot',
      createdAt: new Date(Date.now() - 59_000).toISOString(),
    });
    await lostSends(handler, token, 'after a fault', 'k-500');
    const retry = await send(handler, token, 'after a fault', 'k-500');
    assert.equal(retry.status, 200);
    const body = (await retry.json()) as { stored: Array<{ text: string; chatUserId: string; createdAt: string }> };
    assert.deepEqual(
      body.stored.map((m) => m.text),
      ['after a fault', 'You said: after a fault'],
    );
    assert.ok(Date.parse(body.stored[0]!.createdAt) > Date.now() - 10_000, 'the message this retry stored, not the old one');
    assert.deepEqual(
      upstream.requests.map((r) => `${r.method} ${r.path.split('/').pop()}`),
      ['POST message', 'GET messages', 'POST message', 'GET messages'],
      'fault, look-up, send, naming the stored pair',
    );
    assert.ok(upstream.requests.filter((r) => r.method === 'GET').every((r) => r.query.get('userId') === userId));
  });

  it('a holder that never finished (crashed instance) holds the key only until its lease ends; its attempt is looked for', async () => {
    const store = new MemoryStore();
    const handler = makeHandler({ store });
    const { token, userId } = await visitor(handler);
    const started = Date.now();
    // What an instance leaves behind when it dies mid-send: a pending record with a lease.
    const pending = {
      state: 'pending',
      owner: 'dead-instance',
      leaseUntil: started + 400,
      startedAt: started,
      content: 'from the dead',
      attempts: [],
    };
    await store.add(`${CHATBOT_ID}:idem:${userId}:k-crash`, JSON.stringify(pending), started + 86_400_000);
    // …and what that instance managed to send before it died.
    upstream.seed({ chatUserId: userId, text: 'from the dead', createdAt: new Date(started + 10).toISOString() });
    upstream.seed({
      chatUserId: userId,
      text: 'You said: from the dead',
      senderType: 'Bot',
      createdAt: new Date(started + 20).toISOString(),
    });
    const response = await send(handler, token, 'from the dead', 'k-crash');
    const waited = Date.now() - started;
    assert.equal(response.status, 200);
    assert.ok(waited >= 350, `waited for the lease (${waited} ms)`);
    assert.ok(waited < 5_000, `but not forever (${waited} ms)`);
    const body = (await response.json()) as { data: string; stored: Array<{ text: string }> };
    assert.equal(body.data, 'You said: from the dead');
    assert.equal(posts(), 0, 'found upstream, not sent again');
  });

  it('a store that rejects: 503 with a visitor text, one log line for the owner, nothing upstream', async () => {
    const failing: HandlerStore = {
      increment: () =>
        Promise.reject(Object.assign(new Error('connect ECONNREFUSED redis://:hunter2@cache:6379'), { code: 'ECONNREFUSED' })),
      get: () => Promise.reject(new Error('down')),
      add: () => Promise.reject(new Error('down')),
      swap: () => Promise.reject(new Error('down')),
      putRecord: () => Promise.reject(new Error('down')),
      deleteRecord: () => Promise.reject(new Error('down')),
      listRecords: () => Promise.reject(new Error('down')),
      countRecords: () => Promise.reject(new Error('down')),
    };
    const working = makeHandler();
    const { token } = await visitor(working);
    const handler = makeHandler({ store: failing });
    for (let i = 0; i < 3; i++) {
      const response = await send(handler, token, 'hi', `k-down-${i}`);
      assert.equal(response.status, 503);
      assert.equal(((await response.json()) as { error: string }).error, TEXT.storeDown);
      assert.equal(response.headers.get('Retry-After'), '30');
    }
    const visitorAnswer = await handler(
      new Request('http://localhost/chatbot/visitor', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
    );
    assert.equal(visitorAnswer.status, 503, 'no identity is issued unchecked either');
    assert.equal(upstream.requests.length, 0);
    const errors = logs.filter((l) => l.level === 'error');
    assert.equal(errors.length, 1, `one log line, not one per request: ${JSON.stringify(errors)}`);
    assert.match(errors[0]!.message, /store failed.*503.*store option/);
    assert.doesNotMatch(errors[0]!.message, /hunter2/, 'no connection secret in the log');
  });

  it('a full store: new keys are refused with 503 "busy", nothing lost or duplicated, and it works again once keys expire', async () => {
    let storeClock = Date.now();
    const store = new MemoryStore({ maxKeys: 12, now: () => storeClock });
    const handler = makeHandler({ store });
    const { token, userId } = await visitor(handler);
    const answered = new Map<string, string>();
    let full: Response | undefined;
    for (let i = 0; i < 12 && !full; i++) {
      const response = await send(handler, token, `message ${i}`, `k-full-${i}`);
      if (response.status === 503) full = response;
      else {
        assert.equal(response.status, 200);
        answered.set(`k-full-${i}`, await response.text());
      }
    }
    assert.ok(full, 'the store filled up');
    assert.equal(((await full.json()) as { error: string }).error, TEXT.storeFull);
    assert.equal(full.headers.get('Retry-After'), '60');
    // Twelve keys hold the visitor's and the budgets' keys and the records of two sends.
    assert.equal(answered.size, 2, 'sends answered before the store filled');
    const storedBefore = upstream.requests.filter((r) => r.method === 'POST').length;
    assert.equal(storedBefore, answered.size, 'the refused send never reached upstream');
    for (const [key, text] of answered) {
      const repeat = await send(handler, token, 'ignored', key);
      assert.equal(await repeat.text(), text, `${key}: its record is intact while the store is full`);
    }
    assert.equal(posts(), answered.size, 'no repeat was sent again');
    assert.deepEqual(logs, [
      {
        level: 'error',
        message:
          "the handler's store is full (the handler's memory store holds 12 live keys, its maxKeys): new sends are refused with 503 until keys expire. Give it more room (MemoryStore maxKeys, or a shared store).",
      },
    ]);

    storeClock += 25 * 3_600_000; // every window and record has expired
    // Without a key: only the store's clock moved (upstream checks signatures against the real
    // one), so a key's record written now would read back as expired and its holder lose it.
    const later = await send(handler, token, 'after expiry');
    assert.equal(later.status, 200);
    assert.equal(upstream.requests.filter((r) => r.method === 'POST' && r.body.includes(userId)).length, answered.size + 1);
  });

  it('a store that fails after upstream accepted: the visitor still gets the reply, and a retry later is not sent again', async () => {
    const memory = new MemoryStore();
    let swapsFail = false;
    const flaky: HandlerStore = {
      increment: (key, expiresAt) => memory.increment(key, expiresAt),
      get: (key) => memory.get(key),
      add: (key, value, expiresAt) => memory.add(key, value, expiresAt),
      swap: (key, expected, value, expiresAt) =>
        swapsFail ? Promise.reject(new Error('timeout')) : memory.swap(key, expected, value, expiresAt),
      putRecord: (set, record, expiresAt) => memory.putRecord(set, record, expiresAt),
      deleteRecord: (set, id) => memory.deleteRecord(set, id),
      listRecords: (set, range) => memory.listRecords(set, range),
      countRecords: (set, range) => memory.countRecords(set, range),
    };
    // The handler's clock runs ahead on demand: its key's lease (3 × timeout + 5 s) ends without a
    // real wait, while upstream's times stay real (the look-up compares them with the attempt's).
    let ahead = 0;
    const handler = makeHandler({ store: flaky, upstreamTimeoutMs: 200, now: () => Date.now() + ahead });
    const { token } = await visitor(handler);
    // The store fails from the moment upstream has the send.
    upstream.override = (r) => {
      if (r.method === 'POST') swapsFail = true;
      return undefined;
    };
    const first = await send(handler, token, 'recorded late', 'k-flaky');
    upstream.override = undefined;
    assert.equal(first.status, 200, 'the answer upstream gave, not a 503');
    const firstBody = (await first.json()) as { stored: Array<{ id: string }> };
    swapsFail = false;
    ahead = 5_700; // past the lease
    const retry = await send(handler, token, 'recorded late', 'k-flaky');
    assert.equal(retry.status, 200);
    assert.equal(((await retry.json()) as { stored: Array<{ id: string }> }).stored[0]!.id, firstBody.stored[0]!.id);
    assert.equal(posts(), 1, 'found upstream, not sent twice');
  });
});
