// The handler in front of the real emulator (SQLite in memory, signatures verified, sessions
// and listings as upstream does them): two visitors, each sees only their own conversations.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { jsonHeaders, newVisitor, rawRequest, startHandler, type RunningHandler } from './helpers/handler-server.js';
import { adminTokenAuthorizer } from '../../src/server/index.js';

const BOT = { id: 'bot_int', apiKey: 'pk_integration_key', apiSecret: 'sk_integration_secret_0123456789', tier: 'premium' as const };
const ADMIN_TOKEN = 'integration-admin-token-0123';

describe('handler in front of the emulator', () => {
  let emulator: Emulator;
  let upstream: { url: string; close(): Promise<void> };
  let handler: RunningHandler;

  before(async () => {
    emulator = createEmulator({ db: ':memory:', chatbots: [BOT], replySource: { name: 'echo', reply: async (r) => `Echo: ${r.content}` } });
    upstream = await emulator.listen({ port: 0 });
    handler = await startHandler(
      { baseUrl: upstream.url },
      { apiKey: BOT.apiKey, apiSecret: BOT.apiSecret, chatbotId: BOT.id, authorizeAdmin: adminTokenAuthorizer(ADMIN_TOKEN) },
    );
  });
  after(async () => {
    await handler.close();
    await upstream.close();
    emulator.close();
  });

  const send = (token: string, content: string) =>
    rawRequest(handler.port, {
      method: 'POST',
      path: '/chatbot/message',
      headers: jsonHeaders(token),
      body: JSON.stringify({ content, name: 'Someone' }),
    });

  it('two visitors each see only their own sessions and messages', async () => {
    const alice = await newVisitor(handler.port);
    const bob = await newVisitor(handler.port);
    const reply = await send(alice.token, 'alice asks');
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.json.data, 'Echo: alice asks');
    assert.equal((await send(bob.token, 'bob asks')).status, 200);

    const aliceMessages = await rawRequest(handler.port, { path: '/chatbot/messages', headers: jsonHeaders(alice.token) });
    assert.equal(aliceMessages.status, 200);
    assert.deepEqual(aliceMessages.json.data.map((m: { text: string }) => m.text).sort(), ['Echo: alice asks', 'alice asks']);
    assert.ok(aliceMessages.json.data.every((m: { chatUserId: string }) => m.chatUserId === alice.userId));

    const bobSessions = await rawRequest(handler.port, { path: '/chatbot/sessions', headers: jsonHeaders(bob.token) });
    assert.equal(bobSessions.status, 200);
    assert.equal(bobSessions.json.data.length, 1);
    assert.equal(bobSessions.json.data[0].chatUserId, bob.userId);
  });

  it("another visitor's message id answers 404; their session id yields an empty list", async () => {
    const alice = await newVisitor(handler.port);
    const bob = await newVisitor(handler.port);
    await send(alice.token, 'private to alice');
    const [aliceMessage] = (await rawRequest(handler.port, { path: '/chatbot/messages', headers: jsonHeaders(alice.token) })).json.data;

    const own = await rawRequest(handler.port, { path: `/chatbot/messages/${aliceMessage.id}`, headers: jsonHeaders(alice.token) });
    assert.equal(own.status, 200);
    assert.equal(own.json.data.id, aliceMessage.id);

    const peek = await rawRequest(handler.port, { path: `/chatbot/messages/${aliceMessage.id}`, headers: jsonHeaders(bob.token) });
    assert.equal(peek.status, 404);
    assert.doesNotMatch(peek.text, /private to alice/);

    const session = await rawRequest(handler.port, {
      path: `/chatbot/messages?sessionId=${encodeURIComponent(aliceMessage.chatSessionId)}`,
      headers: jsonHeaders(bob.token),
    });
    assert.equal(session.status, 200);
    assert.deepEqual(session.json.data, []);

    const injected = await rawRequest(handler.port, { path: `/chatbot/messages?userId=${alice.userId}`, headers: jsonHeaders(bob.token) });
    assert.ok(injected.json.data.every((m: { chatUserId: string }) => m.chatUserId === bob.userId));
  });

  it('admin routes read everything with the admin token, and nothing without it', async () => {
    const admin = { 'X-Admin-Token': ADMIN_TOKEN };
    const userIds = async () => {
      const users = await rawRequest(handler.port, { path: '/chatbot/admin/users?pageSize=100', headers: admin });
      assert.equal(users.status, 200, users.text);
      return users.json.data.map((user: { id: string }) => user.id).sort();
    };
    const count = async () => {
      const answer = await rawRequest(handler.port, {
        path: '/chatbot/admin/messages/count?from=2000-01-01&to=2100-01-01',
        headers: admin,
      });
      assert.equal(answer.status, 200, answer.text);
      return answer.json.data as number;
    };
    const [usersBefore, countBefore] = [await userIds(), await count()];
    const carol = await newVisitor(handler.port);
    assert.equal((await send(carol.token, 'carol asks')).status, 200);
    assert.deepEqual(await userIds(), [...usersBefore, carol.userId].sort(), 'every user, the new visitor among them');
    assert.equal(await count(), countBefore + 2, 'her question and its reply counted');
    assert.equal((await rawRequest(handler.port, { path: '/chatbot/admin/users' })).status, 403);
  });

  it("passes the emulator's 400 validation body on as it is", async () => {
    const badRange = await rawRequest(handler.port, {
      path: '/chatbot/admin/messages/count?from=yesterday&to=2100-01-01',
      headers: { 'X-Admin-Token': ADMIN_TOKEN },
    });
    assert.equal(badRange.status, 400, badRange.text);
    assert.equal(badRange.json.status, 400);
    assert.ok(badRange.json.errors);
  });

  it('an apostrophe in a user id or a query value is signed as sent: history, look-ups and admin listings work', async () => {
    // A site's own logins (identify()) may name users by e-mail address: o'brien@example.com.
    const members = await startHandler(
      { baseUrl: upstream.url },
      {
        apiKey: BOT.apiKey,
        apiSecret: BOT.apiSecret,
        chatbotId: BOT.id,
        identify: (request) => ({ userId: request.headers.get('X-Test-User') ?? 'nobody' }),
        authorizeAdmin: adminTokenAuthorizer(ADMIN_TOKEN),
      },
    );
    try {
      const user = { 'X-Test-User': "o'brien@example.com" };
      const sent = await rawRequest(members.port, {
        method: 'POST',
        path: '/chatbot/message',
        headers: { 'Content-Type': 'application/json', 'Idempotency-Key': 'apostrophe-key-1', ...user },
        body: JSON.stringify({ content: 'hello from a member' }),
      });
      assert.equal(sent.status, 200, sent.text);
      assert.deepEqual(
        sent.json.stored?.map((m: { text: string }) => m.text),
        ['hello from a member', 'Echo: hello from a member'],
        'the look-up by user id named the stored messages',
      );
      const sessions = await rawRequest(members.port, { path: '/chatbot/sessions', headers: user });
      assert.equal(sessions.status, 200, sessions.text);
      assert.equal(sessions.json.data.length, 1);
      const messages = await rawRequest(members.port, { path: '/chatbot/messages', headers: user });
      assert.equal(messages.status, 200, messages.text);
      assert.equal(messages.json.data.length, 2);
      const unknownSession = await rawRequest(members.port, { path: "/chatbot/messages?sessionId=a'b", headers: user });
      assert.equal(unknownSession.status, 200, unknownSession.text);
      assert.deepEqual(unknownSession.json.data, []);
      const listed = await rawRequest(members.port, {
        path: "/chatbot/admin/messages?userId=o'brien@example.com",
        headers: { 'X-Admin-Token': ADMIN_TOKEN },
      });
      assert.equal(listed.status, 200, listed.text);
      assert.equal(listed.json.data.length, 2);
      assert.deepEqual(members.logs, [], 'nothing logged');
    } finally {
      await members.close();
    }
  });
});
