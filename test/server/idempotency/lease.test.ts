// A key's lease lasts as long as its holder works: the holder renews it before every upstream call,
// so a look-up of many slow pages never lets a second request take the key and send again; and a
// holder that did stall past its lease (another request took the key) never sends. Real emulator
// over HTTP behind a proxy; upstream is made slow by moving a fake clock, shared by the emulator
// and the handler, while the proxy holds each listing (no real waits).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ChatbotClient } from '../../../src/client/index.js';
import { MemoryStore, type HandlerStore, type RecordRange, type SetRecord } from '../../../src/server/index.js';
import { TEXT } from '../../../src/server/core/responses.js';
import { newVisitor } from '../helpers/handler-server.js';
import { startFaultyStack, STACK_BOT, type FaultyStack } from '../helpers/faulty-stack.js';

const ROOMY = { sendsPerMinute: 1000, sendsPerDay: 1000, sendsPerMinutePerAddress: 1000, dailyQuotaSharePerAddress: 1 };
const UPSTREAM_TIMEOUT_MS = 10_000;
/** The handler's lease: three upstream timeouts and a margin of 5 s. */
const LEASE_MS = UPSTREAM_TIMEOUT_MS * 3 + 5_000;
/** Each page of a listing takes just under the upstream timeout. */
const SLOW_PAGE_MS = UPSTREAM_TIMEOUT_MS - 1_000;
/** Exchanges another tab sent after the lost attempt: 160 messages, four pages of the look-up. */
const OTHER_TAB_EXCHANGES = 80;

const isListing = (method: string, target: string) => method === 'GET' && /\/messages\?/.test(target);

/** The handler's store, counting reads of idempotency records: a waiting or claiming request reads its key. */
class WatchedStore implements HandlerStore {
  private readonly inner: MemoryStore;
  keyReads = 0;
  constructor(now: () => number) {
    this.inner = new MemoryStore({ now });
  }
  increment(key: string, expiresAt: number) {
    return this.inner.increment(key, expiresAt);
  }
  get(key: string) {
    if (key.includes(':idem:')) this.keyReads++;
    return this.inner.get(key);
  }
  add(key: string, value: string, expiresAt: number) {
    return this.inner.add(key, value, expiresAt);
  }
  swap(key: string, expected: string, value: string | undefined, expiresAt: number) {
    return this.inner.swap(key, expected, value, expiresAt);
  }
  putRecord(set: string, record: SetRecord, expiresAt: number) {
    return this.inner.putRecord(set, record, expiresAt);
  }
  deleteRecord(set: string, id: string) {
    return this.inner.deleteRecord(set, id);
  }
  listRecords(set: string, range: RecordRange & { offset: number; limit: number }) {
    return this.inner.listRecords(set, range);
  }
  countRecords(set: string, range: RecordRange) {
    return this.inner.countRecords(set, range);
  }
}

/** Resolves once `check` holds, looking again on every turn of the event loop. */
async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setImmediate(resolve));
}

