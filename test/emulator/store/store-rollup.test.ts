// The SQLite store's fast paths (monthly rollups, edge counts, month-skipping deep pages) agree
// with a naive computation over the same messages, on random data and random ranges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from '../../../src/emulator/store/sqlite.js';
import type { ImportedMessage, StoredMessage } from '../../../src/emulator/store/types.js';

/** A small deterministic PRNG (mulberry32), so a failure reproduces. */
function random(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const START = Date.UTC(2024, 0, 1);
const END = Date.UTC(2025, 6, 1);

function randomMessages(n: number, rand: () => number): ImportedMessage[] {
  const out: ImportedMessage[] = [];
  for (let i = 0; i < n; i++) {
    const user = `u${Math.floor(rand() * 12)}`;
    const createdAt = START + Math.floor(rand() * (END - START));
    out.push({
      id: `r${i}`,
      chatbotId: rand() < 0.9 ? 'bot' : 'other',
      sessionId: `${user}-s${Math.floor(rand() * 4)}`,
      userId: user,
      userName: null,
      senderType: rand() < 0.5 ? 'User' : rand() < 0.8 ? 'Bot' : 'Agent',
      text: 't',
      url: null,
      tokenCount: Math.floor(rand() * 50),
      responseTime: null,
      // Some exact ties and some month-boundary instants.
      createdAt: rand() < 0.05 ? Date.UTC(2024, Math.floor(rand() * 18), 1) : createdAt,
    });
  }
  return out;
}

function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

test('count and count-by-month match a naive scan over random ranges', () => {
  const rand = random(42);
  const store = openSqliteStore(':memory:');
  const messages = randomMessages(3000, rand);
  // Half imported in bulk, half added one by one as sends add them, so both write paths are covered.
  store.importMessages(messages.slice(0, 1500));
  store.importMessages(messages.slice(1500, 2200));
  for (const m of messages.slice(2200)) store.importMessages([m]);
  const mine = messages.filter((m) => m.chatbotId === 'bot');

  for (let round = 0; round < 150; round++) {
    const a = START - 40 * 86_400_000 + Math.floor(rand() * (END - START + 80 * 86_400_000));
    const b = START - 40 * 86_400_000 + Math.floor(rand() * (END - START + 80 * 86_400_000));
    const snap = (ms: number) => (rand() < 0.3 ? Date.UTC(new Date(ms).getUTCFullYear(), new Date(ms).getUTCMonth(), 1) : ms);
    const from = snap(Math.min(a, b));
    const to = snap(Math.max(a, b)) + 1;
    if (to <= from) continue; // snapping can cross; the store's answer for that is the pipeline's 400
    const inside = mine.filter((m) => m.createdAt >= from && m.createdAt < to);
    assert.equal(store.countMessages('bot', from, to), inside.length);
    assert.equal(store.countMessages('bot', from, to, true), inside.filter((m) => m.senderType === 'User').length);
    assert.equal(store.countMessages('bot', from, to, false), inside.filter((m) => m.senderType !== 'User').length);

    const buckets = store.countByMonth('bot', from, to);
    assert.equal(buckets[0]!.month, monthOf(from));
    assert.equal(buckets.at(-1)!.month, monthOf(to - 1));
    for (const bucket of buckets) {
      const here = inside.filter((m) => monthOf(m.createdAt) === bucket.month);
      assert.deepEqual(bucket, {
        month: bucket.month,
        messageCount: here.length,
        userMessageCount: here.filter((m) => m.senderType === 'User').length,
        distinctUsers: new Set(here.filter((m) => m.senderType === 'User').map((m) => m.userId)).size,
        distinctSessions: new Set(here.map((m) => m.sessionId)).size,
        tokenTotal: here.reduce((s, m) => s + m.tokenCount, 0),
      });
    }
  }
  store.close();
});

test('every page of the listing, with and without filters, matches a naive sort', () => {
  const rand = random(7);
  const store = openSqliteStore(':memory:');
  const messages = randomMessages(1200, rand);
  store.importMessages(messages);
  // Storage order breaks ties: a later import of the same instant comes first.
  const order = (list: ImportedMessage[]) =>
    list
      .map((m, seq) => ({ m, seq }))
      .sort((x, y) => y.m.createdAt - x.m.createdAt || y.seq - x.seq)
      .map((x) => x.m.id);
  const ids = (items: StoredMessage[]) => items.map((m) => m.id);
  const mine = messages.filter((m) => m.chatbotId === 'bot');
  const expected = order(mine);
  for (const pageSize of [1, 7, 100]) {
    const pages = Math.ceil(expected.length / pageSize) + 1;
    for (let page = 0; page < pages; page += pageSize === 1 ? 37 : 1) {
      const got = store.listMessages('bot', {}, { offset: page * pageSize, limit: pageSize });
      assert.equal(got.total, expected.length);
      assert.deepEqual(ids(got.items), expected.slice(page * pageSize, (page + 1) * pageSize), `page ${page} of ${pageSize}`);
    }
  }
  const byUser = order(mine.filter((m) => m.userId === 'u3'));
  const got = store.listMessages('bot', { userId: 'u3' }, { offset: 5, limit: 10 });
  assert.equal(got.total, byUser.length);
  assert.deepEqual(ids(got.items), byUser.slice(5, 15));
  const bySession = order(mine.filter((m) => m.sessionId === 'u3-s1'));
  const session = store.listMessages('bot', { sessionId: 'u3-s1' }, { offset: 0, limit: 100 });
  assert.equal(session.total, bySession.length);
  assert.deepEqual(ids(session.items), bySession);
  store.close();
});

test('users and sessions records match the messages they come from', () => {
  const rand = random(99);
  const store = openSqliteStore(':memory:');
  const messages = randomMessages(800, rand).filter((m) => m.chatbotId === 'bot');
  store.importMessages(messages);
  const users = store.listUsers('bot', { offset: 0, limit: 100 });
  for (const user of users.items) {
    const theirs = messages.filter((m) => m.userId === user.id);
    assert.equal(user.messageCount, theirs.filter((m) => m.senderType === 'User').length);
    assert.equal(user.createdAt, Math.min(...theirs.map((m) => m.createdAt)));
    assert.equal(user.lastMessageAt, Math.max(...theirs.map((m) => m.createdAt)));
  }
  const lastActivity = users.items.map((u) => u.lastMessageAt);
  assert.deepEqual(
    lastActivity,
    [...lastActivity].sort((a, b) => b - a),
    'newest activity first',
  );
  const sessions = store.listSessions('bot', {}, { offset: 0, limit: 100 });
  assert.equal(sessions.total, new Set(messages.map((m) => m.sessionId)).size);
  for (const session of sessions.items) {
    const its = messages.filter((m) => m.sessionId === session.id);
    assert.equal(session.messageCount, its.length);
    assert.equal(session.lastMessageAt, Math.max(...its.map((m) => m.createdAt)));
  }
  store.close();
});

test('sends (recordExchange) keep the same rollups, distinct counts and totals as the messages imply', () => {
  const rand = random(2024);
  const store = openSqliteStore(':memory:');
  // A little imported history first, so sends add to existing rollups.
  store.importMessages(randomMessages(200, rand).filter((m) => m.chatbotId === 'bot'));
  let now = Date.UTC(2024, 10, 28);
  for (let i = 0; i < 400; i++) {
    now += Math.floor(rand() * 3 * 3_600_000); // crosses sessions, days and months
    const outcome = store.recordExchange({
      chatbotId: 'bot',
      userId: `u${Math.floor(rand() * 15)}`,
      userName: 'N',
      question: { id: `q${i}`, text: 'q', url: null, tokenCount: 3, createdAt: now },
      answer: { id: `a${i}`, text: 'a', tokenCount: 5, responseTime: 0.1, createdAt: now + 1 },
      newSessionId: `new${i}`,
      sessionGapMs: 30 * 60_000,
    });
    assert.match(outcome.sessionId, /./);
  }
  const all = store.listMessages('bot', {}, { offset: 0, limit: 100_000 }).items;
  const from = Date.UTC(2023, 0, 1);
  const to = Date.UTC(2026, 0, 1);
  for (const bucket of store.countByMonth('bot', from, to)) {
    const here = all.filter((m) => monthOf(m.createdAt) === bucket.month);
    assert.deepEqual(bucket, {
      month: bucket.month,
      messageCount: here.length,
      userMessageCount: here.filter((m) => m.senderType === 'User').length,
      distinctUsers: new Set(here.filter((m) => m.senderType === 'User').map((m) => m.userId)).size,
      distinctSessions: new Set(here.map((m) => m.sessionId)).size,
      tokenTotal: here.reduce((s, m) => s + m.tokenCount, 0),
    });
  }
  assert.equal(store.listUsers('bot', { offset: 0, limit: 1 }).total, new Set(all.map((m) => m.userId)).size);
  assert.equal(store.listSessions('bot', {}, { offset: 0, limit: 1 }).total, new Set(all.map((m) => m.sessionId)).size);
  store.close();
});
