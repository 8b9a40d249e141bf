// Which listed reply answers a question, as the handler decides when it names the messages a send
// stored: on listings shaped as upstream lists them (question stamped on arrival, reply when
// ready), including the interleavings two tabs of one visitor produce. The same decision runs
// against the emulator over HTTP in exactly-once.test.ts; here each ordering is written out,
// times to the millisecond, which a live upstream cannot be made to produce on demand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Message } from '../../../src/shared/types.js';
import { CLOCK_SKEW_MS, questionCandidates, replyCandidates } from '../../../src/server/idempotency/stored-messages.js';

const T0 = Date.parse('2026-11-26T10:00:00.000Z');

/** A listed message `ms` after T0; a reply with `responseTime` (seconds) when given. */
function message(id: string, senderType: 'User' | 'Bot', text: string, ms: number, responseTime?: number, session = 's1'): Message {
  return {
    id,
    chatbotId: 'bot',
    chatSessionId: session,
    chatUserId: 'u1',
    senderType,
    text,
    tokenCount: 1,
    responseTime: senderType === 'Bot' ? (responseTime ?? null) : null,
    createdAt: new Date(T0 + ms).toISOString(),
  };
}

/** The likeliest reply to `questionId` (the first candidate; claims by other keys aside), by id. */
const replyId = (list: Message[], questionId: string, replyText?: string) =>
  replyCandidates(
    list,
    list.find((m) => m.id === questionId)!,
    replyText,
  )[0]?.id;

describe('the reply to a stored question', () => {
  it('one send after another: the reply listed right after each question', () => {
    const list = [
      message('q1', 'User', 'yes', 0),
      message('r1', 'Bot', 'Echo: yes', 900, 0.9),
      message('q2', 'User', 'yes', 5_000),
      message('r2', 'Bot', 'Echo: yes', 5_700, 0.7),
    ];
    assert.equal(replyId(list, 'q1'), 'r1');
    assert.equal(replyId(list, 'q2'), 'r2');
    assert.equal(replyId(list, 'q2', 'Echo: yes'), 'r2');
  });

  it('two tabs, the first answered slowly (Q1, Q2, R2, R1): each question gets the reply begun with it', () => {
    const list = [
      message('q1', 'User', 'yes', 0),
      message('q2', 'User', 'yes', 150),
      message('r2', 'Bot', 'Echo: yes', 160, 0.01),
      message('r1', 'Bot', 'Echo: yes', 600, 0.6),
    ];
    assert.equal(replyId(list, 'q1'), 'r1');
    assert.equal(replyId(list, 'q2'), 'r2');
    // Both replies say the same: the text alone cannot tell them apart.
    assert.equal(replyId(list, 'q1', 'Echo: yes'), 'r1');
    assert.equal(replyId(list, 'q2', 'Echo: yes'), 'r2');
  });

  it('two questions a millisecond apart: the begin times tell nothing, the known reply text does', () => {
    // r1 began at 3 ms, r2 at 2 ms: both within the noise of either question.
    const list = [
      message('q1', 'User', 'ok', 0),
      message('q2', 'User', 'yes', 1),
      message('r1', 'Bot', 'Echo: ok', 5, 0.002),
      message('r2', 'Bot', 'Echo: yes', 6, 0.004),
    ];
    assert.equal(replyId(list, 'q1', 'Echo: ok'), 'r1');
    assert.equal(replyId(list, 'q2', 'Echo: yes'), 'r2');
    const candidates = (id: string) =>
      replyCandidates(
        list,
        list.find((m) => m.id === id)!,
      ).map((m) => m.id);
    assert.deepEqual(candidates('q1').sort(), ['r1', 'r2'], 'without the text both may be its own (the claims decide)');
  });

  it('upstream working 45 ms before each reply, learnt from earlier exchanges: two tabs 30 ms apart each get their own', () => {
    const list = [
      message('q0', 'User', 'hi', 0),
      message('r0', 'Bot', 'Echo: hi', 400, 0.355), // begun at 45 ms
      message('q9', 'User', 'hello', 2_000),
      message('r9', 'Bot', 'Echo: hello', 2_300, 0.255), // begun at 2,045 ms
      message('q1', 'User', 'ok', 5_000),
      message('q2', 'User', 'yes', 5_030),
      message('r1', 'Bot', 'Echo: ok', 5_100, 0.055), // begun at 5,045 ms: 15 ms from q2, but q1's
      message('r2', 'Bot', 'Echo: yes', 5_150, 0.075), // begun at 5,075 ms
    ];
    assert.equal(replyId(list, 'q1'), 'r1');
    assert.equal(replyId(list, 'q2'), 'r2');
  });

  it('two tabs a few ms apart on a loaded machine, times within the noise: each question keeps the reply listed after it', () => {
    // As a loaded run stored them: the first exchange's reply came 1.4 s late, the second's 14 ms
    // after its question, so upstream's work before a reply is learnt as 14 ms, and r2 seems to
    // begin 5 ms from q1 against r1's 13: a difference the noise allows, which tells nothing.
    const list = [
      message('qa', 'User', 'yes', 0),
      message('ra', 'Bot', 'Echo: yes', 1_430, 0),
      message('qb', 'User', 'yes', 1_444),
      message('rb', 'Bot', 'Echo: yes', 1_458, 0),
      message('q1', 'User', 'ok', 1_692),
      message('r1', 'Bot', 'Echo: ok', 1_693, 0),
      message('q2', 'User', 'ok', 1_700),
      message('r2', 'Bot', 'Echo: ok', 1_701, 0),
    ];
    assert.equal(replyId(list, 'q1'), 'r1');
    assert.equal(replyId(list, 'q1', 'Echo: ok'), 'r1');
    assert.equal(replyId(list, 'q2'), 'r2');
    assert.equal(replyId(list, 'q2', 'Echo: ok'), 'r2');
  });

  it('a question upstream stored without a reply takes none from its neighbours, and they keep their own', () => {
    const list = [
      message('q0', 'User', 'lost', 0),
      message('q1', 'User', 'yes', 2_000),
      message('r1', 'Bot', 'Echo: yes', 2_500, 0.5),
      message('q2', 'User', 'ok', 4_000),
      message('r2', 'Bot', 'Echo: ok', 4_300, 0.3),
    ];
    assert.equal(replyId(list, 'q0'), undefined);
    assert.equal(replyId(list, 'q1'), 'r1');
    assert.equal(replyId(list, 'q2'), 'r2');
  });

  it('the reply of a question older than the page read is not taken', () => {
    // The page starts after qa (asked at 0, answered at 1.5 s); qc's own reply is there.
    const list = [
      message('qc', 'User', 'c', 1_000),
      message('rc', 'Bot', 'Echo: c', 1_100, 0.1),
      message('ra', 'Bot', 'Echo: a', 1_500, 1.5),
    ];
    assert.equal(replyId(list, 'qc'), 'rc');
    assert.deepEqual(
      replyCandidates(list, list[0]!).map((m) => m.id),
      ['rc'],
    );
  });

  it('without response times: only the reply listed right after the question', () => {
    const list = [
      message('q1', 'User', 'ok', 0),
      message('q2', 'User', 'yes', 40),
      message('r2', 'Bot', 'Echo: yes', 300),
      message('q3', 'User', 'and?', 1_000),
      message('r3', 'Bot', 'Echo: and?', 1_200),
    ];
    assert.equal(replyId(list, 'q1'), undefined, 'another question came between');
    assert.equal(replyId(list, 'q2'), 'r2');
    assert.equal(replyId(list, 'q3'), 'r3');
  });

  it('response times rounded coarsely, or an upstream clock held still: the reply right after the question', () => {
    const list = [
      message('q1', 'User', 'yes', 0),
      message('r1', 'Bot', 'Echo: yes', 1_234, 1.3), // begun "66 ms before" its question
      message('q2', 'User', 'ok', 5_000),
      message('r2', 'Bot', 'Echo: ok', 5_001, 0.3), // a frozen clock: stored 1 ms after, answered in 0.3 s
    ];
    assert.equal(replyId(list, 'q1'), 'r1');
    assert.equal(replyId(list, 'q2'), 'r2');
    assert.equal(replyId(list, 'q2', 'Echo: ok'), 'r2');
    assert.equal(replyId(list, 'q2', 'Echo: something else'), undefined);
  });

  it("other sessions' messages do not count; a reply must say the known text", () => {
    const list = [
      message('q1', 'User', 'yes', 0),
      message('x1', 'User', 'elsewhere', 10, undefined, 's2'),
      message('y1', 'Bot', 'Echo: elsewhere', 20, 0.01, 's2'),
      message('r1', 'Bot', 'Echo: yes', 400, 0.4),
      message('q2', 'User', 'and then?', 1_000),
    ];
    assert.equal(replyId(list, 'q1'), 'r1');
    assert.equal(replyId(list, 'q2'), undefined);
    assert.equal(replyId(list, 'q1', 'Echo: something else'), undefined);
  });
});