describe('idempotency leases', () => {
  let stack: FaultyStack;
  let offset = 0;
  const now = () => Date.now() + offset;
  const store = new WatchedStore(now);
  /** What the proxy does before forwarding a listing; nothing unless a test sets it. */
  let onListing: () => Promise<void> = async () => {};

  before(async () => {
    stack = await startFaultyStack({
      now,
      // Each visitor's first send fails upstream (500, nothing stored): its key is left uncertain.
      replyFails: (call) => failingCalls.has(call),
      proxy: { beforeForward: (method, target) => (isListing(method, target) ? onListing() : undefined) },
      handler: { limits: ROOMY, now, store, upstreamTimeoutMs: UPSTREAM_TIMEOUT_MS },
    });
  });
  after(() => stack.close());

  const failingCalls = new Set<number>();
  const questions = async (userId: string, text: string) =>
    (await stack.stored(userId)).filter((m) => m.senderType === 'User' && m.text === text);
  const sendsForwarded = () => stack.proxy.requests.filter((r) => r.faulty).length;

  /** A visitor whose send of `content` with `key` ended uncertain, and who then sent plenty from another tab. */
  async function uncertainKey(content: string, key: string) {
    onListing = async () => {};
    const visitor = await newVisitor(stack.handler.port);
    failingCalls.add(stack.replies() + 1);
    const lost = await stack.send(visitor.token, content, key);
    assert.equal(lost.status, 502, lost.text);
    const otherTab = new ChatbotClient({
      baseUrl: `${stack.proxy.origin}/api`,
      apiKey: STACK_BOT.apiKey,
      apiSecret: STACK_BOT.apiSecret,
      chatbotId: STACK_BOT.id,
      retry: false,
      now,
    });
    for (let i = 0; i < OTHER_TAB_EXCHANGES; i++)
      await otherTab.sendMessage({ user: { id: visitor.userId, name: 'Tester' }, message: { content: `other tab ${i}` } });
    return visitor;
  }

  it('a look-up that outlives the first lease keeps the key: the second retry waits, the message is stored once', async () => {
    const content = 'slow look-up, sent once';
    const { token, userId } = await uncertainKey(content, 'key-slow-lookup');
    const leaseEnded = now() + LEASE_MS;
    let second: ReturnType<FaultyStack['send']> | undefined;
    onListing = async () => {
      offset += SLOW_PAGE_MS;
      // Once the first retry's lease (had it never been renewed) has ended, a second retry comes.
      if (second || now() <= leaseEnded) return;
      const readsBefore = store.keyReads;
      second = stack.send(token, content, 'key-slow-lookup');
      // Let it look at the key (waiting, or taking it) before this page goes on.
      await until(() => store.keyReads >= readsBefore + 2);
    };
    const first = await stack.send(token, content, 'key-slow-lookup');
    assert.ok(second, 'the look-up outlived the first lease: the second retry was sent meanwhile');
    const repeat = await second;
    assert.equal(first.status, 200, first.text);
    assert.equal(repeat.status, 200, repeat.text);
    assert.equal(repeat.json.data, first.json.data);
    assert.equal((await questions(userId, content)).length, 1, 'stored upstream exactly once');
  });

  /**
   * The first retry's instance stalls on its first page past its lease; meanwhile a second retry
   * takes the key and runs to its end (`secondFails`: its send fails upstream too).
   */
  async function stalledHolder(content: string, key: string, secondFails: boolean) {
    const visitor = await uncertainKey(content, key);
    const sendsBefore = sendsForwarded();
    let second: Promise<Awaited<ReturnType<FaultyStack['send']>>> | undefined;
    onListing = async () => {
      if (second) return; // the second retry's own listings pass
      offset += LEASE_MS + SLOW_PAGE_MS;
      if (secondFails) failingCalls.add(stack.replies() + 1);
      second = stack.send(visitor.token, content, key);
      await second;
    };
    const first = await stack.send(visitor.token, content, key);
    assert.ok(second, 'the second retry was sent while the first stalled');
    return { ...visitor, first, second: await second, sends: sendsForwarded() - sendsBefore };
  }

  it('a holder that stalled past its lease, the key taken meanwhile, does not send: it answers with the taker’s outcome', async () => {
    const content = 'stalled holder, sent once';
    const { userId, first, second, sends } = await stalledHolder(content, 'key-stalled', false);
    assert.equal(second.status, 200, second.text);
    assert.equal(first.status, 200, first.text);
    assert.equal(first.text, second.text, 'the taker’s outcome');
    assert.equal(sends, 1, 'only the request holding the key sent');
    assert.equal((await questions(userId, content)).length, 1, 'stored upstream exactly once');
  });

  it('a holder whose key was taken by a request that ended uncertain asks for a retry (503), which sends once', async () => {
    const content = 'stalled holder, taker lost';
    const { token, userId, first, second, sends } = await stalledHolder(content, 'key-stalled-lost', true);
    assert.equal(second.status, 502, second.text);
    assert.equal(first.status, 503, first.text);
    assert.equal(first.json.error, TEXT.keyTakenOver);
    assert.equal(first.headers['retry-after'], '1');
    assert.equal(first.headers['cache-control'], 'no-store');
    assert.equal(sends, 1, 'the stalled holder did not send');
    onListing = async () => {};
    const retry = await stack.send(token, content, 'key-stalled-lost');
    assert.equal(retry.status, 200, retry.text);
    assert.equal((await questions(userId, content)).length, 1, 'stored upstream exactly once');
  });
});
