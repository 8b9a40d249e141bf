// The browser-facing routes doing their job, through real HTTP on both sides: the handler
// behind node:http, the recording upstream verifying every signature independently.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { API_SECRET, CHATBOT_ID } from '../helpers/recording-upstream.js';
import { jsonHeaders, newVisitor, rawRequest } from '../helpers/handler-server.js';
import { ROOMY_SEND_LIMITS } from '../helpers/handler-options.js';
import { handlerStackForFile } from '../helpers/stack-for-file.js';
import { adminTokenAuthorizer } from '../../../src/server/index.js';

const ADMIN_TOKEN = 'admin-token-0123456789abcdef';
// Limits are tested in limits.test.ts; here they would only get in the way of many sends.
const { upstream, handler } = await handlerStackForFile({ authorizeAdmin: adminTokenAuthorizer(ADMIN_TOKEN), limits: ROOMY_SEND_LIMITS });

describe('signing handler routes', () => {
  it('POST /visitor issues a token and a v_ user id, with no-store and no upstream call', async () => {
    const response = await rawRequest(handler.port, { method: 'POST', path: '/chatbot/visitor', headers: jsonHeaders(), body: '{}' });
    assert.equal(response.status, 200);
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.match(response.headers['content-type'] ?? '', /^application\/json/);
    assert.equal(response.json.error, null);
    assert.match(response.json.data.userId, /^v_[A-Za-z0-9_-]{22}$/);
    assert.match(response.json.data.token, /^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    assert.equal(upstream.requests.length, 0);
  });

  it('POST /visitor with a valid token renews it for the same user; with a bad one issues a new identity', async () => {
    const first = await newVisitor(handler.port);
    const renewed = await newVisitor(handler.port, { Authorization: `Bearer ${first.token}` });
    assert.equal(renewed.userId, first.userId);
    const forged = await newVisitor(handler.port, { Authorization: `Bearer ${first.token.slice(0, -2)}xx` });
    assert.notEqual(forged.userId, first.userId);
    const empty = await rawRequest(handler.port, {
      method: 'POST',
      path: '/chatbot/visitor',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(empty.status, 200, 'an empty JSON body is accepted');
  });

  it('POST /message sends as the visitor, signed, with the name given or "Visitor"', async () => {
    const visitor = await newVisitor(handler.port);
    const named = await rawRequest(handler.port, {
      method: 'POST',
      path: '/chatbot/message',
      headers: jsonHeaders(visitor.token),
      body: JSON.stringify({ content: 'Hello there', name: 'Ada', file: 'https://example.com/a.png' }),
    });
    assert.equal(named.status, 200, named.text);
    assert.deepEqual(named.json, { data: 'You said: Hello there', error: null, totalItems: 0, pageSize: 0, currentPage: 0, totalPages: 0 });
    const [call] = upstream.requests;
    assert.ok(call!.signatureValid, 'the upstream verified the signature with an independent HMAC');
    assert.equal(call!.method, 'POST');
    assert.equal(call!.target, `/api/Dev/${CHATBOT_ID}/message`);
    assert.deepEqual(JSON.parse(call!.body), {
      user: { id: visitor.userId, name: 'Ada' },
      message: { content: 'Hello there', file: 'https://example.com/a.png' },
    });

    await rawRequest(handler.port, {
      method: 'POST',
      path: '/chatbot/message',
      headers: jsonHeaders(visitor.token),
      body: JSON.stringify({ content: 'Again' }),
    });
    assert.deepEqual(JSON.parse(upstream.requests[1]!.body).user, { id: visitor.userId, name: 'Visitor' });
  });

  it('GET /messages and /sessions list only the caller, with paging re-encoded', async () => {
    const visitor = await newVisitor(handler.port);
    upstream.seed({ chatUserId: visitor.userId, text: 'mine' });
    upstream.seed({ chatUserId: 'v_someoneelse0000000000000', text: 'theirs' });
    const list = await rawRequest(handler.port, { path: '/chatbot/messages?page=1&pageSize=5', headers: jsonHeaders(visitor.token) });
    assert.equal(list.status, 200);
    assert.deepEqual(
      list.json.data.map((m: { text: string }) => m.text),
      ['mine'],
    );
    assert.equal(list.json.totalItems, 1);
    assert.equal(upstream.requests[0]!.target, `/api/Dev/${CHATBOT_ID}/messages?userId=${visitor.userId}&page=1&pageSize=5`);

    const bySession = await rawRequest(handler.port, {
      path: `/chatbot/messages?sessionId=${encodeURIComponent('s a&b=c')}`,
      headers: jsonHeaders(visitor.token),
    });
    assert.equal(bySession.status, 200);
    assert.equal(upstream.requests[1]!.target, `/api/Dev/${CHATBOT_ID}/messages?sessionId=s%20a%26b%3Dc&userId=${visitor.userId}`);

    const sessions = await rawRequest(handler.port, { path: '/chatbot/sessions', headers: jsonHeaders(visitor.token) });
    assert.equal(sessions.status, 200);
    assert.deepEqual(
      sessions.json.data.map((s: { chatUserId: string }) => s.chatUserId),
      [visitor.userId],
    );
    assert.equal(upstream.requests[2]!.target, `/api/Dev/${CHATBOT_ID}/sessions?userId=${visitor.userId}`);
    assert.ok(upstream.requests.every((r) => r.signatureValid));
  });

  it("GET /messages/{id} returns the caller's message and 404 for another visitor's or a missing one", async () => {
    const visitor = await newVisitor(handler.port);
    const mine = upstream.seed({ chatUserId: visitor.userId, text: 'mine' });
    const theirs = upstream.seed({ chatUserId: 'v_someoneelse0000000000000', text: 'secret of another visitor' });
    const own = await rawRequest(handler.port, { path: `/chatbot/messages/${mine.id}`, headers: jsonHeaders(visitor.token) });
    assert.equal(own.status, 200);
    assert.equal(own.json.data.text, 'mine');
    const other = await rawRequest(handler.port, { path: `/chatbot/messages/${theirs.id}`, headers: jsonHeaders(visitor.token) });
    const missing = await rawRequest(handler.port, { path: '/chatbot/messages/nope', headers: jsonHeaders(visitor.token) });
    assert.equal(other.status, 404);
    assert.doesNotMatch(other.text, /secret of another visitor/);
    assert.deepEqual(other.json, missing.json, "another visitor's message is indistinguishable from a missing one");
  });

  it("a visitor sees an empty list for another visitor's session id", async () => {
    const alice = await newVisitor(handler.port);
    const bob = await newVisitor(handler.port);
    const message = upstream.seed({ chatUserId: alice.userId, text: 'alice only' });
    const response = await rawRequest(handler.port, {
      path: `/chatbot/messages?sessionId=${message.chatSessionId}`,
      headers: jsonHeaders(bob.token),
    });
    assert.equal(response.status, 200);
    assert.deepEqual(response.json.data, []);
  });

  it('admin routes pass only documented parameters, with the admin token', async () => {
    const seeded = upstream.seed({ chatUserId: 'v_a000000000000000000000', text: 'x' });
    const admin = { 'X-Admin-Token': ADMIN_TOKEN };
    const cases: Array<[string, string]> = [
      ['/chatbot/admin/users?page=2&pageSize=10&evil=1', `/users?page=2&pageSize=10`],
      ['/chatbot/admin/sessions?userId=u1&sessionId=zz', `/sessions?userId=u1`],
      ['/chatbot/admin/messages?sessionId=s1&userId=u1&page=1&pageSize=3&sent=true', `/messages?sessionId=s1&userId=u1&page=1&pageSize=3`],
      [
        '/chatbot/admin/messages/count?from=2026-01-01&to=2026-02-01&sent=true&userId=u',
        `/messages/count?from=2026-01-01&to=2026-02-01&sent=true`,
      ],
      [
        '/chatbot/admin/messages/count-by-month?from=2026-01-01T00:00:00Z&to=2026-03-01&sent=1',
        `/messages/count-by-month?from=2026-01-01T00%3A00%3A00Z&to=2026-03-01`,
      ],
      [`/chatbot/admin/messages/${seeded.id}`, `/messages/${seeded.id}`],
    ];
    for (const [path, expected] of cases) {
      upstream.requests.length = 0;
      const response = await rawRequest(handler.port, { path, headers: admin });
      assert.equal(response.status, 200, `${path}: ${response.text}`);
      assert.equal(upstream.requests.length, 1);
      assert.equal(upstream.requests[0]!.target, `/api/Dev/${CHATBOT_ID}${expected}`, path);
      assert.ok(upstream.requests[0]!.signatureValid);
    }
  });

  it('checks the send body: content 1–4,000 characters, file an http(s) URL, name at most 100', async () => {
    const visitor = await newVisitor(handler.port);
    const bad: Array<[unknown, RegExp]> = [
      [{}, /Write a message/],
      [{ content: '' }, /Write a message/],
      [{ content: '   ' }, /Write a message/],
      [{ content: 42 }, /Write a message/],
      [{ content: '😀'.repeat(4001) }, /at most 4000 characters/],
      [{ content: 'hi', file: 'javascript:alert(1)' }, /http or https/],
      [{ content: 'hi', file: 'file:///etc/passwd' }, /http or https/],
      [{ content: 'hi', file: '/relative.png' }, /http or https/],
      // The URL parser would take these; upstream takes a link only written out in full.
      [{ content: 'hi', file: 'https:evil.example/x' }, /written out in full/],
      [{ content: 'hi', file: ' https://files.example/a.png' }, /written out in full/],
      [{ content: 'hi', file: 7 }, /http or https/],
      [{ content: 'hi', name: 'n'.repeat(101) }, /at most 100 characters/],
      [{ content: 'hi', name: ['x'] }, /at most 100 characters/],
    ];
    for (const [body, message] of bad) {
      const response = await rawRequest(handler.port, {
        method: 'POST',
        path: '/chatbot/message',
        headers: jsonHeaders(visitor.token),
        body: JSON.stringify(body),
      });
      assert.equal(response.status, 400, JSON.stringify(body).slice(0, 60));
      assert.match(response.json.error, message);
    }
    assert.equal(upstream.requests.length, 0);
    // The limits themselves are accepted: 4,000 characters counted as code points (emoji are one each).
    const longest = await rawRequest(handler.port, {
      method: 'POST',
      path: '/chatbot/message',
      headers: jsonHeaders(visitor.token),
      body: JSON.stringify({ content: '😀'.repeat(4000), name: 'n'.repeat(100) }),
    });
    assert.equal(longest.status, 200, longest.text);
  });

  it('passes an upstream 400 validation body on as it is', async () => {
    const visitor = await newVisitor(handler.port);
    const problem = {
      type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
      title: 'One or more validation errors occurred.',
      status: 400,
      errors: { 'message.content': ['bad'] },
      traceId: 't-1',
    };
    upstream.override = () => ({ status: 400, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(problem) });
    const response = await rawRequest(handler.port, {
      method: 'POST',
      path: '/chatbot/message',
      headers: jsonHeaders(visitor.token),
      body: JSON.stringify({ content: 'hi' }),
    });
    assert.equal(response.status, 400);
    assert.deepEqual(response.json, problem);
  });

  it('never puts the API secret in any response', async () => {
    const visitor = await newVisitor(handler.port);
    const responses = await Promise.all([
      rawRequest(handler.port, { path: '/chatbot/messages', headers: jsonHeaders(visitor.token) }),
      rawRequest(handler.port, { path: '/chatbot/admin/users' }),
      rawRequest(handler.port, { path: '/chatbot/nope' }),
    ]);
    for (const response of responses) {
      assert.doesNotMatch(response.text + JSON.stringify(response.headers), new RegExp(API_SECRET));
      assert.equal(response.headers['cache-control'], 'no-store');
    }
  });
});
