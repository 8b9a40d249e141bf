// Which listed reply answers a question, as the handler decides when it names the messages a send
// stored: on listings shaped as upstream lists them (question stamped on arrival, reply when
// ready), including the interleavings two tabs of one visitor produce. The same decision runs
// against the emulator over HTTP in exactly-once.test.ts; here each ordering is written out,
// times to the millisecond, which a live upstream cannot be made to produce on demand.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Message } from '../../src/shared/types.js';
import { replyTo } from '../../src/server/stored-messages.js';

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

const replyId = (list: Message[], questionId: string, replyText?: string) =>
  replyTo(
    list,
    list.find((m) => m.id === questionId)!,
    replyText,
  )?.id;

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

  it('two questions a millisecond apart whose begin times swapped: the known reply text decides', () => {
    // r1 began at 3 ms, r2 at 2 ms: paired by begin time, q1 would get r2.
    const list = [
      message('q1', 'User', 'ok', 0),
      message('q2', 'User', 'yes', 1),
      message('r1', 'Bot', 'Echo: ok', 5, 0.002),
      message('r2', 'Bot', 'Echo: yes', 6, 0.004),
    ];
    assert.equal(replyId(list, 'q1', 'Echo: ok'), 'r1');
    assert.equal(replyId(list, 'q2', 'Echo: yes'), 'r2');
  });

  it('without response times: in order, the first question with the first reply', () => {
    const list = [
      message('q1', 'User', 'ok', 0),
      message('q2', 'User', 'yes', 40),
      message('r1', 'Bot', 'Echo: ok', 300),
      message('r2', 'Bot', 'Echo: yes', 350),
    ];
    assert.equal(replyId(list, 'q1'), 'r1');
    assert.equal(replyId(list, 'q2'), 'r2');
  });

  it('replies listed before the first question answer questions older than the page, and are not taken', () => {
    const list = [
      message('r0', 'Bot', 'Echo: earlier', 0, 0.5),
      message('q1', 'User', 'yes', 1_000),
      message('r1', 'Bot', 'Echo: yes', 1_400, 0.4),
    ];
    assert.equal(replyId(list, 'q1'), 'r1');
  });

  it("other sessions' messages do not count, and a question whose reply is not listed has none", () => {
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
