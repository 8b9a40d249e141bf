import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateDemoMessages, type SeedRecord } from '../../src/emulator/demo-data.js';
import { countTokens } from '../../src/emulator/tokens.js';

const NOW = new Date('2025-06-15T10:00:00.000Z');
const SESSION_GAP_MS = 30 * 60_000;

function generate(count: number, seed = 1, months?: number): SeedRecord[] {
  return [...generateDemoMessages({ count, chatbotId: 'bot_demo', now: NOW, seed, ...(months ? { months } : {}) })];
}

const records = generate(3001, 42);

test('yields exactly count records, every one complete for a seed file', () => {
  for (const count of [0, 1, 2, 7, 100, 3001]) assert.equal(generate(count, 3).length, count, `count ${count}`);
  assert.equal(records.length, 3001);
  for (const r of records) {
    assert.equal(r.chatbotId, 'bot_demo');
    assert.ok(r.chatSessionId && r.chatUserId && r.text, JSON.stringify(r));
    assert.ok(r.senderType === 'User' || r.senderType === 'Bot');
    assert.equal(new Date(r.createdAt).toISOString(), r.createdAt, 'ISO 8601 UTC');
    assert.equal(r.tokenCount, countTokens(r.text));
    if (r.senderType === 'Bot') assert.ok(typeof r.responseTime === 'number' && r.responseTime > 0);
    else assert.equal(r.responseTime, undefined);
    if (r.url !== undefined) assert.match(r.url, /^https:\/\/\S+$/);
  }
  // With an odd count, the last question simply has no reply yet.
  assert.equal(records.filter((r) => r.senderType === 'User').length, 1501);
});

test('records come in ascending createdAt order, all within the months before now', () => {
  const from = new Date(NOW);
  from.setUTCMonth(from.getUTCMonth() - 18);
  for (let i = 1; i < records.length; i++) assert.ok(records[i - 1]!.createdAt <= records[i]!.createdAt, `record ${i}`);
  assert.ok(records[0]!.createdAt >= from.toISOString());
  assert.ok(records[records.length - 1]!.createdAt <= NOW.toISOString());
});

test('several named users; each session has one user, messages minutes apart, sessions 30+ minutes apart', () => {
  const users = new Map<string, Set<string>>();
  const sessions = new Map<string, SeedRecord[]>();
  for (const r of records) {
    if (r.senderType === 'User') {
      assert.ok(r.userName, 'questions carry the user name');
      (users.get(r.chatUserId) ?? users.set(r.chatUserId, new Set()).get(r.chatUserId)!).add(r.userName!);
    }
    (sessions.get(r.chatSessionId) ?? sessions.set(r.chatSessionId, []).get(r.chatSessionId)!).push(r);
  }
  assert.ok(users.size >= 3, `${users.size} users`);
  for (const names of users.values()) assert.equal(names.size, 1, 'a user keeps one name');

  const byUser = new Map<string, { first: number; last: number }[]>();
  for (const [id, messages] of sessions) {
    assert.equal(new Set(messages.map((m) => m.chatUserId)).size, 1, `session ${id} has one user`);
    const times = messages.map((m) => Date.parse(m.createdAt));
    for (let i = 1; i < times.length; i++) assert.ok(times[i]! - times[i - 1]! < SESSION_GAP_MS, `gap inside session ${id}`);
    const list = byUser.get(messages[0]!.chatUserId) ?? byUser.set(messages[0]!.chatUserId, []).get(messages[0]!.chatUserId)!;
    list.push({ first: times[0]!, last: times[times.length - 1]! });
  }
  for (const [user, list] of byUser) {
    list.sort((a, b) => a.first - b.first);
    for (let i = 1; i < list.length; i++) assert.ok(list[i]!.first - list[i - 1]!.last >= SESSION_GAP_MS, `sessions of ${user} too close`);
  }
  assert.ok(sessions.size > 300, `${sessions.size} sessions`);
});

