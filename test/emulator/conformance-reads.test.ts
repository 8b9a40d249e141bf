// Conformance: the read endpoints (docs/api.md): order of messages, dates in queries, the user
// and session records, `to` not after `from`, bad dates and booleans, count-by-month buckets,
// empty listings and absent values, over real HTTP.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { BOT_B, ENVELOPE_KEYS, PAGED_KEYS, VALIDATION_KEYS, keysOf, startHarness } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-reads-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// A small, fully known history of bot_a:
//   alice: session s1 on 2025-01-10 (2 messages), session s2 on 2025-03-05 (4 messages)
//   bob:   session s3 on 2025-03-31T23:59:59Z (question) with its reply at 2025-04-01T00:00:01Z
//   carol: session s4 on 2025-03-05, same createdAt as alice's question (tie broken by storage order)
// plus one message of bot_b that must never show in bot_a's figures.
const seed = [
  {
    id: 'm01',
    chatbotId: 'bot_a',
    chatSessionId: 's1',
    chatUserId: 'alice',
    userName: 'Alice',
    senderType: 'User',
    text: 'hi',
    createdAt: '2025-01-10T10:00:00Z',
    tokenCount: 1,
  },
  {
    id: 'm02',
    chatbotId: 'bot_a',
    chatSessionId: 's1',
    chatUserId: 'alice',
    senderType: 'Bot',
    text: 'hello',
    createdAt: '2025-01-10T10:00:02Z',
    tokenCount: 2,
    responseTime: 1.5,
  },
  {
    id: 'm03',
    chatbotId: 'bot_a',
    chatSessionId: 's2',
    chatUserId: 'alice',
    senderType: 'User',
    text: 'pic',
    url: 'https://example.com/p.png',
    createdAt: '2025-03-05T12:00:00+02:00',
    tokenCount: 3,
  },
  {
    id: 'm04',
    chatbotId: 'bot_a',
    chatSessionId: 's4',
    chatUserId: 'carol',
    userName: 'Carol',
    senderType: 'User',
    text: 'tie',
    createdAt: '2025-03-05T10:00:00Z',
    tokenCount: 4,
  },
  {
    id: 'm05',
    chatbotId: 'bot_a',
    chatSessionId: 's2',
    chatUserId: 'alice',
    senderType: 'Bot',
    text: 'nice',
    createdAt: '2025-03-05T10:00:05Z',
    tokenCount: 5,
    responseTime: 0.25,
  },
  {
    id: 'm06',
    chatbotId: 'bot_a',
    chatSessionId: 's2',
    chatUserId: 'alice',
    senderType: 'User',
    text: 'more',
    createdAt: '2025-03-05T10:01:00',
    tokenCount: 6,
  },
  {
    id: 'm07',
    chatbotId: 'bot_a',
    chatSessionId: 's2',
    chatUserId: 'alice',
    senderType: 'Bot',
    text: 'sure',
    createdAt: '2025-03-05T10:01:03Z',
    tokenCount: 7,
  },
  {
    id: 'm08',
    chatbotId: 'bot_a',
    chatSessionId: 's3',
    chatUserId: 'bob',
    userName: 'Bob',
    senderType: 'User',
    text: 'late',
    createdAt: '2025-03-31T23:59:59Z',
    tokenCount: 8,
  },
  {
    id: 'm09',
    chatbotId: 'bot_a',
    chatSessionId: 's3',
    chatUserId: 'bob',
    senderType: 'Bot',
    text: 'early',
    createdAt: '2025-04-01T00:00:01Z',
    tokenCount: 9,
    responseTime: 2,
  },
  {
    id: 'b01',
    chatbotId: 'bot_b',
    chatSessionId: 'sb',
    chatUserId: 'alice',
    senderType: 'User',
    text: 'other bot',
    createdAt: '2025-03-05T10:00:00Z',
    tokenCount: 100,
  },
];
const seedFile = join(dir, 'reads.jsonl');
writeFileSync(seedFile, seed.map((r) => JSON.stringify(r)).join('\n') + '\n');

const h = await startHarness();
await h.emulator.importSeed(seedFile);

const get = (path: string) => h.call('GET', path);
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((m) => m.id);

