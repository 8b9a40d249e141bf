// Conformance: the send endpoint (docs/api.md): the send body's checks, the daily quota, the
// 30-minute session rule, the order of messages and the replies, over real HTTP with the
// independent signer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countTokens } from '../../src/emulator/tokens.js';
import { BOT_A, BOT_B, BOT_TINY, PAGED_KEYS, VALIDATION_KEYS, keysOf, startHarness } from './harness.js';

const DAY = 86_400_000;

test('a send answers 200 with the reply and the four pagination fields at 0', async () => {
  const h = await startHarness();
  const res = await h.send('hello there');
  assert.equal(res.status, 200, res.text);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  assert.deepEqual(keysOf(res.body), PAGED_KEYS);
  assert.deepEqual(res.body, { data: 'You said: hello there', error: null, totalItems: 0, pageSize: 0, currentPage: 0, totalPages: 0 });
});

test('a send stores the question and the reply: User then Bot, reply later, tokenCount from countTokens, responseTime measured', async () => {
  const slow = { name: 'slow', reply: async () => (await new Promise((r) => setTimeout(r, 60)), 'A considered answer.') };
  const h = await startHarness({ replySource: slow, now: Date.now });
  const sent = await h.call('POST', '/Dev/bot_a/message', {
    body: JSON.stringify({
      user: { id: 'u-store', name: 'Store' },
      message: { content: 'What is it?', file: 'https://example.com/a.png' },
    }),
    timestamp: Math.floor(Date.now() / 1000),
  });
  assert.equal(sent.status, 200, sent.text);
  const list = await h.call('GET', '/Dev/bot_a/messages?userId=u-store', { timestamp: Math.floor(Date.now() / 1000) });
  const [reply, question] = list.body.data;
  assert.equal(list.body.totalItems, 2);
  assert.equal(question.senderType, 'User');
  assert.equal(question.text, 'What is it?');
  assert.equal(question.url, 'https://example.com/a.png');
  assert.equal(question.responseTime, null);
  assert.equal(question.tokenCount, countTokens('What is it?'));
  assert.equal(reply.senderType, 'Bot');
  assert.equal(reply.text, 'A considered answer.');
  assert.equal('url' in reply, false, 'url left out when a message has none');
  assert.equal(reply.tokenCount, countTokens('A considered answer.'));
  assert.ok(reply.responseTime >= 0.05 && reply.responseTime < 5, `responseTime ${reply.responseTime} s`);
  assert.ok(Date.parse(reply.createdAt) > Date.parse(question.createdAt));
  assert.equal(reply.chatSessionId, question.chatSessionId);
  assert.equal(reply.chatUserId, 'u-store');
});

test('a frozen clock still stores the reply with a later createdAt than its question', async () => {
  const h = await startHarness();
  await h.send('one');
  const list = await h.call('GET', '/Dev/bot_a/messages');
  const [reply, question] = list.body.data;
  assert.ok(Date.parse(reply.createdAt) > Date.parse(question.createdAt));
});

test('the reply source is asked with the user, the session and the session history', async () => {
  const h = await startHarness();
  await h.send('first', { user: 'u-ctx', name: 'Ctx' });
  h.clock.now += 60_000;
  await h.send('second', { user: 'u-ctx', name: 'Ctx' });
  const [first, second] = h.replies.requests;
  assert.equal(first!.userId, 'u-ctx');
  assert.equal(first!.userName, 'Ctx');
  assert.equal(first!.chatbotId, 'bot_a');
  assert.deepEqual(first!.history, []);
  assert.deepEqual(second!.history, [
    { senderType: 'User', text: 'first' },
    { senderType: 'Bot', text: 'You said: first' },
  ]);
});

