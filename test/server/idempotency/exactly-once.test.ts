// Exactly once through the real handler, over HTTP, in front of the real emulator behind a proxy
// that answers slowly and drops connections after upstream stored the message. Every verdict is
// counted from upstream (the emulator's own listing), message by message.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { TEXT } from '../../../src/server/core/responses.js';
import { newVisitor } from '../helpers/handler-server.js';
import { startFaultyStack, type FaultyStack } from '../helpers/faulty-stack.js';
import { ROOMY_SEND_LIMITS } from '../helpers/handler-options.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
// Budgets are tested in budgets.test.ts: here every address may send plenty.
const ROOMY = { limits: ROOMY_SEND_LIMITS };

describe('exactly once with Idempotency-Key', () => {
  let stack: FaultyStack;
  let token: string;
  let userId: string;
  /** Upstream's and the handler's clock: a test that needs time to pass moves it on rather than waiting. */
  let ahead = 0;
  const now = () => Date.now() + ahead;

  before(async () => {
    stack = await startFaultyStack({ now, handler: { ...ROOMY, now } });
  });
  after(() => stack.close());
  beforeEach(async () => {
    stack.proxy.configure({ delayBeforeMs: 0, delayAfterMs: 0, dropProbability: 0 });
    ({ token, userId } = await newVisitor(stack.handler.port));
  });

  const questions = async (id = userId) => (await stack.stored(id)).filter((m) => m.senderType === 'User');
  const sendsForwarded = () => stack.proxy.requests.filter((r) => r.faulty).length;

  it('a repeat gets the first outcome (status and body) without calling upstream again', async () => {
    const before = sendsForwarded();
    const first = await stack.send(token, 'hello once', 'key-repeat-1');
    assert.equal(first.status, 200, first.text);
    assert.equal(first.json.data, 'Echo: hello once');
    const stored = await stack.stored(userId);
    assert.deepEqual(first.json.stored, stored, 'stored names the question and reply upstream holds, oldest first');
    assert.equal(first.headers['idempotency-replayed'], undefined);

    const repeat = await stack.send(token, 'hello once', 'key-repeat-1');
    assert.equal(repeat.status, 200);
    assert.equal(repeat.text, first.text, 'byte for byte the first body');
    assert.equal(repeat.headers['idempotency-replayed'], 'true');
    assert.equal(sendsForwarded() - before, 1, 'upstream was asked once');
    assert.equal((await questions()).length, 1);
  });

  it('keys are per identity: another visitor with the same key sends their own message', async () => {
    const other = await newVisitor(stack.handler.port);
    assert.equal((await stack.send(token, 'mine', 'shared-key')).status, 200);
    const theirs = await stack.send(other.token, 'theirs', 'shared-key');
    assert.equal(theirs.status, 200);
    assert.equal(theirs.json.data, 'Echo: theirs');
    assert.equal((await questions(other.userId)).length, 1);
  });

  it('a send without a key is a plain send: no record, no stored field, a repeat is a new message', async () => {
    const first = await stack.send(token, 'no key');
    const second = await stack.send(token, 'no key');
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal(first.json.stored, undefined);
    assert.equal((await questions()).length, 2);
  });

  it('concurrent repeats while the first is in flight wait for it: one upstream call, one outcome', async () => {
    stack.proxy.configure({ delayBeforeMs: 1000 });
    const before = sendsForwarded();
    const answers = await Promise.all(Array.from({ length: 6 }, () => stack.send(token, 'slow and once', 'key-concurrent')));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200, 200, 200],
    );
    assert.equal(new Set(answers.map((a) => a.text)).size, 1, 'every repeat got the same body');
    assert.equal(answers.filter((a) => a.headers['idempotency-replayed'] === 'true').length, 5);
    assert.equal(sendsForwarded() - before, 1);
    assert.equal((await questions()).length, 1);
  });

  it('the browser going away mid-send: the send is seen through, stored once, its outcome kept', async () => {
    stack.proxy.configure({ delayBeforeMs: 1000 });
    const before = sendsForwarded();
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port: stack.handler.port,
        method: 'POST',
        path: '/chatbot/message',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}`, 'Idempotency-Key': 'key-disconnect' },
        agent: false,
      });
      req.on('error', () => resolve());
      req.end(JSON.stringify({ content: 'reload during reply' }));
      // The page reloads while upstream is still working on it.
      setTimeout(() => {
        req.destroy();
        resolve();
      }, 300);
    });
    await sleep(100);
    assert.equal((await questions()).length, 0, 'not yet stored when the browser left');
    const repeat = await stack.send(token, 'reload during reply', 'key-disconnect');
    assert.equal(repeat.status, 200, repeat.text);
    assert.equal(repeat.json.data, 'Echo: reload during reply');
    assert.equal(repeat.headers['idempotency-replayed'], 'true', 'the reloaded page waited for the first send');
    await stack.proxy.idle();
    assert.equal(sendsForwarded() - before, 1);
    const stored = await questions();
    assert.equal(stored.length, 1);
    assert.equal(repeat.json.stored[0].id, stored[0]!.id);
  });

  it('a connection dropped after upstream stored: the retry finds the message instead of sending again', async () => {
    stack.proxy.dropNext();
    const before = sendsForwarded();
    const first = await stack.send(token, 'dropped but stored', 'key-drop');
    assert.equal(first.status, 502);
    assert.equal(first.json.error, TEXT.upstreamDown);
    assert.equal((await questions()).length, 1, 'upstream stored it');

    const retry = await stack.send(token, 'dropped but stored', 'key-drop');
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.json.data, 'Echo: dropped but stored');
    const stored = await stack.stored(userId);
    assert.deepEqual(retry.json.stored, stored);
    assert.equal(sendsForwarded() - before, 1, 'the retry did not send again');
    assert.equal((await questions()).length, 1);
    const again = await stack.send(token, 'dropped but stored', 'key-drop');
    assert.equal(again.text, retry.text, 'the found outcome is kept like any other');
  });

  it('a retry after more than a page of messages from another tab still finds what its attempt stored', async () => {
    stack.proxy.dropNext();
    assert.equal((await stack.send(token, 'find me later', 'key-paged')).status, 502);
    // 26 exchanges since: 52 newer messages, more than one page of the handler's look-up.
    for (let i = 0; i < 26; i++) assert.equal((await stack.send(token, `meanwhile ${i}`)).status, 200);
    const before = sendsForwarded();
    const retry = await stack.send(token, 'find me later', 'key-paged');
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.json.data, 'Echo: find me later');
    assert.equal(retry.json.stored[0].text, 'find me later');
    assert.equal(sendsForwarded(), before, 'the retry sent nothing');
    assert.equal((await questions()).filter((m) => m.text === 'find me later').length, 1, 'stored once');
  });

  it("the same text under a second key: its retry never claims the first key's message", async () => {
    const before = sendsForwarded();
    const first = await stack.send(token, 'sent normally', 'key-normal');
    assert.equal(first.status, 200);
    stack.proxy.dropNext();
    assert.equal((await stack.send(token, 'sent normally', 'key-normal-2')).status, 502);
    const retry = await stack.send(token, 'sent normally', 'key-normal-2');
    assert.equal(retry.status, 200);
    assert.notEqual(retry.json.stored[0].id, first.json.stored[0].id, "the second key never claims the first key's message");
    assert.equal(sendsForwarded() - before, 2);
    assert.equal((await questions()).length, 2);
  });

  it('two dropped "yes" sends retried in reverse order: each key gets the message its own attempt stored', async () => {
    stack.proxy.dropNext();
    const firstStart = now();
    assert.equal((await stack.send(token, 'yes', 'k-yes-early')).status, 502);
    ahead += 2_500; // further apart than the clocks may differ
    stack.proxy.dropNext();
    const secondStart = now();
    assert.equal((await stack.send(token, 'yes', 'k-yes-late')).status, 502);
    const late = await stack.send(token, 'yes', 'k-yes-late');
    const early = await stack.send(token, 'yes', 'k-yes-early');
    assert.equal(late.status, 200);
    assert.equal(early.status, 200);
    assert.ok(Date.parse(late.json.stored[0].createdAt) >= secondStart, 'the later key got the later message');
    assert.ok(Date.parse(early.json.stored[0].createdAt) < secondStart && Date.parse(early.json.stored[0].createdAt) >= firstStart);
    assert.equal((await questions()).length, 2);
  });

  it('repeated short texts from two tabs through random drops: exactly N stored, each key answered with its own message', async () => {
    stack.proxy.configure({ dropProbability: 0.4, delayAfterMs: 50 });
    const perTab = 8;
    const windows = new Map<string, { start: number; end: number }>();
    const answers = new Map<string, { id: string; createdAt: string; reply: string }>();
    const tab = async (name: string) => {
      for (let i = 0; i < perTab; i++) {
        const key = `${name}-yes-${i}`;
        const text = i % 2 === 0 ? 'yes' : 'ok';
        for (let attempt = 0; attempt < 20; attempt++) {
          const start = now();
          const response = await stack.send(token, text, key);
          if (!windows.has(key)) windows.set(key, { start, end: now() });
          if (response.status === 200) {
            assert.equal(response.json.stored.length, 2, response.text);
            answers.set(key, {
              id: response.json.stored[0].id,
              createdAt: response.json.stored[0].createdAt,
              reply: response.json.stored[1].text,
            });
            assert.equal(response.json.data, `Echo: ${text}`);
            break;
          }
          assert.equal(response.status, 502, response.text);
        }
      }
    };
    await Promise.all([tab('tab1'), tab('tab2')]);
    await stack.proxy.idle();
    const dropped = stack.proxy.requests.filter((r) => r.outcome === 'dropped').length;
    assert.ok(dropped >= 3, `the run had drops (${dropped})`);
    assert.equal(answers.size, 2 * perTab, 'every key was answered');
    const stored = await questions();
    assert.equal(stored.length, 2 * perTab, 'exactly N stored');
    assert.equal(new Set([...answers.values()].map((a) => a.id)).size, 2 * perTab, 'no two keys got the same message');
    assert.deepEqual(new Set([...answers.values()].map((a) => a.id)), new Set(stored.map((m) => m.id)));
    for (const [key, answer] of answers) {
      const window = windows.get(key)!;
      const at = Date.parse(answer.createdAt);
      assert.ok(at >= window.start - 5 && at <= window.end + 5, `${key}: its message was stored during its own first attempt`);
    }
  });

  it('a malformed key is a 400 saying what a key may contain, and nothing reaches upstream', async () => {
    const before = stack.proxy.requests.length;
    for (const key of ['', 'has space', 'x'.repeat(129), 'caf\u00e9', 'a/b', 'a.b']) {
      const response = await stack.send(token, 'hi', key);
      assert.equal(response.status, 400, JSON.stringify(key));
      assert.equal(response.json.error, TEXT.badIdempotencyKey);
      assert.match(response.json.error, /1 to 128 characters.*letter.*digit.*"_".*"-"/);
    }
    assert.equal(
      (await stack.send(token, 'hi', 'A-z_09'.repeat(21).slice(0, 128))).status,
      200,
      'a 128-character key of every allowed kind',
    );
    assert.equal(stack.proxy.requests.length - before, 2, 'only the valid send went upstream (send and its look-up)');
  });
});

describe("exactly once when one visitor's sends overlap upstream (two tabs, the first answered slowly)", () => {
  // Upstream stamps a question on arrival and its reply when ready: the first send's question,
  // the second's, the second's reply, then the first's. Both ask "yes"; both replies say "Echo: yes".
  let stack: FaultyStack;
  before(async () => {
    stack = await startFaultyStack({ handler: ROOMY, replyDelayMs: (call) => (call % 2 === 1 ? 600 : 0) });
  });
  after(() => stack.close());

  /** Sends "yes" under `slowKey`, then (while upstream still answers it) under `fastKey`. */
  async function overlapping(token: string, slowKey: string, fastKey: string) {
    const slow = stack.send(token, 'yes', slowKey);
    await sleep(150);
    const fast = await stack.send(token, 'yes', fastKey);
    return { slow: await slow, fast };
  }

  /** What upstream holds, oldest first: the slow send's question and reply, and the fast one's. */
  async function upstreamPairs(userId: string) {
    const stored = await stack.stored(userId);
    const [slowQuestion, fastQuestion, fastReply, slowReply] = stored;
    assert.deepEqual(
      stored.map((m) => m.senderType),
      ['User', 'User', 'Bot', 'Bot'],
      'listed interleaved: both questions, then the fast reply, then the slow one',
    );
    return { slow: [slowQuestion!.id, slowReply!.id], fast: [fastQuestion!.id, fastReply!.id] };
  }

  it('each answer names its own question and its own reply', async () => {
    const { token, userId } = await newVisitor(stack.handler.port);
    const { slow, fast } = await overlapping(token, 'tab1-yes', 'tab2-yes');
    assert.equal(slow.status, 200, slow.text);
    assert.equal(fast.status, 200, fast.text);
    const pairs = await upstreamPairs(userId);
    assert.deepEqual(
      slow.json.stored.map((m: { id: string }) => m.id),
      pairs.slow,
      "the slow send's reply is its own, not the first one listed after its question",
    );
    assert.deepEqual(
      fast.json.stored.map((m: { id: string }) => m.id),
      pairs.fast,
    );
  });

  it('a retry of the slow send after a dropped answer gets its reply, though another question is listed between', async () => {
    const { token, userId } = await newVisitor(stack.handler.port);
    stack.proxy.dropNext();
    const { slow, fast } = await overlapping(token, 'tab1-dropped', 'tab2-sent');
    assert.equal(slow.status, 502, slow.text);
    assert.equal(fast.status, 200, fast.text);
    const before = stack.proxy.forwardedSends;
    const retry = await stack.send(token, 'yes', 'tab1-dropped');
    assert.equal(retry.status, 200, retry.text);
    assert.equal(retry.json.data, 'Echo: yes');
    assert.deepEqual(
      retry.json.stored.map((m: { id: string }) => m.id),
      (await upstreamPairs(userId)).slow,
    );
    assert.equal(stack.proxy.forwardedSends, before, 'the retry sent nothing');
  });
});