test('messages: createdAt descending, ties most recently stored first, pagination fields', async () => {
  const res = await get('/Dev/bot_a/messages');
  assert.equal(res.status, 200);
  assert.deepEqual(keysOf(res.body), PAGED_KEYS);
  // m03 is 10:00:00Z (12:00+02:00), same instant as m04, stored before it: m04 first.
  assert.deepEqual(ids(res), ['m09', 'm08', 'm07', 'm06', 'm05', 'm04', 'm03', 'm02', 'm01']);
  assert.deepEqual(
    { totalItems: res.body.totalItems, pageSize: res.body.pageSize, currentPage: res.body.currentPage, totalPages: res.body.totalPages },
    { totalItems: 9, pageSize: 20, currentPage: 1, totalPages: 1 },
  );
});

test('messages: the Message record, url only when present, responseTime null on non-Bot messages, UTC times', async () => {
  const res = await get('/Dev/bot_a/messages?sessionId=s2');
  const byId = Object.fromEntries(res.body.data.map((m: { id: string }) => [m.id, m]));
  assert.deepEqual(byId.m03, {
    id: 'm03',
    chatbotId: 'bot_a',
    chatSessionId: 's2',
    chatUserId: 'alice',
    senderType: 'User',
    text: 'pic',
    url: 'https://example.com/p.png',
    tokenCount: 3,
    responseTime: null,
    createdAt: '2025-03-05T10:00:00.000Z',
  });
  assert.equal('url' in byId.m05, false);
  assert.equal(byId.m05.responseTime, 0.25);
  assert.equal(byId.m07.responseTime, null, 'a Bot message without a measured time');
  assert.equal(byId.m06.createdAt, '2025-03-05T10:01:00.000Z', 'a time without offset is UTC');
});

test('messages: paging with page and pageSize, past the end an empty page', async () => {
  const p1 = await get('/Dev/bot_a/messages?page=1&pageSize=4');
  const p3 = await get('/Dev/bot_a/messages?page=3&pageSize=4');
  const p4 = await get('/Dev/bot_a/messages?page=4&pageSize=4');
  assert.deepEqual(ids(p1), ['m09', 'm08', 'm07', 'm06']);
  assert.deepEqual(ids(p3), ['m01']);
  assert.deepEqual(p3.body.totalPages, 3);
  assert.deepEqual(p4.body.data, []);
  assert.equal(p4.body.currentPage, 4);
  assert.equal(p4.body.totalItems, 9);
});

test('messages: filters by sessionId, userId, and both', async () => {
  assert.deepEqual(ids(await get('/Dev/bot_a/messages?sessionId=s1')), ['m02', 'm01']);
  const alice = await get('/Dev/bot_a/messages?userId=alice');
  assert.deepEqual(ids(alice), ['m07', 'm06', 'm05', 'm03', 'm02', 'm01']);
  assert.equal(alice.body.totalItems, 6);
  assert.deepEqual(ids(await get('/Dev/bot_a/messages?userId=alice&sessionId=s1')), ['m02', 'm01']);
  const mismatch = await get('/Dev/bot_a/messages?userId=bob&sessionId=s1');
  assert.deepEqual(mismatch.body.data, []);
  assert.equal(mismatch.body.totalItems, 0);
  assert.equal(mismatch.body.totalPages, 0);
});

test('empty listings: data [], totalItems 0, totalPages 0', async () => {
  for (const path of ['/Dev/bot_a/messages?sessionId=none', '/Dev/bot_a/messages?userId=none', '/Dev/bot_a/sessions?userId=none']) {
    const res = await get(path);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { data: [], error: null, totalItems: 0, pageSize: 20, currentPage: 1, totalPages: 0 });
  }
  const fresh = await h.call('GET', '/Dev/bot_tiny/users', {
    bot: { id: 'bot_tiny', apiKey: 'pk_test_tiny', apiSecret: 'sk_test_tiny', tier: 'enterprise', dailyLimit: 3 },
  });
  assert.deepEqual(fresh.body, { data: [], error: null, totalItems: 0, pageSize: 20, currentPage: 1, totalPages: 0 });
});