test('validation: every field path of the send body, in the 7.2 body with a traceId', async () => {
  const h = await startHarness();
  const cases: [unknown, string[]][] = [
    [{ user: { id: 'u' }, message: { content: 'x' } }, ['user.name']],
    [{ user: { name: 'n' }, message: { content: 'x' } }, ['user.id']],
    [{ user: { id: 'u', name: 'n' }, message: {} }, ['message.content']],
    [{ message: { content: 'x' } }, ['user']],
    [{ user: { id: 'u', name: 'n' } }, ['message']],
    [{ user: 'u', message: 'm' }, ['message', 'user']],
    [{ user: { id: 7, name: true }, message: { content: ['x'] } }, ['message.content', 'user.id', 'user.name']],
    [{ user: { id: '', name: '   ' }, message: { content: '' } }, ['message.content', 'user.id', 'user.name']],
    [{ user: { id: 'x'.repeat(201), name: 'n' }, message: { content: 'x' } }, ['user.id']],
    [{ user: { id: 'u', name: 'n'.repeat(101) }, message: { content: 'x' } }, ['user.name']],
    [{ user: { id: 'u', name: 'n' }, message: { content: 'x'.repeat(4001) } }, ['message.content']],
    [{ user: { id: 'u', name: 'n' }, message: { content: 'x', file: 'ftp://example.com/a' } }, ['message.file']],
    [{ user: { id: 'u', name: 'n' }, message: { content: 'x', file: '/relative.png' } }, ['message.file']],
    [{ user: { id: 'u', name: 'n' }, message: { content: 'x', file: 42 } }, ['message.file']],
  ];
  for (const [body, paths] of cases) {
    const res = await h.call('POST', '/Dev/bot_a/message', { body: JSON.stringify(body) });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.deepEqual(keysOf(res.body), VALIDATION_KEYS);
    assert.equal(res.body.status, 400);
    assert.match(res.body.type, /rfc9110/);
    assert.equal(typeof res.body.title, 'string');
    assert.match(res.body.traceId, /^\S{8,}$/);
    assert.deepEqual(Object.keys(res.body.errors).sort(), paths, JSON.stringify(body));
    for (const messages of Object.values(res.body.errors)) {
      assert.ok(Array.isArray(messages) && messages.every((m) => typeof m === 'string' && m.length > 0));
    }
  }
  // Nothing of the refused sends was stored or counted.
  assert.equal((await h.call('GET', '/Dev/bot_a/messages')).body.totalItems, 0);
});

test('limits are counted in code points: 4,000 emoji are accepted, 200-character ids and 100-character names too', async () => {
  const h = await startHarness();
  const body = JSON.stringify({ user: { id: 'i'.repeat(200), name: 'ñ'.repeat(100) }, message: { content: '🙂'.repeat(4000) } });
  const res = await h.call('POST', '/Dev/bot_b/message', { body, bot: BOT_B });
  assert.equal(res.status, 200, res.text.slice(0, 300));
});

test('message.file may be absent, null or an absolute http(s) URL', async () => {
  const h = await startHarness();
  for (const file of [undefined, null, 'http://example.com/x', 'https://example.com/a.pdf?x=1']) {
    const body = JSON.stringify({ user: { id: 'uf', name: 'F' }, message: file === undefined ? { content: 'x' } : { content: 'x', file } });
    assert.equal((await h.call('POST', '/Dev/bot_a/message', { body })).status, 200, String(file));
  }
});

test('quota: limit per tier, X-RateLimit-* on 200, 400 and 429, reset at the next UTC midnight, reads free', async () => {
  const h = await startHarness({ start: Date.UTC(2025, 5, 15, 23, 0, 0) });
  const resetAt = String(Date.UTC(2025, 5, 16) / 1000);
  for (let i = 1; i <= 3; i++) {
    const res = await h.send(`m${i}`, { bot: BOT_TINY });
    assert.equal(res.status, 200);
    assert.equal(res.headers['x-ratelimit-limit'], '3');
    assert.equal(res.headers['x-ratelimit-remaining'], String(3 - i));
    assert.equal(res.headers['x-ratelimit-reset'], resetAt);
    // Reads in between do not count.
    assert.equal((await h.call('GET', '/Dev/bot_tiny/messages', { bot: BOT_TINY })).status, 200);
  }
  const invalid = await h.call('POST', '/Dev/bot_tiny/message', { bot: BOT_TINY, body: '{}' });
  assert.equal(invalid.status, 400, 'validation comes before the quota');
  assert.equal(invalid.headers['x-ratelimit-remaining'], '0');
  assert.equal(invalid.headers['x-ratelimit-limit'], '3');
  const over = await h.send('m4', { bot: BOT_TINY });
  assert.equal(over.status, 429);
  assert.deepEqual(over.body, { data: null, error: over.body.error });
  assert.equal(typeof over.body.error, 'string');
  assert.equal(over.headers['x-ratelimit-limit'], '3');
  assert.equal(over.headers['x-ratelimit-remaining'], '0');
  assert.equal(over.headers['x-ratelimit-reset'], resetAt);
  assert.equal((await h.call('GET', '/Dev/bot_tiny/messages', { bot: BOT_TINY })).body.totalItems, 6, 'the refused send stored nothing');
  // Reads are never limited.
  assert.equal((await h.call('GET', '/Dev/bot_tiny/users', { bot: BOT_TINY })).status, 200);
  // The next UTC day starts afresh.
  h.clock.now = Date.UTC(2025, 5, 16, 0, 0, 1);
  const next = await h.send('m5', { bot: BOT_TINY });
  assert.equal(next.status, 200);
  assert.equal(next.headers['x-ratelimit-remaining'], '2');
  assert.equal(next.headers['x-ratelimit-reset'], String(Date.UTC(2025, 5, 17) / 1000));
});

