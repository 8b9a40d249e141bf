// How the handler reads upstream's answers: a body of declared length, not compressed, read whole
// in one go; any other body counted as it arrives and left past the 4 MiB cap, so an answer that
// unpacks to far more than it declares is never held in memory whole. The core is called
// in-process with a `fetch` that answers with Responses built here, which count what is read.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSigningHandler } from '../../../src/server/index.js';
import { MAX_UPSTREAM_BODY_BYTES } from '../../../src/server/core/upstream.js';

const MIB = 1024 * 1024;
/** Chunks read at most before reading stops: those within the cap, the one past it, and one the stream pulls ahead. */
const PULLED_AT_MOST = MAX_UPSTREAM_BODY_BYTES / MIB + 2;
const LISTING = JSON.stringify({ data: [], error: null, totalItems: 0, pageSize: 20, currentPage: 1, totalPages: 0 });

/** A body of `chunks` chunks of 1 MiB, made only as read, and how many were read. */
function countedBody(chunks: number) {
  const counted = { pulled: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counted.pulled === chunks) return controller.close();
      counted.pulled++;
      controller.enqueue(new Uint8Array(MIB).fill(0x20));
    },
  });
  return { stream, counted };
}

/** The listing route through a handler whose upstream answers with `answer()`. */
async function listThrough(answer: () => Response) {
  const logs: string[] = [];
  const handler = createSigningHandler({
    apiBaseUrl: 'http://upstream.invalid/api',
    apiKey: 'pk_body',
    apiSecret: 'sk_body_secret_0123456789abcdef',
    chatbotId: 'bot_body',
    logger: { warn: (m: string) => logs.push(m), error: (m: string) => logs.push(m) },
    fetch: async () => answer(),
  });
  const visitor = await handler(
    new Request('http://localhost/chatbot/visitor', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
  );
  const { token } = ((await visitor.json()) as { data: { token: string } }).data;
  const response = await handler(new Request('http://localhost/chatbot/sessions', { headers: { Authorization: `Bearer ${token}` } }));
  return { status: response.status, logs };
}

describe("reading upstream's answer", () => {
  it('an answer of declared length is read and judged as before any other', async () => {
    const { status } = await listThrough(
      () => new Response(LISTING, { headers: { 'Content-Type': 'application/json', 'Content-Length': String(LISTING.length) } }),
    );
    assert.equal(status, 200);
  });

  it('a compressed answer declaring a small length is read only until it passes the cap: 502', async () => {
    // What a fetch that unpacks gzip hands over: the declared length is the packed one.
    let counted = { pulled: 0 };
    const { status, logs } = await listThrough(() => {
      const body = countedBody(16);
      counted = body.counted;
      return new Response(body.stream, {
        headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': '5000' },
      });
    });
    assert.equal(status, 502);
    assert.ok(counted.pulled <= PULLED_AT_MOST, `reading stopped past the cap (${counted.pulled} of 16 MiB read)`);
    assert.match(logs.join('\n'), /too large or not UTF-8/);
  });

  it('an answer without a declared length is read only until it passes the cap: 502', async () => {
    let counted = { pulled: 0 };
    const { status } = await listThrough(() => {
      const body = countedBody(16);
      counted = body.counted;
      return new Response(body.stream, { headers: { 'Content-Type': 'application/json' } });
    });
    assert.equal(status, 502);
    assert.ok(counted.pulled <= PULLED_AT_MOST, `${counted.pulled} of 16 MiB read`);
  });

  it('a declared length over the cap is not read whole, and one that lies about a larger body is still refused: 502', async () => {
    let counted = { pulled: 0 };
    const over = await listThrough(() => {
      const body = countedBody(16);
      counted = body.counted;
      return new Response(body.stream, { headers: { 'Content-Type': 'application/json', 'Content-Length': String(16 * MIB) } });
    });
    assert.equal(over.status, 502);
    assert.ok(counted.pulled <= PULLED_AT_MOST, `${counted.pulled} of 16 MiB read`);
    // A valid listing behind 5 MiB of spaces, declared as 100 bytes: only the size check refuses it.
    const lying = await listThrough(
      () => new Response(' '.repeat(5 * MIB) + LISTING, { headers: { 'Content-Type': 'application/json', 'Content-Length': '100' } }),
    );
    assert.equal(lying.status, 502, 'the size is checked after a whole read too');
  });
});
