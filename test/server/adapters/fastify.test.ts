// The Fastify plugin on a real socket: mounted next to the application's own JSON routes with no
// body-parser setting, it reads bodies itself (raw, capped), passes the raw request target on,
// and takes the client address from the socket.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonHeaders, newVisitor, rawRequest } from '../helpers/handler-server.js';
import { handlerOptions } from '../helpers/handler-options.js';
import { recordingUpstreamForFile } from '../helpers/stack-for-file.js';
import { watchingIdentify, type SeenByIdentify } from '../helpers/watching-identify.js';
import { fastifyChatbot } from '../../../src/server/adapters/fastify.js';
import type { SigningHandlerOptions } from '../../../src/server/index.js';

const upstream = await recordingUpstreamForFile();

describe('Fastify plugin', () => {
  let app: FastifyInstance;
  let port: number;

  const options = () => handlerOptions(upstream);

  const STILL = Date.now();

  before(async () => {
    app = Fastify();
    // The application's own route, parsed by Fastify's JSON parser: the plugin must leave it be.
    app.post('/echo', async (request) => ({ got: request.body }));
    // On a clock that stands still, every new visitor falls in one window of the limit.
    await app.register(fastifyChatbot, { ...options(), limits: { visitorsPerMinutePerAddress: 3 }, now: () => STILL });
    await app.register(fastifyChatbot, { ...options(), basePath: '/support/chat' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  after(() => app.close());

  it("answers visitor, send and list with no body-parser setting, and leaves the app's JSON routes parsed", async () => {
    const visitor = await newVisitor(port);
    const sent = await rawRequest(port, {
      method: 'POST',
      path: '/chatbot/message',
      headers: jsonHeaders(visitor.token),
      body: '{"content":"via fastify","userId":"v_mallory"}',
    });
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.json.data, 'You said: via fastify');
    assert.equal(sent.headers['cache-control'], 'no-store');
    assert.deepEqual(JSON.parse(upstream.requests[0]!.body), {
      user: { id: visitor.userId, name: 'Visitor' },
      message: { content: 'via fastify' },
    });
    assert.ok(upstream.requests[0]!.signatureValid);
    const list = await rawRequest(port, { path: '/chatbot/messages', headers: jsonHeaders(visitor.token) });
    assert.equal(list.status, 200);
    assert.equal(list.json.data.length, 2);

    const echo = await rawRequest(port, { method: 'POST', path: '/echo', headers: jsonHeaders(), body: '{"a":1}' });
    assert.deepEqual(echo.json, { got: { a: 1 } });
  });

  it("gives the handler's own answers for bodies: 415 for non-JSON, 413 for oversized chunked bodies", async () => {
    const visitor = await newVisitor(port);
    const plain = await rawRequest(port, {
      method: 'POST',
      path: '/chatbot/message',
      headers: { Authorization: `Bearer ${visitor.token}`, 'Content-Type': 'text/plain' },
      body: '{"content":"x"}',
    });
    assert.equal(plain.status, 415);
    assert.equal(plain.json.data, null);
    const untyped = await rawRequest(port, {
      method: 'POST',
      path: '/chatbot/message',
      headers: { Authorization: `Bearer ${visitor.token}` },
      body: '{"content":"x"}',
    });
    assert.equal(untyped.status, 415);
    const big = await rawRequest(port, {
      method: 'POST',
      path: '/chatbot/message',
      headers: jsonHeaders(visitor.token),
      body: `{"content":"${'x'.repeat(40_000)}"}`,
      chunkSize: 4096,
    });
    assert.equal(big.status, 413);
    assert.equal(upstream.requests.length, 0);
  });

  it('passes the raw target on, so dot segments are refused rather than resolved', async () => {
    const visitor = await newVisitor(port);
    for (const path of ['/chatbot/messages/../admin/users', '/chatbot/messages/%2e%2e%2fadmin%2fusers']) {
      const response = await rawRequest(port, { path, headers: jsonHeaders(visitor.token) });
      assert.equal(response.status, 400, path);
    }
    assert.equal(upstream.requests.length, 0);
  });

  it('takes the client address from the socket, not from X-Forwarded-For', async () => {
    // From an address no other test uses: its window starts empty.
    const statuses = [];
    for (let i = 0; i < 7; i++) {
      const response = await rawRequest(port, {
        method: 'POST',
        path: '/chatbot/visitor',
        headers: { ...jsonHeaders(), 'X-Forwarded-For': `203.0.113.${i}` },
        body: '{}',
        localAddress: '127.0.0.23',
      });
      statuses.push(response.status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429, 429]);
  });

  it("hands the host's identify() a working Request", async () => {
    const seen: SeenByIdentify[] = [];
    const other = Fastify();
    await other.register(fastifyChatbot, { ...options(), identify: watchingIdentify(seen) });
    await other.listen({ port: 0, host: '127.0.0.1' });
    try {
      const sent = await rawRequest((other.server.address() as { port: number }).port, {
        method: 'POST',
        path: '/chatbot/message',
        headers: { ...jsonHeaders(), Cookie: 'session=abc' },
        body: '{"content":"seen by the host"}',
      });
      assert.equal(sent.status, 200, sent.text);
      assert.equal(sent.json.data, 'You said: seen by the host');
      assert.deepEqual(seen, [{ isRequest: true, cookie: 'session=abc', body: '{"content":"seen by the host"}', signalLive: true }]);
      assert.equal((JSON.parse(upstream.requests[0]!.body) as { user: { id: string } }).user.id, 'host_user_1');
    } finally {
      await other.close();
    }
  });

  it('serves under another basePath, and refuses a prefix with a message saying what to do', async () => {
    const created = await rawRequest(port, { method: 'POST', path: '/support/chat/visitor', headers: jsonHeaders(), body: '{}' });
    assert.equal(created.status, 200, created.text);
    const other = Fastify();
    await assert.rejects(async () => {
      await other.register(fastifyChatbot, { ...options(), prefix: '/api' } as SigningHandlerOptions);
      await other.ready();
    }, /without a prefix \("\/api"\) and set basePath: "\/api\/chatbot"/);
    await other.close();
  });
});
