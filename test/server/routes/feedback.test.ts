// POST {base}/feedback through real HTTP, the handler in front of the real emulator: a visitor
// rates only their own bot answers, the latest rating wins, null takes it back, bad input is a
// 400 that says what is allowed, the 61st rating in a minute a 429, and nothing of it goes upstream.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_FEEDBACK_COMMENT_CHARS } from '../../../src/shared/limits.js';
import { MemoryStore, type HandlerStore } from '../../../src/server/index.js';
import { FEEDBACK_BOT, startFeedbackStack, type FeedbackStack } from '../helpers/feedback-stack.js';
import { rawRequest } from '../helpers/handler-server.js';

const START = Date.UTC(2026, 2, 10, 12);

describe('POST /feedback', () => {
  let stack: FeedbackStack;
  before(async () => {
    stack = await startFeedbackStack(START);
  });
  after(() => stack.close());

  /** The admin listing's items (every rating kept, newest first). */
  const listed = async () =>
    (await stack.admin('/feedback?pageSize=100')).json.data as { messageId: string; value: string; comment: string | null }[];
  const tick = () => (stack.clock.now += 1_000);

  it("rates the visitor's own answer: 204, no-store, listed with the message's session and user; nothing is sent upstream", async () => {
    const visitor = await stack.visitor();
    const { answerId, sessionId } = await stack.ask(visitor.token);
    const messagesBefore = (await stack.admin('/messages')).json.totalItems;
    tick();
    const response = await stack.rate(visitor.token, { messageId: answerId, value: 'up', comment: 'Spot on 👍' });
    assert.equal(response.status, 204, response.text);
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.text, '');
    const item = (await listed()).find((rating) => rating.messageId === answerId);
    assert.deepEqual(item, {
      messageId: answerId,
      value: 'up',
      comment: 'Spot on 👍',
      chatUserId: visitor.userId,
      chatSessionId: sessionId,
      createdAt: new Date(stack.clock.now).toISOString(),
    });
    assert.equal((await stack.admin('/messages')).json.totalItems, messagesBefore, 'upstream stored nothing more');
  });

  it("another visitor's answer, one's own question and an unknown id are one and the same 404, and store nothing", async () => {
    const alice = await stack.visitor();
    const bob = await stack.visitor();
    const asked = await stack.ask(alice.token);
    const before = stack.store.size;
    const refusals = [
      await stack.rate(bob.token, { messageId: asked.answerId, value: 'down' }),
      await stack.rate(alice.token, { messageId: asked.questionId, value: 'up' }),
      await stack.rate(alice.token, { messageId: 'no-such-message', value: 'up' }),
    ];
    for (const refusal of refusals) {
      assert.equal(refusal.status, 404, refusal.text);
      assert.deepEqual(refusal.json, { data: null, error: 'That message was not found.' });
    }
    assert.ok(!(await listed()).some((rating) => [asked.answerId, asked.questionId].includes(rating.messageId)));
    // Each counted in its caller's minute (that bounds the look-ups upstream), nothing more.
    assert.equal(stack.store.size, before + 2, 'one minute counter each for alice and bob, no rating');
  });

  it("an answer's senderType in any case is rated, as the widget offers it; another sender's message is a 404", async () => {
    const visitor = await stack.visitor();
    const { sessionId } = await stack.ask(visitor.token);
    const senders = ['bot', 'BOT', 'Agent', 'System'];
    const seed = join(mkdtempSync(join(tmpdir(), 'feedback-senders-')), 'seed.jsonl');
    const at = new Date(stack.clock.now).toISOString();
    const line = (senderType: string) =>
      JSON.stringify({
        id: `seeded-${senderType}`,
        chatbotId: FEEDBACK_BOT.id,
        chatSessionId: sessionId,
        chatUserId: visitor.userId,
        senderType,
        text: 'Seeded',
        createdAt: at,
      });
    writeFileSync(seed, senders.map(line).join('\n'));
    await stack.emulator.importSeed(seed);
    const statuses = [];
    for (const senderType of senders)
      statuses.push((await stack.rate(visitor.token, { messageId: `seeded-${senderType}`, value: 'up' })).status);
    assert.deepEqual(statuses, [204, 204, 404, 404]);
  });

  it('bad input is a 400 saying what is allowed, and writes nothing', async () => {
    const visitor = await stack.visitor();
    const { answerId } = await stack.ask(visitor.token);
    const before = stack.store.size;
    const cases: [unknown, RegExp][] = [
      [{ messageId: answerId, value: 'sideways' }, /"up", "down" or null/],
      [{ messageId: answerId, value: 1 }, /"up", "down" or null/],
      [{ messageId: answerId }, /"up", "down" or null/],
      [{ messageId: answerId, value: 'up', comment: 'x'.repeat(MAX_FEEDBACK_COMMENT_CHARS + 1) }, /at most 500 characters/],
      [{ messageId: answerId, value: 'up', comment: 42 }, /comment must be text/],
      [{ messageId: answerId, value: 'up', comment: 'half an emoji \ud83d here' }, /broken character/],
      [{ messageId: '../admin', value: 'up' }, /messageId .* 1 to 128 letters/],
      [{ value: 'up' }, /messageId/],
      ['[1,2]', /JSON object/],
      ['{not json', /not valid JSON/],
    ];
    for (const [body, said] of cases) {
      const response = await stack.rate(visitor.token, body);
      assert.equal(response.status, 400, `${JSON.stringify(body)}: ${response.text}`);
      assert.match(response.json.error, said);
    }
    assert.equal(stack.store.size, before, 'nothing written');
    const longest = await stack.rate(visitor.token, { messageId: answerId, value: 'up', comment: '😀'.repeat(MAX_FEEDBACK_COMMENT_CHARS) });
    assert.equal(longest.status, 204, `${MAX_FEEDBACK_COMMENT_CHARS} characters (emoji count as one) are allowed: ${longest.text}`);
  });

  it('needs an identity (401) and a JSON body (415)', async () => {
    assert.equal((await stack.rate(undefined, { messageId: 'm', value: 'up' })).status, 401);
    const visitor = await stack.visitor();
    assert.equal((await stack.rate(visitor.token, '{}', { 'Content-Type': 'text/plain' })).status, 415);
  });

  it('one rating per message: the latest wins, null takes it back, and the month counts follow', async () => {
    const visitor = await stack.visitor();
    const { answerId } = await stack.ask(visitor.token);
    const month = new Date(stack.clock.now).toISOString().slice(0, 7);
    const counts = async () => {
      const from = `${month}-01`;
      const response = await stack.admin(`/feedback/count-by-month?from=${from}&to=2026-04-01`);
      return response.json.data[0] as { month: string; up: number; down: number };
    };
    const before = await counts();
    tick();
    assert.equal((await stack.rate(visitor.token, { messageId: answerId, value: 'up' })).status, 204);
    tick();
    assert.equal((await stack.rate(visitor.token, { messageId: answerId, value: 'down', comment: 'Wrong page' })).status, 204);
    const mine = (await listed()).filter((rating) => rating.messageId === answerId);
    assert.deepEqual(
      mine.map((rating) => [rating.value, rating.comment]),
      [['down', 'Wrong page']],
    );
    assert.deepEqual(await counts(), { month, up: before.up, down: before.down + 1 }, 'the up taken back, the down counted');
    tick();
    assert.equal((await stack.rate(visitor.token, { messageId: answerId, value: null, comment: 'ignored' })).status, 204);
    assert.ok(!(await listed()).some((rating) => rating.messageId === answerId), 'null took it back');
    assert.deepEqual(await counts(), before);
    assert.equal((await stack.rate(visitor.token, { messageId: answerId, value: null })).status, 204, 'taking back nothing is fine');
    assert.deepEqual(await counts(), before);
  });

  it('the 61st rating in a minute is a 429 with Retry-After that writes nothing; the next minute rates again', async () => {
    stack.clock.now = Math.ceil(stack.clock.now / 60_000) * 60_000 + 5_000; // early in a minute
    const visitor = await stack.visitor();
    const { answerId } = await stack.ask(visitor.token);
    for (let i = 0; i < 60; i++) {
      const response = await stack.rate(visitor.token, { messageId: answerId, value: i % 2 ? 'down' : 'up' });
      assert.equal(response.status, 204, `rating ${i + 1}: ${response.text}`);
    }
    const before = stack.store.size;
    const refused = await stack.rate(visitor.token, { messageId: answerId, value: 'up', comment: 'one too many' });
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '55');
    assert.match(refused.json.error, /rating answers too quickly/);
    assert.equal(stack.store.size, before, 'the refusal wrote nothing');
    assert.equal((await listed()).find((rating) => rating.messageId === answerId)?.value, 'down', 'the 60th rating stands');
    const other = await stack.visitor();
    const theirs = await stack.ask(other.token);
    assert.equal((await stack.rate(other.token, { messageId: theirs.answerId, value: 'up' })).status, 204, 'per identity');
    stack.clock.now += 60_000;
    assert.equal((await stack.rate(visitor.token, { messageId: answerId, value: 'up' })).status, 204);
  });

  it('a rating is kept 400 days, then no longer listed or counted', async () => {
    const visitor = await stack.visitor();
    const { answerId } = await stack.ask(visitor.token);
    assert.equal((await stack.rate(visitor.token, { messageId: answerId, value: 'down' })).status, 204);
    const given = stack.clock.now;
    const month = new Date(given).toISOString().slice(0, 7);
    const downs = async () => (await stack.admin(`/feedback/count-by-month?from=${month}-01&to=2026-04-01`)).json.data[0].down as number;
    const downsThen = await downs();
    try {
      stack.clock.now = given + 400 * 86_400_000 - 1;
      assert.ok(
        (await listed()).some((rating) => rating.messageId === answerId),
        'kept on its 400th day',
      );
      stack.clock.now = given + 400 * 86_400_000 + 1;
      assert.ok(!(await listed()).some((rating) => rating.messageId === answerId), 'gone after');
      assert.ok((await downs()) < downsThen, 'and no longer counted in its month');
    } finally {
      stack.clock.now = given + 1_000;
    }
  });
});