test('get message: only data and error; responseTime left out on a User message, present on a Bot message', async () => {
  const user = await get('/Dev/bot_a/messages/m03');
  assert.equal(user.status, 200);
  assert.deepEqual(keysOf(user.body), ENVELOPE_KEYS);
  assert.equal(user.body.data.id, 'm03');
  assert.equal(user.body.data.url, 'https://example.com/p.png');
  assert.equal('responseTime' in user.body.data, false);
  const bot = await get('/Dev/bot_a/messages/m09');
  assert.equal(bot.body.data.responseTime, 2);
  assert.equal(bot.body.data.createdAt, '2025-04-01T00:00:01.000Z');
});

test('get message: unknown id, or a message of another chatbot, is 404 with data null and an error text', async () => {
  for (const id of ['nope', 'b01', 'm01%zz']) {
    const res = await get(`/Dev/bot_a/messages/${id}`);
    assert.equal(res.status, 404, id);
    assert.deepEqual(keysOf(res.body), ENVELOPE_KEYS);
    assert.equal(res.body.data, null);
    assert.match(res.body.error, /not found/i);
  }
});

test('count: [from, to), sent true/false/omitted, any-case booleans, bot_b excluded', async () => {
  const count = async (q: string) => {
    const res = await get(`/Dev/bot_a/messages/count?${q}`);
    assert.equal(res.status, 200, `${q}: ${res.text}`);
    assert.deepEqual(keysOf(res.body), ENVELOPE_KEYS);
    return res.body.data as number;
  };
  assert.equal(await count('from=2025-01-01&to=2026-01-01'), 9);
  assert.equal(await count('from=2025-01-01&to=2026-01-01&sent=true'), 5);
  assert.equal(await count('from=2025-01-01&to=2026-01-01&sent=FALSE'), 4);
  assert.equal(await count('from=2025-01-01&to=2026-01-01&sent=True'), 5);
  // Inclusive from, exclusive to, to the millisecond.
  assert.equal(await count('from=2025-01-10T10:00:00Z&to=2025-01-10T10:00:02Z'), 1);
  assert.equal(await count('from=2025-01-10T10:00:00Z&to=2025-01-10T10:00:02.001Z'), 2);
  // A date alone is midnight UTC; offsets are converted (+ sent as %2B).
  assert.equal(await count('from=2025-03-05&to=2025-03-06'), 5);
  assert.equal(await count('from=2025-03-05T12:00:00%2B02:00&to=2025-03-05T12:00:01%2B02:00'), 2);
  assert.equal(await count('from=2025-04-01T01:00:00%2B01:00&to=2025-05-01'), 1);
  // Partial months at both edges plus whole months between.
  assert.equal(await count('from=2025-01-10T10:00:01Z&to=2025-04-01T00:00:01Z'), 7);
  assert.equal(await count('from=2025-01-10T10:00:01Z&to=2025-04-01T00:00:01Z&sent=false'), 3);
  assert.equal(await count('from=2024-01-01&to=2025-01-01'), 0);
});

test('count and count-by-month: to not after from is 400 with the envelope (0 / null)', async () => {
  for (const q of ['from=2025-03-01&to=2025-03-01', 'from=2025-03-02&to=2025-03-01']) {
    const c = await get(`/Dev/bot_a/messages/count?${q}`);
    assert.equal(c.status, 400);
    assert.deepEqual(keysOf(c.body), ENVELOPE_KEYS);
    assert.equal(c.body.data, 0);
    assert.match(c.body.error, /greater than/);
    const m = await get(`/Dev/bot_a/messages/count-by-month?${q}`);
    assert.equal(m.status, 400);
    assert.deepEqual(keysOf(m.body), ENVELOPE_KEYS);
    assert.equal(m.body.data, null);
    assert.match(m.body.error, /greater than/);
  }
});