test('quota per tier: free 100, premium 10,000, enterprise its dailyLimit; per chatbot', async () => {
  const h = await startHarness();
  assert.equal((await h.send('a', { bot: BOT_A })).headers['x-ratelimit-limit'], '100');
  assert.equal((await h.send('b', { bot: BOT_B })).headers['x-ratelimit-limit'], '10000');
  assert.equal((await h.send('c', { bot: BOT_TINY })).headers['x-ratelimit-limit'], '3');
  assert.equal(
    (await h.send('a', { bot: BOT_A })).headers['x-ratelimit-remaining'],
    '98',
    'one chatbot’s sends do not use another’s quota',
  );
});

test('rate-limit headers are not on read responses', async () => {
  const h = await startHarness();
  const res = await h.call('GET', '/Dev/bot_a/messages');
  assert.equal(res.headers['x-ratelimit-limit'], undefined);
});

test('the free tier refuses the 101st send of a day', async () => {
  const h = await startHarness();
  for (let i = 0; i < 100; i++) assert.equal((await h.send(`n${i}`, { user: `u${i % 7}` })).status, 200);
  assert.equal((await h.send('one too many')).status, 429);
});

test('concurrent sends never lose a write and never overrun the quota', async () => {
  // Slow replies, so every send passes the first quota check before any of them is stored:
  // only the atomic reservation keeps the quota.
  const slow = {
    name: 'slow',
    reply: async (r: { content: string }) => (await new Promise((ok) => setTimeout(ok, 30)), `ok ${r.content}`),
  };
  const h = await startHarness({ replySource: slow });
  // 12 sends at once against a quota of 3: exactly 3 stored, 9 refused.
  const results = await Promise.all(Array.from({ length: 12 }, (_, i) => h.send(`c${i}`, { bot: BOT_TINY, user: `cu${i % 2}` })));
  assert.equal(results.filter((r) => r.status === 200).length, 3);
  assert.equal(results.filter((r) => r.status === 429).length, 9);
  const list = await h.call('GET', '/Dev/bot_tiny/messages', { bot: BOT_TINY });
  assert.equal(list.body.totalItems, 6);
  // 40 concurrent sends on a premium chatbot: all stored, counts add up everywhere.
  const many = await Promise.all(Array.from({ length: 40 }, (_, i) => h.send(`p${i}`, { bot: BOT_B, user: `pu${i % 4}` })));
  assert.ok(many.every((r) => r.status === 200));
  assert.equal((await h.call('GET', '/Dev/bot_b/messages', { bot: BOT_B })).body.totalItems, 80);
  const count = await h.call('GET', '/Dev/bot_b/messages/count?from=2025-06-01&to=2025-07-01', { bot: BOT_B });
  assert.equal(count.body.data, 80);
  const users = await h.call('GET', '/Dev/bot_b/users', { bot: BOT_B });
  assert.equal(
    users.body.data.reduce((sum: number, u: { messageCount: number }) => sum + u.messageCount, 0),
    40,
  );
});