describe('POST /feedback with identify() identities and with a failing store', () => {
  it("a signed-in user rates their own answers; another user's is a 404", async () => {
    const stack = await startFeedbackStack(START, {
      identify: (request) => {
        const user = request.headers.get('X-Test-User');
        return user ? { userId: user } : null;
      },
    });
    try {
      const send = async (user: string) => {
        const response = await rawRequest(stack.handler.port, {
          method: 'POST',
          path: '/chatbot/message',
          headers: { 'Content-Type': 'application/json', 'X-Test-User': user, 'Idempotency-Key': `k-${user}` },
          body: JSON.stringify({ content: 'Hello' }),
        });
        return response.json.stored[1].id as string;
      };
      const answerId = await send('user-ada');
      assert.equal((await stack.rate(undefined, { messageId: answerId, value: 'up' }, { 'X-Test-User': 'user-bob' })).status, 404);
      assert.equal((await stack.rate(undefined, { messageId: answerId, value: 'up' })).status, 401);
      assert.equal((await stack.rate(undefined, { messageId: answerId, value: 'up' }, { 'X-Test-User': 'user-ada' })).status, 204);
      const [item] = (await stack.admin('/feedback')).json.data;
      assert.equal(item.chatUserId, 'user-ada');
      assert.equal(item.messageId, answerId);
    } finally {
      await stack.close();
    }
  });

  it('a store that cannot keep ratings: 503 with a visitor text, never a 500', async () => {
    const inner = new MemoryStore({ now: () => START });
    const down = () => Promise.reject(new Error('down'));
    const store: HandlerStore = {
      increment: (key, expiresAt) => inner.increment(key, expiresAt),
      get: (key) => inner.get(key),
      add: (key, value, expiresAt) => inner.add(key, value, expiresAt),
      swap: (key, expected, value, expiresAt) => inner.swap(key, expected, value, expiresAt),
      putRecord: down,
      deleteRecord: down,
      listRecords: down,
      countRecords: down,
    };
    const stack = await startFeedbackStack(START, { store });
    try {
      const visitor = await stack.visitor();
      const { answerId } = await stack.ask(visitor.token);
      const response = await stack.rate(visitor.token, { messageId: answerId, value: 'up' });
      assert.equal(response.status, 503);
      assert.match(response.json.error, /temporarily unavailable/);
      assert.equal((await stack.admin('/feedback')).status, 503);
    } finally {
      await stack.close();
    }
  });
});