test('count-by-month: ascending, empty months with zeros, each bucket only inside [from, to)', async () => {
  const res = await get('/Dev/bot_a/messages/count-by-month?from=2024-12-15&to=2025-05-01');
  assert.equal(res.status, 200);
  assert.deepEqual(keysOf(res.body), ENVELOPE_KEYS);
  assert.deepEqual(res.body.data, [
    { month: '2024-12', messageCount: 0, userMessageCount: 0, distinctUsers: 0, distinctSessions: 0, tokenTotal: 0 },
    { month: '2025-01', messageCount: 2, userMessageCount: 1, distinctUsers: 1, distinctSessions: 1, tokenTotal: 3 },
    { month: '2025-02', messageCount: 0, userMessageCount: 0, distinctUsers: 0, distinctSessions: 0, tokenTotal: 0 },
    { month: '2025-03', messageCount: 6, userMessageCount: 4, distinctUsers: 3, distinctSessions: 3, tokenTotal: 33 },
    { month: '2025-04', messageCount: 1, userMessageCount: 0, distinctUsers: 0, distinctSessions: 1, tokenTotal: 9 },
  ]);
  // Partial edge months count only what lies inside the range.
  const partial = await get('/Dev/bot_a/messages/count-by-month?from=2025-03-05T10:00:01Z&to=2025-04-01T00:00:00Z');
  assert.deepEqual(partial.body.data, [
    { month: '2025-03', messageCount: 4, userMessageCount: 2, distinctUsers: 2, distinctSessions: 2, tokenTotal: 26 },
  ]);
  // A range ending exactly at a month start does not include that month.
  const exact = await get('/Dev/bot_a/messages/count-by-month?from=2025-01-01&to=2025-02-01');
  assert.deepEqual(
    exact.body.data.map((b: { month: string }) => b.month),
    ['2025-01'],
  );
});

test('users: the documented record, newest activity first, paged', async () => {
  const res = await get('/Dev/bot_a/users');
  assert.deepEqual(keysOf(res.body), PAGED_KEYS);
  assert.deepEqual(res.body.data, [
    { id: 'bob', name: 'Bob', createdAt: '2025-03-31T23:59:59.000Z', lastMessageAt: '2025-04-01T00:00:01.000Z', messageCount: 1 },
    { id: 'alice', name: 'Alice', createdAt: '2025-01-10T10:00:00.000Z', lastMessageAt: '2025-03-05T10:01:03.000Z', messageCount: 3 },
    { id: 'carol', name: 'Carol', createdAt: '2025-03-05T10:00:00.000Z', lastMessageAt: '2025-03-05T10:00:00.000Z', messageCount: 1 },
  ]);
  assert.equal(res.body.totalItems, 3);
  const page2 = await get('/Dev/bot_a/users?page=2&pageSize=2');
  assert.deepEqual(
    page2.body.data.map((u: { id: string }) => u.id),
    ['carol'],
  );
  assert.equal(page2.body.totalPages, 2);
});

test('sessions: the documented record, newest activity first, filter by userId, paged', async () => {
  const res = await get('/Dev/bot_a/sessions');
  assert.deepEqual(keysOf(res.body), PAGED_KEYS);
  assert.deepEqual(res.body.data[0], {
    id: 's3',
    chatUserId: 'bob',
    createdAt: '2025-03-31T23:59:59.000Z',
    lastMessageAt: '2025-04-01T00:00:01.000Z',
    messageCount: 2,
  });
  assert.deepEqual(
    res.body.data.map((s: { id: string }) => s.id),
    ['s3', 's2', 's4', 's1'],
  );
  const alice = await get('/Dev/bot_a/sessions?userId=alice&pageSize=1&page=2');
  assert.deepEqual(
    alice.body.data.map((s: { id: string }) => s.id),
    ['s1'],
  );
  assert.equal(alice.body.totalItems, 2);
  assert.equal(alice.body.data[0].messageCount, 2);
});

test('a reader walks users -> sessions -> messages (docs/api.md)', async () => {
  const users = await get('/Dev/bot_a/users');
  const userId = users.body.data.find((u: { name: string }) => u.name === 'Carol').id;
  const sessions = await get(`/Dev/bot_a/sessions?userId=${userId}`);
  const messages = await get(`/Dev/bot_a/messages?sessionId=${sessions.body.data[0].id}`);
  assert.deepEqual(ids(messages), ['m04']);
});

