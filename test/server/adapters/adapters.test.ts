// The Node bridge (toNodeListener) and the Express adapter, on real sockets: translation of
// the request (URL from a possibly weird Host, raw target, streamed and capped body, the
// socket's address) and of the response.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import express from 'express';
import { jsonHeaders, listen, newVisitor, rawRequest, startHandler, type RunningHandler } from '../helpers/handler-server.js';
import { handlerOptions } from '../helpers/handler-options.js';
import { recordingUpstreamForFile } from '../helpers/stack-for-file.js';
import { watchingIdentify, type SeenByIdentify } from '../helpers/watching-identify.js';
import { createSigningHandler } from '../../../src/server/index.js';
import { createExpressHandler, toExpress } from '../../../src/server/adapters/express.js';

const upstream = await recordingUpstreamForFile();

describe('adapters', () => {
  const options = () => handlerOptions(upstream);

  describe('toNodeListener', () => {
    let handler: RunningHandler;
    before(async () => {
      handler = await startHandler(upstream, { limits: { visitorsPerMinutePerAddress: 2 } });
    });
    after(() => handler.close());

    it('survives weird Host headers and absolute-form targets', async () => {
      for (const host of ['exa mple', 'a/b@evil.example', '', '[::1', 'x'.repeat(300), 'evil.example:99999999']) {
        const response = await rawRequest(handler.port, { path: '/chatbot/nope', headers: { Host: host } });
        assert.equal(response.status, 404, `Host ${JSON.stringify(host)}`);
        assert.equal(response.json.data, null);
      }
      const absolute = await rawRequest(handler.port, { path: `http://127.0.0.1:${handler.port}/chatbot/nope` });
      assert.equal(absolute.status, 404);
      const protocolRelative = await rawRequest(handler.port, { path: '//evil.example/chatbot/visitor' });
      assert.equal(protocolRelative.status, 404, 'a // target stays a path, not a host');
    });

    it('takes the client address from the socket, not from X-Forwarded-For', async () => {
      const statuses = [];
      for (const ip of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
        const response = await rawRequest(handler.port, {
          method: 'POST',
          path: '/chatbot/visitor',
          headers: { ...jsonHeaders(), 'X-Forwarded-For': ip },
          body: '{}',
        });
        statuses.push(response.status);
      }
      assert.deepEqual(statuses, [200, 200, 429]);
    });

    it("hands the host's callbacks the request with its body inside, and still reads the body itself", async () => {
      const seen: string[] = [];
      const withIdentify = await startHandler(upstream, {
        identify: async (request) => {
          seen.push(await request.clone().text());
          return { userId: 'host_user_1' };
        },
      });
      try {
        const sent = await rawRequest(withIdentify.port, {
          method: 'POST',
          path: '/chatbot/message',
          headers: jsonHeaders(),
          body: '{"content":"seen by the host"}',
        });
        assert.equal(sent.status, 200, sent.text);
        assert.equal(sent.json.data, 'You said: seen by the host');
        assert.deepEqual(seen, ['{"content":"seen by the host"}']);
        assert.equal((JSON.parse(upstream.requests[0]!.body) as { user: { id: string } }).user.id, 'host_user_1');
      } finally {
        await withIdentify.close();
      }
    });
  });

  describe('Express', () => {
    let server: RunningHandler;
    before(async () => {
      const app = express();
      app.get('/', (_req, res) => {
        res.send('home page');
      });
      app.use(createExpressHandler({ ...options(), limits: { visitorsPerMinutePerAddress: 1000 } }));
      // A second handler mounted by path, behind a body parser that already read the body.
      app.use('/parsed', express.json(), toExpress(createSigningHandler({ ...options(), basePath: '/parsed/chatbot' })));
      app.use((_req, res) => {
        res.status(404).send('express 404');
      });
      server = await listen(createServer(app));
    });
    after(() => server.close());

    it('answers under /chatbot and passes everything else on to the app', async () => {
      assert.equal((await rawRequest(server.port, { path: '/' })).text, 'home page');
      assert.equal((await rawRequest(server.port, { path: '/elsewhere' })).text, 'express 404');
      const visitor = await newVisitor(server.port);
      const sent = await rawRequest(server.port, {
        method: 'POST',
        path: '/chatbot/message',
        headers: jsonHeaders(visitor.token),
        body: '{"content":"via express"}',
      });
      assert.equal(sent.status, 200);
      assert.equal(sent.headers['cache-control'], 'no-store');
      assert.equal(JSON.parse(upstream.requests[0]!.body).user.id, visitor.userId);
      assert.ok(upstream.requests[0]!.signatureValid);
    });

    it('refuses raw dot segments and caps chunked bodies', async () => {
      const visitor = await newVisitor(server.port);
      const traversal = await rawRequest(server.port, { path: '/chatbot/messages/../admin/users', headers: jsonHeaders(visitor.token) });
      assert.equal(traversal.status, 400);
      const big = await rawRequest(server.port, {
        method: 'POST',
        path: '/chatbot/message',
        headers: jsonHeaders(visitor.token),
        body: `{"content":"${'x'.repeat(40_000)}"}`,
        chunkSize: 4096,
      });
      assert.equal(big.status, 413);
      assert.equal(upstream.requests.length, 0);
    });

    it('works when mounted by path behind express.json()', async () => {
      const created = await rawRequest(server.port, {
        method: 'POST',
        path: '/parsed/chatbot/visitor',
        headers: jsonHeaders(),
        body: '{}',
      });
      assert.equal(created.status, 200, created.text);
      const { token, userId } = created.json.data;
      const sent = await rawRequest(server.port, {
        method: 'POST',
        path: '/parsed/chatbot/message',
        headers: jsonHeaders(token),
        body: '{"content":"parsed","userId":"v_mallory"}',
      });
      assert.equal(sent.status, 200, sent.text);
      assert.deepEqual(JSON.parse(upstream.requests[0]!.body), { user: { id: userId, name: 'Visitor' }, message: { content: 'parsed' } });
    });

    it("hands the host's identify() a working Request, with or without a body parser before it", async () => {
      const seen: SeenByIdentify[] = [];
      const app = express();
      app.use(createExpressHandler({ ...options(), identify: watchingIdentify(seen) }));
      app.use(
        '/parsed',
        express.json(),
        toExpress(createSigningHandler({ ...options(), basePath: '/parsed/chatbot', identify: watchingIdentify(seen) })),
      );
      const withIdentify = await listen(createServer(app));
      try {
        for (const path of ['/chatbot/message', '/parsed/chatbot/message']) {
          const sent = await rawRequest(withIdentify.port, {
            method: 'POST',
            path,
            headers: { ...jsonHeaders(), Cookie: 'session=abc' },
            body: '{"content":"seen by the host"}',
          });
          assert.equal(sent.status, 200, `${path}: ${sent.text}`);
          assert.equal(sent.json.data, 'You said: seen by the host');
        }
        const expected = { isRequest: true, cookie: 'session=abc', body: '{"content":"seen by the host"}', signalLive: true };
        assert.deepEqual(seen, [expected, expected]);
        assert.deepEqual(
          upstream.requests.map((request) => (JSON.parse(request.body) as { user: { id: string } }).user.id),
          ['host_user_1', 'host_user_1'],
        );
      } finally {
        await withIdentify.close();
      }
    });
  });
});
