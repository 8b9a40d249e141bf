// Text with half of an emoji (a lone UTF-16 surrogate) is refused by the handler with a 400 that
// says what to do, before upstream is called: upstream would store U+FFFD in its place, and a retry
// of an uncertain attempt could never find the stored text. Real handler over HTTP, real emulator.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TEXT } from '../../../src/server/core/responses.js';
import { newVisitor, rawRequest, jsonHeaders } from '../helpers/handler-server.js';
import { startFaultyStack, type FaultyStack } from '../helpers/faulty-stack.js';
import { ROOMY_SEND_LIMITS } from '../helpers/handler-options.js';

const ROOMY = { limits: ROOMY_SEND_LIMITS };

describe('lone surrogates in a send', () => {
  let stack: FaultyStack;
  before(async () => {
    stack = await startFaultyStack({ handler: ROOMY });
  });
  after(() => stack.close());

  /** JSON.stringify writes a lone surrogate as `\udXXX`, the way a browser's JSON would. */
  const sendBody = (token: string, body: Record<string, unknown>, key?: string) =>
    rawRequest(stack.handler.port, {
      method: 'POST',
      path: '/chatbot/message',
      headers: { ...jsonHeaders(token), ...(key ? { 'Idempotency-Key': key } : {}) },
      body: JSON.stringify(body),
    });

  for (const [index, [where, text]] of [
    ['a high half at the end', 'Hello \uD83D'],
    ['a low half at the start', '\uDE00 hello'],
    ['two halves in the wrong order', 'x\uDE00\uD83Dy'],
  ].entries()) {
    it(`message text with ${where}: 400 saying to remove it, nothing sent upstream`, async () => {
      const { token, userId } = await newVisitor(stack.handler.port);
      const forwarded = stack.proxy.forwardedSends;
      const answer = await sendBody(token, { content: text }, `key-lone-${index}`);
      assert.equal(answer.status, 400, answer.text);
      assert.equal(answer.json.error, TEXT.loneSurrogateMessage);
      assert.match(answer.json.error, /broken character.*Remove it and send again/);
      assert.equal(answer.headers['cache-control'], 'no-store');
      assert.equal(stack.proxy.forwardedSends, forwarded, 'upstream was not called');
      assert.equal((await stack.stored(userId)).length, 0);
    });
  }

  it('a name with a lone surrogate: 400 about the name, nothing sent upstream', async () => {
    const { token, userId } = await newVisitor(stack.handler.port);
    const forwarded = stack.proxy.forwardedSends;
    const answer = await sendBody(token, { content: 'fine text', name: 'Zoë \uD83D' });
    assert.equal(answer.status, 400, answer.text);
    assert.equal(answer.json.error, TEXT.loneSurrogateName);
    assert.equal(stack.proxy.forwardedSends, forwarded);
    assert.equal((await stack.stored(userId)).length, 0);
  });

  it('whole emoji and other astral characters are sent and stored as written, and the key stays free after a refusal', async () => {
    const { token, userId } = await newVisitor(stack.handler.port);
    assert.equal((await sendBody(token, { content: 'half \uD83D' }, 'key-then-whole')).status, 400);
    const text = 'whole 😀 𝔘 👍🏽 and 中文';
    const answer = await sendBody(token, { content: text, name: 'Zoë 😀' }, 'key-then-whole');
    assert.equal(answer.status, 200, answer.text);
    assert.equal(answer.headers['idempotency-replayed'], undefined, 'the refusal did not spend the key');
    const stored = await stack.stored(userId);
    assert.deepEqual(
      stored.map((m) => m.text),
      [text, `Echo: ${text}`],
    );
  });
});