test('bad paging, dates and booleans are 400 validation bodies naming the parameter', async () => {
  const cases: [string, string[]][] = [
    ['/Dev/bot_a/messages?page=0', ['page']],
    ['/Dev/bot_a/messages?page=-1', ['page']],
    ['/Dev/bot_a/messages?page=abc', ['page']],
    ['/Dev/bot_a/messages?page=1.5', ['page']],
    ['/Dev/bot_a/messages?page=99999999999999999999', ['page']],
    ['/Dev/bot_a/messages?page=', ['page']],
    ['/Dev/bot_a/messages?pageSize=0', ['pageSize']],
    ['/Dev/bot_a/messages?pageSize=101', ['pageSize']],
    ['/Dev/bot_a/messages?page=0&pageSize=500', ['page', 'pageSize']],
    ['/Dev/bot_a/users?pageSize=x', ['pageSize']],
    ['/Dev/bot_a/sessions?page=0', ['page']],
    ['/Dev/bot_a/messages/count?to=2025-01-01', ['from']],
    ['/Dev/bot_a/messages/count?from=2025-01-01', ['to']],
    ['/Dev/bot_a/messages/count', ['from', 'to']],
    ['/Dev/bot_a/messages/count?from=2025-13-01&to=2026-01-01', ['from']],
    ['/Dev/bot_a/messages/count?from=2025-02-29&to=2026-01-01', ['from']],
    ['/Dev/bot_a/messages/count?from=yesterday&to=2026-01-01', ['from']],
    ['/Dev/bot_a/messages/count?from=2025-01-01&to=2026-01-01T25:00:00Z', ['to']],
    ['/Dev/bot_a/messages/count?from=2025-01-01&to=2026-01-01&sent=yes', ['sent']],
    ['/Dev/bot_a/messages/count?from=2025-01-01&to=2026-01-01&sent=1', ['sent']],
    ['/Dev/bot_a/messages/count-by-month?from=2025-01-01T10:00:00+02:00&to=2026-01-01', ['from']],
    ['/Dev/bot_a/messages/count-by-month?from=0001-01-01&to=9999-01-01', ['to']],
  ];
  for (const [path, params] of cases) {
    const res = await get(path);
    assert.equal(res.status, 400, path);
    assert.deepEqual(keysOf(res.body), VALIDATION_KEYS, path);
    assert.deepEqual(Object.keys(res.body.errors).sort(), params, path);
  }
});

test('+ in a query value means a space', async () => {
  await h.send('spaced', { user: 'first last', name: 'Spaced', bot: BOT_B });
  const plus = await h.call('GET', '/Dev/bot_b/messages?userId=first+last', { bot: BOT_B });
  const encoded = await h.call('GET', '/Dev/bot_b/messages?userId=first%20last', { bot: BOT_B });
  assert.equal(plus.body.totalItems, 2);
  assert.equal(encoded.body.totalItems, 2);
});

test("a bad date's message gives examples, and names %2B only when a raw '+' became a space", async () => {
  const message = async (query: string) => (await get(`/Dev/bot_a/messages/count?${query}&to=2026-01-01`)).body.errors.from as string[];
  assert.deepEqual(await message('from=yesterday'), [
    "The value 'yesterday' is not a valid ISO 8601 date for from (e.g. 2026-01-31 or 2026-01-31T12:00:00Z).",
  ]);
  // Encoded as clients like chatbot-api do: the '+' arrived, so the hint would be noise.
  assert.deepEqual(await message('from=2025-13-01T10:00:00%2B02:00'), [
    "The value '2025-13-01T10:00:00+02:00' is not a valid ISO 8601 date for from (e.g. 2026-01-31 or 2026-01-31T12:00:00Z).",
  ]);
  // Sent raw: the offset's '+' decoded to a space, and the message says why.
  assert.deepEqual(await message('from=2025-01-01T10:00:00+02:00'), [
    "The value '2025-01-01T10:00:00 02:00' is not a valid ISO 8601 date for from (e.g. 2026-01-31 or 2026-01-31T12:00:00Z); " +
      "a '+' in a query value means a space, so send the offset's '+' as %2B.",
  ]);
});

test('page size at its bounds, 1 and 100, is accepted', async () => {
  assert.equal((await get('/Dev/bot_a/messages?pageSize=1')).body.totalPages, 9);
  assert.equal((await get('/Dev/bot_a/messages?pageSize=100')).status, 200);
});