test('every Bot reply follows its User question, strictly later, in the same session', () => {
  const bySession = new Map<string, SeedRecord[]>();
  for (const r of records) (bySession.get(r.chatSessionId) ?? bySession.set(r.chatSessionId, []).get(r.chatSessionId)!).push(r);
  for (const messages of bySession.values()) {
    messages.forEach((m, i) => assert.equal(m.senderType, i % 2 === 0 ? 'User' : 'Bot', 'question, reply, question, …'));
    for (let i = 1; i < messages.length; i += 2) {
      const question = Date.parse(messages[i - 1]!.createdAt);
      const reply = Date.parse(messages[i]!.createdAt);
      assert.ok(reply > question, 'reply strictly later');
      assert.equal(reply - question, Math.max(1, Math.round(messages[i]!.responseTime! * 1000)), 'reply time matches responseTime');
    }
  }
});

test('texts vary, and a few messages carry a url', () => {
  const questions = new Set(records.filter((r) => r.senderType === 'User').map((r) => r.text));
  const answers = new Set(records.filter((r) => r.senderType === 'Bot').map((r) => r.text));
  assert.ok(questions.size >= 40, `${questions.size} distinct questions`);
  assert.ok(answers.size >= 15, `${answers.size} distinct answers`);
  const withUrl = records.filter((r) => r.url).length;
  assert.ok(withUrl >= 1 && withUrl < records.length * 0.05, `${withUrl} with url`);
});

test('the same seed gives the same records; another seed different ones', () => {
  assert.deepEqual(generate(3001, 42), records);
  assert.deepEqual(generate(500, 7), generate(500, 7));
  assert.notDeepEqual(generate(500, 7), generate(500, 8));
});

test('activity spreads over every month of the period and grows over time', () => {
  const perMonth = new Map<string, number>();
  for (const r of records) perMonth.set(r.createdAt.slice(0, 7), (perMonth.get(r.createdAt.slice(0, 7)) ?? 0) + 1);
  // 2023-12-15 … 2025-06-15: the partial first month and every month after it.
  const expected: string[] = [];
  for (let d = new Date(Date.UTC(2023, 11, 1)); d <= NOW; d.setUTCMonth(d.getUTCMonth() + 1)) expected.push(d.toISOString().slice(0, 7));
  assert.deepEqual([...perMonth.keys()].sort(), expected);
  const full = expected.slice(1, -1).map((m) => perMonth.get(m)!);
  const firstHalf = full.slice(0, 8).reduce((a, b) => a + b, 0);
  const secondHalf = full.slice(-8).reduce((a, b) => a + b, 0);
  assert.ok(secondHalf > firstHalf * 1.8, `first 8 full months ${firstHalf}, last 8 ${secondHalf}`);

  const six = generate(400, 1, 6);
  const sixFrom = new Date(NOW);
  sixFrom.setUTCMonth(sixFrom.getUTCMonth() - 6);
  assert.ok(six[0]!.createdAt >= sixFrom.toISOString(), 'months option bounds the period');
});

test('bad options are refused with a clear error before any record', () => {
  assert.throws(() => generateDemoMessages({ count: -1, chatbotId: 'b' }), /count must be a whole number >= 0/);
  assert.throws(() => generateDemoMessages({ count: 1.5, chatbotId: 'b' }), /count/);
  assert.throws(() => generateDemoMessages({ count: 1, chatbotId: '' }), /chatbotId/);
  assert.throws(() => generateDemoMessages({ count: 1, chatbotId: 'b', months: 0 }), /months/);
  assert.throws(() => generateDemoMessages({ count: 1, chatbotId: 'b', now: new Date('nope') }), /now must be a valid Date/);
});

test('demo data generated again at another time opens new sessions, for the same users', () => {
  const first = generate(50, 1);
  const later = [...generateDemoMessages({ count: 50, chatbotId: 'bot_demo', now: new Date(NOW.getTime() + 86_400_000), seed: 1 })];
  const firstSessions = new Set(first.map((r) => r.chatSessionId));
  assert.ok(later.every((r) => !firstSessions.has(r.chatSessionId)));
  assert.ok(later.some((r) => first.some((f) => f.chatUserId === r.chatUserId)));
});
