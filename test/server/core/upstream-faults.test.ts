// Upstream faults become the handler's documented statuses (docs/handler.md, "Routes": 502, 504, 429), without upstream texts, and the site
// owner gets a log line (never a secret or token) when it is their configuration.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { API_KEY, API_SECRET } from '../helpers/recording-upstream.js';
import { jsonHeaders, listen, newVisitor, rawRequest, startHandler } from '../helpers/handler-server.js';
import { handlerStackForFile } from '../helpers/stack-for-file.js';
import { refusedOrigin } from '../../helpers/refused-port.js';

const INTERNAL = 'NullReferenceException at Chatbot.Internal.Db (10.1.2.3)';
const { upstream, handler } = await handlerStackForFile({ upstreamTimeoutMs: 300 });
const { token } = await newVisitor(handler.port);

describe('upstream faults', () => {
  const send = () =>
    rawRequest(handler.port, { method: 'POST', path: '/chatbot/message', headers: jsonHeaders(token), body: '{"content":"hi"}' });
  const list = () => rawRequest(handler.port, { path: '/chatbot/messages', headers: jsonHeaders(token) });

  function assertClean(response: { text: string; headers: Record<string, unknown> }) {
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.doesNotMatch(response.text, /NullReference|10\.1\.2\.3|127\.0\.0\.1|ECONNREFUSED|Internal/);
    assert.doesNotMatch(response.text, new RegExp(API_SECRET));
    for (const log of handler.logs) {
      assert.doesNotMatch(log.message, new RegExp(`${API_SECRET}|${token}|${API_KEY}`));
    }
  }

  it('an upstream that does not answer in time → 504', async () => {
    upstream.override = () => 'hang';
    const response = await send();
    assert.equal(response.status, 504);
    assert.match(response.json.error, /took too long/);
    assertClean(response);
    assert.equal(upstream.requests.length, 1);
  });

  it('an upstream that drops the connection → 502', async () => {
    upstream.override = () => 'destroy';
    const response = await list();
    assert.equal(response.status, 502);
    assertClean(response);
  });

  it('an unreachable upstream → 502', async () => {
    const lonely = await startHandler({ baseUrl: `${await refusedOrigin()}/api` });
    try {
      const visitor = await newVisitor(lonely.port);
      const response = await rawRequest(lonely.port, { path: '/chatbot/sessions', headers: jsonHeaders(visitor.token) });
      assert.equal(response.status, 502);
      assert.match(response.json.error, /cannot be reached/);
      assert.doesNotMatch(response.text, /ECONNREFUSED|127\.0\.0\.2/);
      assert.deepEqual(lonely.logs, [{ level: 'error', message: 'upstream GET /sessions could not be reached (ECONNREFUSED)' }]);
    } finally {
      await lonely.close();
    }
  });

  for (const status of [500, 502, 503]) {
    it(`upstream ${status} → 502 with an envelope, the upstream text withheld`, async () => {
      upstream.override = () => ({
        status,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ data: null, error: INTERNAL }),
      });
      const response = await send();
      assert.equal(response.status, 502);
      assert.equal(response.json.data, null);
      assert.equal(typeof response.json.error, 'string');
      assertClean(response);
    });
  }

  it('upstream 429 → 429 with Retry-After counted from X-RateLimit-Reset', async () => {
    const reset = Math.floor(Date.now() / 1000) + 120;
    upstream.override = () => ({
      status: 429,
      headers: { 'Content-Type': 'application/json', 'X-RateLimit-Reset': String(reset), 'X-RateLimit-Remaining': '0' },
      body: '{"data":null,"error":"quota"}',
    });
    const response = await send();
    assert.equal(response.status, 429);
    const retryAfter = Number(response.headers['retry-after']);
    assert.ok(retryAfter >= 118 && retryAfter <= 121, `Retry-After ${retryAfter}`);
    assertClean(response);
  });

  it('upstream 429 without X-RateLimit-Reset still carries a Retry-After', async () => {
    upstream.override = () => ({ status: 429, body: '' });
    const response = await list();
    assert.equal(response.status, 429);
    assert.equal(response.headers['retry-after'], '60', 'a minute, when upstream does not say');
  });

  for (const status of [401, 403]) {
    it(`upstream ${status} (the handler's own credentials) → 502, explained in the log only`, async () => {
      upstream.override = () => ({
        status,
        headers: { 'Content-Type': 'application/json' },
        body: '{"data":null,"error":"Invalid signature"}',
      });
      const response = await list();
      assert.equal(response.status, 502);
      assert.doesNotMatch(response.text, /signature|CHATBOT_API/i);
      assert.ok(
        handler.logs.some(
          (l) =>
            l.level === 'error' &&
            /refused the handler's credentials: check CHATBOT_API_KEY\/SECRET\/ID|refused the handler's credentials.*check CHATBOT_API_KEY\/SECRET\/ID/.test(
              l.message,
            ),
        ),
      );
      assertClean(response);
    });
  }

  it('an upstream redirect is not followed → 502, and the redirect target receives nothing', async () => {
    let hits = 0;
    const target = await listen(
      createServer((_req, res) => {
        hits++;
        res.end('{}');
      }),
    );
    try {
      upstream.override = () => ({ status: 302, headers: { Location: `${target.origin}/steal` } });
      const response = await list();
      assert.equal(response.status, 502);
      assert.equal(hits, 0);
      assertClean(response);
    } finally {
      await target.close();
    }
  });

  it('a malformed upstream answer (not JSON, or no data array) → 502', async () => {
    upstream.override = () => ({ status: 200, headers: { 'Content-Type': 'text/html' }, body: '<html>proxy error</html>' });
    assert.equal((await list()).status, 502);
    upstream.override = () => ({ status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"data":"nope","error":null}' });
    assert.equal((await list()).status, 502);
  });

  it('records of other users returned despite the filter are withheld', async () => {
    const { userId } = await newVisitor(handler.port, { Authorization: `Bearer ${token}` });
    upstream.override = () => ({
      status: 200,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        data: [
          { id: 'a', chatUserId: userId, text: 'mine' },
          { id: 'b', chatUserId: 'v_other', text: 'theirs' },
        ],
        error: null,
        totalItems: 2,
        pageSize: 20,
        currentPage: 1,
        totalPages: 1,
        internalDebug: 'x',
      }),
    });
    const response = await list();
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.json.data.map((m: { id: string }) => m.id),
      ['a'],
    );
    assert.equal(response.json.internalDebug, undefined, 'undocumented envelope fields are dropped');
  });

  it('upstream 404 on a chatbot-wide route (wrong CHATBOT_ID) → 502 and a log line', async () => {
    upstream.override = () => ({
      status: 404,
      headers: { 'Content-Type': 'application/json' },
      body: '{"data":null,"error":"Chatbot not found"}',
    });
    const response = await send();
    assert.equal(response.status, 502);
    assert.deepEqual(handler.logs, [
      { level: 'error', message: 'upstream answered 404 on POST /message: the chatbot was not found, check CHATBOT_ID (chatbotId)' },
    ]);
  });

  it('every upstream request has a fresh timestamp and its own signature', async () => {
    let clock = Date.now();
    const ticking = await startHandler(upstream, { now: () => (clock += 1500) });
    try {
      const visitor = await newVisitor(ticking.port);
      upstream.requests.length = 0;
      await rawRequest(ticking.port, { path: '/chatbot/messages', headers: jsonHeaders(visitor.token) });
      await rawRequest(ticking.port, { path: '/chatbot/messages', headers: jsonHeaders(visitor.token) });
      const [first, second] = upstream.requests;
      assert.notEqual(first!.timestamp, second!.timestamp);
      assert.notEqual(first!.headers['x-signature'], second!.headers['x-signature']);
      assert.ok(first!.signatureValid && second!.signatureValid);
    } finally {
      await ticking.close();
    }
  });
});