describe('the question a retried send stored', () => {
  /** The candidates' ids, in the order a retry of `attempts` claims them. */
  const order = (list: Message[], ...attempts: { startedAt: number; endedAt: number; content: string }[]) =>
    questionCandidates(list, attempts).map((m) => m.id);
  const attempt = (from: number, to: number, content = 'yes') => ({ startedAt: T0 + from, endedAt: T0 + to, content });

  it('two tabs sending "yes" 300 ms apart: each retry claims the question stored during its own attempt first', () => {
    // Tab 1's attempt ran 0–120 ms and stored q1 at 40; tab 2's ran 300–420 ms and stored q2 at 330.
    // Both lie within the clock skew of either attempt, so either could be either's.
    const list = [message('q1', 'User', 'yes', 40), message('r1', 'Bot', 'Echo: yes', 60, 0.02), message('q2', 'User', 'yes', 330)];
    assert.deepEqual(order(list, attempt(0, 120)), ['q1', 'q2']);
    assert.deepEqual(order(list, attempt(300, 420)), ['q2', 'q1'], "tab 2's own question before the older one of tab 1");
  });

  it('questions only the skew lets in come after, oldest first; other texts and replies never', () => {
    const list = [
      message('early', 'User', 'yes', -1_500),
      message('other-text', 'User', 'ok', 20),
      message('reply', 'Bot', 'yes', 30, 0.01),
      message('own', 'User', 'yes', 50),
      message('late', 'User', 'yes', 1_900),
      message('too-late', 'User', 'yes', 100 + CLOCK_SKEW_MS + 1),
    ];
    assert.deepEqual(order(list, attempt(0, 100)), ['own', 'early', 'late']);
  });

  it("with earlier uncertain attempts, a question inside any attempt's own time comes first", () => {
    const list = [
      message('first-try', 'User', 'yes', 10),
      message('between', 'User', 'yes', 1_000),
      message('second-try', 'User', 'yes', 2_510),
    ];
    assert.deepEqual(order(list, attempt(0, 100), attempt(2_500, 2_600)), ['first-try', 'second-try', 'between']);
  });
});
