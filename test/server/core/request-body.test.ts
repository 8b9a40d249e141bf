// The handler's cap on request bodies (maxBodyBytes), with real Web Requests as Workers, Deno and
// Bun hand them over, and over node:http with the Node adapter's light Request: a declared length
// over the cap is refused before any byte is read, a body of declared length is read whole and
// still measured, a chunked body is counted as it arrives and reading stops past the cap.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { createSigningHandler } from '../../../src/server/index.js';
import { TEXT } from '../../../src/server/core/responses.js';
import { quietLogger } from '../helpers/handler-options.js';
import { startHandler } from '../helpers/handler-server.js';

const MAX_BODY_BYTES = 1024;

const handler = createSigningHandler({
  apiBaseUrl: 'http://upstream.invalid/api',
  apiKey: 'pk_body_cap',
  apiSecret: 'sk_body_cap_secret_0123456789abcdef',
  chatbotId: 'bot_body_cap',
  maxBodyBytes: MAX_BODY_BYTES,
  logger: quietLogger,
  fetch: () => Promise.reject(new Error('no upstream call is expected here')),
});

/** A body stream that counts the chunks read from it; `chunks` of `size` bytes each (JSON whitespace after `{}`). */
function countedBody(chunks: number, size: number, failAfter?: number) {
  const seen = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (failAfter !== undefined && seen.pulled === failAfter) return controller.error(new Error('connection reset'));
        if (seen.pulled === chunks) return controller.close();
        const chunk = new Uint8Array(size).fill(0x20);
        if (seen.pulled === 0) chunk.set([0x7b, 0x7d]); // "{}"
        seen.pulled++;
        controller.enqueue(chunk);
      },
      cancel() {
        seen.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, seen };
}

/** `POST /chatbot/visitor` with `body`, and `Content-Length: declared` when given. */
async function postVisitor(body: BodyInit, declared?: number) {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (declared !== undefined) headers['Content-Length'] = String(declared);
  const response = await handler(
    new Request('http://localhost/chatbot/visitor', { method: 'POST', headers, body, duplex: 'half' } as RequestInit),
  );
  return { status: response.status, body: (await response.json()) as { data: unknown; error: string | null } };
}

describe('the cap on request bodies', () => {
  it('refuses a declared length over the cap with 413, reading none of the body', async () => {
    const { stream, seen } = countedBody(10, 512);
    const answer = await postVisitor(stream, 5120);
    assert.equal(answer.status, 413);
    assert.equal(answer.body.error, TEXT.tooLarge);
    assert.equal(seen.pulled, 0, 'not one chunk read');
  });

  it('reads a body of declared length under the cap whole', async () => {
    const answer = await postVisitor('{}', 2);
    assert.equal(answer.status, 200, answer.body.error ?? '');
    const { stream, seen } = countedBody(3, 300);
    assert.equal((await postVisitor(stream, 900)).status, 200);
    assert.equal(seen.pulled, 3);
    // In one call, not chunk by chunk through the stream: the cheap way on every runtime.
    const reads: string[] = [];
    class WatchedRequest extends Request {
      override arrayBuffer() {
        reads.push('arrayBuffer');
        return super.arrayBuffer();
      }
      override get body() {
        reads.push('body');
        return super.body;
      }
    }
    const watched = new WatchedRequest('http://localhost/chatbot/visitor', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': '2' },
      body: '{}',
    });
    assert.equal((await handler(watched)).status, 200);
    assert.deepEqual(reads, ['arrayBuffer']);
  });

  it('refuses a body longer than it declared once it passes the cap', async () => {
    const answer = await postVisitor(`{}${' '.repeat(MAX_BODY_BYTES)}`, 10);
    assert.equal(answer.status, 413);
    assert.equal(answer.body.error, TEXT.tooLarge);
    // Longer than declared but within the cap: the declared length is no limit of its own.
    assert.equal((await postVisitor(`{}${' '.repeat(100)}`, 10)).status, 200);
  });

  it('refuses a chunked body over the cap with 413, and stops reading it there', async () => {
    const { stream, seen } = countedBody(100, 512);
    const answer = await postVisitor(stream);
    assert.equal(answer.status, 413);
    assert.equal(answer.body.error, TEXT.tooLarge);
    assert.ok(seen.pulled <= 3, `read ${seen.pulled} chunks of 512 bytes for a cap of ${MAX_BODY_BYTES}`);
    assert.equal(seen.cancelled, true);
    // At the cap exactly, a chunked body is read.
    assert.equal((await postVisitor(countedBody(2, 512).stream)).status, 200);
  });

  it('answers 400 when the body breaks off mid-way, declared length or not', async () => {
    for (const declared of [900, undefined]) {
      const answer = await postVisitor(countedBody(3, 300, 1).stream, declared);
      assert.equal(answer.status, 400, `declared ${declared}`);
      assert.equal(answer.body.error, TEXT.bodyUnreadable);
    }
  });

  it('over node:http, answers a declared length over the cap before the body is sent', { timeout: 10_000 }, async () => {
    const server = await startHandler({ baseUrl: 'http://upstream.invalid/api' }, { maxBodyBytes: MAX_BODY_BYTES });
    try {
      const socket = connect(server.port, '127.0.0.1');
      const received: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      const closed = new Promise((resolve) => socket.on('close', resolve));
      // Headers only: the 100,000 bytes announced are never sent.
      socket.write('POST /chatbot/visitor HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n');
      await closed;
      const answer = Buffer.concat(received).toString('utf8');
      assert.match(answer, /^HTTP\/1\.1 413 /);
      assert.match(answer, /\r\nconnection: close\r\n/i);
    } finally {
      await server.close();
    }
  });
});
