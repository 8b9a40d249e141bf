// The Node adapter's own work around the Web-standard handler, on real sockets with the real
// emulator as upstream: a request's body stays on the socket until the handler reads it, the
// answer goes out in one writeHead and one end, and a visitor who leaves mid-send still has the
// send seen through and its outcome kept.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { Readable } from 'node:stream';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { createSigningHandler, type SigningHandler } from '../../../src/server/index.js';
import { keepAliveFetch, toNodeListener } from '../../../src/server/adapters/node.js';
import { toWebRequest } from '../../../src/server/adapters/node-request.js';
import { jsonHeaders, listen, newVisitor, rawRequest } from '../helpers/handler-server.js';

const BOT = { id: 'bot_fast', apiKey: 'pk_fast_key', apiSecret: 'sk_fast_secret_0123456789abcdef' };

/** `POST /chatbot/message` as `token`, with `key` as Idempotency-Key when given. */
const sendAs = (port: number, token: string, content: string, key?: string) =>
  rawRequest(port, {
    method: 'POST',
    path: '/chatbot/message',
    headers: { ...jsonHeaders(token), ...(key ? { 'Idempotency-Key': key } : {}) },
    body: JSON.stringify({ content }),
  });

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('the Node fast path', () => {
  let emulator: Emulator;
  let upstream: { url: string; close(): Promise<void> };
  let handler: SigningHandler;
  /** Each reply waits for the gate a test sets here; replies counts what upstream was asked. */
  let replyGate: Promise<void> | undefined;
  let replyAsked: (() => void) | undefined;
  let replies = 0;

  before(async () => {
    emulator = createEmulator({
      db: ':memory:',
      chatbots: [{ ...BOT, tier: 'enterprise', dailyLimit: 10_000 }],
      replySource: {
        name: 'gated-echo',
        reply: async ({ content }) => {
          replies++;
          replyAsked?.();
          await replyGate;
          return `Echo: ${content}`;
        },
      },
    });
    upstream = await emulator.listen({ port: 0 });
    handler = createSigningHandler({
      apiBaseUrl: upstream.url,
      apiKey: BOT.apiKey,
      apiSecret: BOT.apiSecret,
      chatbotId: BOT.id,
      fetch: keepAliveFetch,
      logger: { warn() {}, error() {} },
    });
  });
  after(async () => {
    await upstream.close();
    emulator.close();
  });

  it("reads a Node request's body only when the Request's body is read", async () => {
    const req = Object.assign(Readable.from([Buffer.from('{"content":'), Buffer.from('"late"}')]), {
      method: 'POST',
      url: '/chatbot/message',
      headers: { host: 'localhost' },
      rawHeaders: ['Host', 'localhost', 'Content-Type', 'application/json'],
      socket: { remoteAddress: '127.0.0.1' },
    }) as unknown as IncomingMessage;
    const { request } = toWebRequest(req);
    await new Promise((resolve) => setImmediate(resolve));
    // Never switched to flowing or paused: nobody has listened to the socket's data yet.
    assert.equal(req.readableFlowing, null);
    assert.deepEqual(await request.json(), { content: 'late' });
  });

  it('answers a request it refuses before the body without waiting for that body', { timeout: 10_000 }, async () => {
    const server = await listen(createServer(toNodeListener(handler)));
    try {
      // Headers announce 1,000 bytes; 10 arrive and the rest never does. The handler refuses the
      // request (no identity) from its headers, so the answer comes while the body is still open.
      const socket: Socket = connect(server.port, '127.0.0.1');
      const received: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => received.push(chunk));
      const closed = new Promise((resolve) => socket.on('close', resolve));
      socket.write(
        'POST /chatbot/message HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"content"',
      );
      await closed;
      const answer = Buffer.concat(received).toString('utf8');
      assert.match(answer, /^HTTP\/1\.1 401 /);
      // The unread body is not drained: the connection closes after the answer.
      assert.match(answer, /\r\nconnection: close\r\n/i);
      assert.match(answer, /"error":"Your chat identity is missing/);
    } finally {
      await server.close();
    }
  });

  it('writes the answer in one writeHead and one end, its length declared', async () => {
    const calls: string[] = [];
    const listener = toNodeListener(handler);
    const server = await listen(
      createServer((req: IncomingMessage, res: ServerResponse) => {
        for (const method of ['writeHead', 'setHeader', 'write', 'end', 'flushHeaders'] as const) {
          const original = res[method].bind(res) as (...args: unknown[]) => unknown;
          (res as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
            if (req.url === '/chatbot/message') calls.push(method === 'end' ? `end ${typeof args[0]}` : method);
            return original(...args);
          };
        }
        listener(req, res);
      }),
    );
    try {
      const { token } = await newVisitor(server.port);
      const sent = await sendAs(server.port, token, 'in one go');
      assert.equal(sent.status, 200, sent.text);
      assert.equal(sent.json.data, 'Echo: in one go');
      assert.equal(sent.headers['content-length'], String(Buffer.byteLength(sent.text)));
      assert.equal(sent.headers['transfer-encoding'], undefined);
      assert.equal(sent.headers['cache-control'], 'no-store');
      // Headers the core added to the answer after making it (its budget, then Vary) are written too.
      assert.ok(sent.headers['x-ratelimit-limit']);
      assert.equal(sent.headers['x-ratelimit-remaining'], String(Number(sent.headers['x-ratelimit-limit']) - 1));
      assert.equal(sent.headers.vary, 'Origin');
      assert.deepEqual(calls, ['writeHead', 'end string']);
    } finally {
      await server.close();
    }
  });

  it('writes any other Response whole too: its stream read first, then one writeHead', async () => {
    const calls: string[] = [];
    const streaming: SigningHandler = async () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('{"data":'));
            controller.enqueue(new TextEncoder().encode('"two chunks","error":null}'));
            controller.close();
          },
        }),
        { status: 201, headers: { 'Content-Type': 'application/json', 'X-Extra': 'kept' } },
      );
    const listener = toNodeListener(streaming);
    const server = await listen(
      createServer((req, res) => {
        for (const method of ['writeHead', 'setHeader', 'write'] as const) {
          const original = res[method].bind(res) as (...args: unknown[]) => unknown;
          (res as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => (calls.push(method), original(...args));
        }
        listener(req, res);
      }),
    );
    try {
      const answer = await rawRequest(server.port, { path: '/anything' });
      assert.equal(answer.status, 201);
      assert.deepEqual(answer.json, { data: 'two chunks', error: null });
      assert.equal(answer.headers['x-extra'], 'kept');
      assert.equal(answer.headers['content-length'], String(Buffer.byteLength(answer.text)));
      assert.deepEqual(calls, ['writeHead']);
    } finally {
      await server.close();
    }
  });

  it('sees a send through when the visitor leaves mid-send, and keeps its outcome for the retry', async () => {
    const sockets: Socket[] = [];
    const server = await listen(createServer(toNodeListener(handler)).on('connection', (socket: Socket) => sockets.push(socket)));
    try {
      const { token } = await newVisitor(server.port);
      const repliesBefore = replies;
      const release = gate();
      const asked = gate();
      replyGate = release.opened;
      replyAsked = asked.open;
      const leaving = httpRequest({
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path: '/chatbot/message',
        headers: { ...jsonHeaders(token), 'Idempotency-Key': 'key-leaving' },
        agent: false,
      });
      leaving.on('error', () => undefined);
      leaving.end('{"content":"left before the reply"}');
      // Upstream is working on the send: the visitor goes away, and the handler sees it go.
      await asked.opened;
      const handlerSide = sockets.at(-1)!;
      const gone = new Promise((resolve) => handlerSide.once('close', resolve));
      leaving.destroy();
      await gone;
      release.open();

      const retry = await sendAs(server.port, token, 'left before the reply', 'key-leaving');
      assert.equal(retry.status, 200, retry.text);
      assert.equal(retry.json.data, 'Echo: left before the reply');
      assert.equal(retry.headers['idempotency-replayed'], 'true');
      assert.equal(replies - repliesBefore, 1, 'upstream was asked once');
      const listed = await rawRequest(server.port, { path: '/chatbot/messages?page=1', headers: jsonHeaders(token) });
      const questions = (listed.json.data as Array<{ senderType: string; text: string }>).filter((m) => m.senderType === 'User');
      assert.deepEqual(
        questions.map((m) => m.text),
        ['left before the reply'],
      );
    } finally {
      replyGate = undefined;
      replyAsked = undefined;
      await server.close();
    }
  });
});