test('concurrent sends over quota never reach the reply source: the slot is reserved before asking it', async () => {
  let asked = 0;
  const counting = {
    name: 'counting',
    reply: async (r: { content: string }) => {
      asked++;
      await new Promise((ok) => setTimeout(ok, 20));
      return `ok ${r.content}`;
    },
  };
  const h = await startHarness({ replySource: counting });
  // 30 sends at once against a quota of 3.
  const results = await Promise.all(Array.from({ length: 30 }, (_, i) => h.send(`r${i}`, { bot: BOT_TINY, user: `ru${i % 3}` })));
  assert.equal(results.filter((r) => r.status === 200).length, 3);
  assert.equal(results.filter((r) => r.status === 429).length, 27);
  assert.equal(asked, 3, 'the reply source was asked only for the sends that got a slot');
  assert.ok(results.filter((r) => r.status === 429).every((r) => r.headers['x-ratelimit-remaining'] === '0'));
});

test('a failing reply gives its slot back: the next send gets it', async () => {
  let fail = true;
  const flaky = { name: 'flaky', reply: async () => (fail ? Promise.reject(new Error('offline')) : 'back') };
  const h = await startHarness({ replySource: flaky });
  for (let i = 0; i < 5; i++) assert.equal((await h.send(`f${i}`, { bot: BOT_TINY })).status, 500);
  fail = false;
  const results = [];
  for (let i = 0; i < 4; i++) results.push((await h.send(`g${i}`, { bot: BOT_TINY })).status);
  assert.deepEqual(results, [200, 200, 200, 429], 'all three slots of the day are still there');
});

test('a failing reply source is a 500 envelope; nothing is stored and no quota is used', async () => {
  const failing = { name: 'down', reply: async () => Promise.reject(new Error('model offline')) };
  const h = await startHarness({ replySource: failing });
  const res = await h.send('anyone?', { bot: BOT_TINY });
  assert.equal(res.status, 500);
  assert.deepEqual(res.body, { data: null, error: res.body.error });
  assert.doesNotMatch(res.body.error, /model offline/, 'internal detail is not passed on');
  assert.equal(res.headers['x-ratelimit-remaining'], '3');
  assert.equal((await h.call('GET', '/Dev/bot_tiny/messages', { bot: BOT_TINY })).body.totalItems, 0);
});

test('sessions: a send within 30 minutes of the session’s last message continues it, at 30 minutes a new one opens', async () => {
  const h = await startHarness();
  await h.send('s1', { user: 'u-sess' });
  h.clock.now += 29 * 60_000 + 59_000; // last message was the reply, 1 ms after the question
  await h.send('s2', { user: 'u-sess' });
  let sessions = await h.call('GET', '/Dev/bot_a/sessions?userId=u-sess');
  assert.equal(sessions.body.totalItems, 1, 'continued');
  assert.equal(sessions.body.data[0].messageCount, 4);
  h.clock.now += 30 * 60_000 + 1;
  await h.send('s3', { user: 'u-sess' });
  sessions = await h.call('GET', '/Dev/bot_a/sessions?userId=u-sess');
  assert.equal(sessions.body.totalItems, 2, 'a new session after 30 minutes of quiet');
  const [newest, oldest] = sessions.body.data;
  assert.equal(newest.messageCount, 2);
  assert.equal(oldest.messageCount, 4);
  assert.ok(newest.lastMessageAt > oldest.lastMessageAt, 'newest activity first');
  // Another user's sends never join this user's session.
  await h.send('other', { user: 'u-other' });
  assert.equal((await h.call('GET', '/Dev/bot_a/sessions?userId=u-sess')).body.totalItems, 2);
  // The messages of a session, by its id.
  const inSession = await h.call('GET', `/Dev/bot_a/messages?sessionId=${newest.id}`);
  assert.deepEqual(
    inSession.body.data.map((m: { text: string }) => m.text),
    ['You said: s3', 's3'],
  );
});

test('the user record takes the latest display name', async () => {
  const h = await startHarness();
  await h.send('x', { user: 'u-name', name: 'Old' });
  h.clock.now += 1000;
  await h.send('y', { user: 'u-name', name: 'New' });
  const users = await h.call('GET', '/Dev/bot_a/users');
  assert.equal(users.body.data[0].name, 'New');
});

test('sends across a UTC day boundary count each day against its own quota', async () => {
  const h = await startHarness({ start: Date.UTC(2025, 0, 31, 23, 59, 59) });
  assert.equal((await h.send('late', { bot: BOT_TINY })).headers['x-ratelimit-remaining'], '2');
  h.clock.now += DAY;
  assert.equal((await h.send('next day', { bot: BOT_TINY })).headers['x-ratelimit-remaining'], '2');
});
