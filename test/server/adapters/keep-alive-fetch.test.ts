// keepAliveFetch, the Node adapters' upstream fetch: the handler behind it gives the same answers
// as behind the global fetch (signed sends, faults → 502/504 with the socket error's code in the
// log), and upstream calls reuse one connection instead of opening one per request.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jsonHeaders, newVisitor, rawRequest, startHandler } from '../helpers/handler-server.js';
import { handlerStackForFile } from '../helpers/stack-for-file.js';
import { keepAliveFetch } from '../../../src/server/adapters/keep-alive-fetch.js';
import { refusedOrigin } from '../../helpers/refused-port.js';

const { upstream, handler } = await handlerStackForFile({ fetch: keepAliveFetch, upstreamTimeoutMs: 300 });
const { token } = await newVisitor(handler.port);

describe('keepAliveFetch', () => {
  let upstreamConnections = 0;

  const send = (content = 'hi') =>
    rawRequest(handler.port, { method: 'POST', path: '/chatbot/message', headers: jsonHeaders(token), body: JSON.stringify({ content }) });

  it('carries signed sends and listings, reusing one upstream connection', async () => {
    // Counted on a fresh upstream: the shared one's connection count includes earlier tests.
    const counted = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'Content-Type': 'application/json', 'X-RateLimit-Reset': '99' });
        res.end('{"data":[],"error":null,"totalItems":0,"pageSize":20,"currentPage":1,"totalPages":0}');
      });
    });
    counted.on('connection', () => upstreamConnections++);
    await new Promise<void>((resolve) => counted.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(counted.address() as AddressInfo).port}`;
    for (let i = 0; i < 20; i++) {
      const response = await keepAliveFetch(`${base}/api/x`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('x-ratelimit-reset'), '99');
      assert.equal(((await response.json()) as { totalPages: number }).totalPages, 0);
    }
    assert.equal(upstreamConnections, 1, 'twenty sequential requests over one kept-alive socket');
    counted.closeAllConnections();
    await new Promise((resolve) => counted.close(resolve));

    const sent = await send('kept alive');
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.json.data, 'You said: kept alive');
    assert.ok(upstream.requests[0]!.signatureValid);
    assert.equal(upstream.requests[0]!.headers['content-length'], String(Buffer.byteLength(upstream.requests[0]!.body)));
    const list = await rawRequest(handler.port, { path: '/chatbot/messages?page=1', headers: jsonHeaders(token) });
    assert.equal(list.status, 200);
    assert.equal(list.json.data.length, 2);
  });

  it("turns faults into the handler's statuses: timeout 504, dropped 502, redirect 502, oversized answer 502", async () => {
    upstream.override = () => 'hang';
    assert.equal((await send()).status, 504);
    upstream.override = () => 'destroy';
    assert.equal((await send()).status, 502);
    upstream.override = () => ({ status: 302, headers: { Location: 'http://127.0.0.1:1/elsewhere' }, body: '' });
    assert.equal((await send()).status, 502);
    assert.match(handler.logs.map((l) => l.message).join('\n'), /redirect \(302\)/);
    upstream.override = () => ({ status: 200, body: `{"data":"${'x'.repeat(5 * 1024 * 1024)}","error":null}` });
    assert.equal((await send()).status, 502);
  });

  it("reads upstream's quota headers as behind the global fetch: its window in the answer's figures, its Retry-After on a 429", async () => {
    const reset = Math.floor(Date.now() / 1000) + 3600;
    const envelope = JSON.stringify({ data: 'noted', error: null, totalItems: 0, pageSize: 0, currentPage: 0, totalPages: 0 });
    upstream.override = () => ({
      status: 200,
      headers: {
        'Content-Type': 'application/json',
        'X-RateLimit-Limit': '100000',
        'X-RateLimit-Remaining': '1',
        'X-RateLimit-Reset': String(reset),
      },
      body: envelope,
    });
    const sent = await send('quota');
    assert.equal(sent.status, 200, sent.text);
    // Upstream's window (1 left) is tighter than the visitor's own: the answer quotes it.
    assert.deepEqual(
      [sent.headers['x-ratelimit-limit'], sent.headers['x-ratelimit-remaining'], sent.headers['x-ratelimit-reset']],
      ['100000', '1', String(reset)],
    );
    upstream.override = () => ({ status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': '42' }, body: '{}' });
    const refused = await send('refused');
    assert.equal(refused.status, 429);
    assert.equal(refused.headers['retry-after'], '42');
  });

  it("reports an unreachable upstream with the socket error's code, as the global fetch does", async () => {
    const unreachable = await startHandler({ baseUrl: `${await refusedOrigin()}/api` }, { fetch: keepAliveFetch });
    try {
      const visitor = await newVisitor(unreachable.port);
      const response = await rawRequest(unreachable.port, {
        method: 'POST',
        path: '/chatbot/message',
        headers: jsonHeaders(visitor.token),
        body: '{"content":"x"}',
      });
      assert.equal(response.status, 502);
      assert.match(unreachable.logs.map((l) => l.message).join('\n'), /could not be reached \(ECONNREFUSED\)/);
    } finally {
      await unreachable.close();
    }
  });

  it('rejects with the abort reason when aborted, and answers a 204 with no body', async () => {
    upstream.override = () => 'hang';
    const controller = new AbortController();
    const reason = new Error('stop');
    const pending = keepAliveFetch(`${upstream.baseUrl}/Dev/x/sessions`, { signal: controller.signal });
    setTimeout(() => controller.abort(reason), 20);
    await assert.rejects(pending, (error) => error === reason);
    upstream.override = () => ({ status: 204 });
    const empty = await keepAliveFetch(`${upstream.baseUrl}/Dev/x/sessions`);
    assert.equal(empty.status, 204);
    assert.equal(empty.body, null);
  });
});
