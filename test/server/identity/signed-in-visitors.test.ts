// Signed-in visitors over real HTTP: the handler with an `identify` that reads a session cookie,
// in front of the real emulator. `/visitor` names the signed-in user without a token (401 for a
// request that is not signed in), every route works from the cookie alone, and browsers on
// another origin get `Access-Control-Allow-Credentials` (preflight and actual request) only when
// their origin is in `allowedOrigins`, never with `*`, always with `Vary: Origin`.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { rawRequest, startHandler, type RunningHandler } from '../helpers/handler-server.js';

const BOT = { id: 'bot_signed_in', apiKey: 'pk_signed_in_key', apiSecret: 'sk_signed_in_secret_0123456789', tier: 'premium' as const };
const SHOP = 'https://shop.example.com';
/** The site's sessions: cookie value → user id, as a login would keep them. */
const SESSIONS = new Map([
  ['session-of-ada-7f3e9c', 'ada'],
  ['session-of-bob-1c2d4b', 'bob'],
]);

describe('signed-in visitors (identify) over HTTP', () => {
  let emulator: Emulator;
  let upstream: { url: string; close(): Promise<void> };
  let handler: RunningHandler;

  before(async () => {
    emulator = createEmulator({ db: ':memory:', chatbots: [BOT], replySource: { name: 'echo', reply: async (r) => `Echo: ${r.content}` } });
    upstream = await emulator.listen({ port: 0 });
    handler = await startHandler(
      { baseUrl: upstream.url },
      {
        apiKey: BOT.apiKey,
        apiSecret: BOT.apiSecret,
        chatbotId: BOT.id,
        allowedOrigins: [SHOP],
        identify(request) {
          const session = /(?:^|;\s*)sid=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
          const userId = session ? SESSIONS.get(session) : undefined;
          return userId ? { userId } : null;
        },
      },
    );
  });
  after(async () => {
    await handler.close();
    await upstream.close();
    emulator.close();
  });

  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown) =>
    rawRequest(handler.port, {
      method,
      path: `/chatbot${path}`,
      headers: body === undefined && method !== 'POST' ? headers : { 'Content-Type': 'application/json', ...headers },
      body: body === undefined && method !== 'POST' ? undefined : JSON.stringify(body ?? {}),
    });
  const asAda = { Cookie: 'sid=session-of-ada-7f3e9c' };
  const asBob = { Cookie: 'theme=dark; sid=session-of-bob-1c2d4b' };

  it('/visitor names the signed-in user with no token, and is a 401 for a request that is not signed in', async () => {
    const ada = await call('POST', '/visitor', asAda);
    assert.equal(ada.status, 200, ada.text);
    assert.deepEqual(ada.json.data, { token: null, userId: 'ada' });
    for (const headers of [{}, { Cookie: 'sid=session-of-nobody' }, { Authorization: 'Bearer anything' }] as Record<string, string>[]) {
      const refused = await call('POST', '/visitor', headers);
      assert.equal(refused.status, 401, JSON.stringify(headers));
      assert.equal(refused.json.data, null);
      assert.equal(typeof refused.json.error, 'string');
    }
  });

  it('every route works from the cookie alone, and a user sees only their own conversation', async () => {
    const sent = await call('POST', '/message', asAda, { content: 'ada asks' });
    assert.equal(sent.status, 200, sent.text);
    assert.equal(sent.json.data, 'Echo: ada asks');
    assert.equal((await call('POST', '/message', asBob, { content: 'bob asks' })).status, 200);
    const sessions = await call('GET', '/sessions', asAda);
    assert.equal(sessions.status, 200);
    assert.equal(sessions.json.data.length, 1);
    const messages = await call('GET', `/messages?sessionId=${sessions.json.data[0].id}`, asAda);
    assert.deepEqual(messages.json.data.map((m: { text: string }) => m.text).sort(), ['Echo: ada asks', 'ada asks']);
    const bobsView = await call('GET', `/messages?sessionId=${sessions.json.data[0].id}`, asBob);
    assert.deepEqual(bobsView.json.data, [], "another user's session id yields nothing");
    assert.equal((await call('GET', '/sessions')).status, 401, 'signed out');
    assert.equal((await call('POST', '/message', {}, { content: 'nobody asks' })).status, 401);
  });

  it('a send with an Idempotency-Key is stored once for the signed-in user', async () => {
    const headers = { ...asBob, 'Idempotency-Key': 'bob-once-0001' };
    const first = await call('POST', '/message', headers, { content: 'bob, exactly once' });
    const again = await call('POST', '/message', headers, { content: 'bob, exactly once' });
    assert.equal(first.status, 200);
    assert.equal(again.text, first.text, 'the first outcome, replayed');
    const stored = await call('GET', '/messages?pageSize=100', asBob);
    assert.equal(stored.json.data.filter((m: { text: string }) => m.text === 'bob, exactly once').length, 1);
  });

  it('allows credentials to an allowed origin only, in the preflight and in the actual answer', async () => {
    const preflight = (origin: string) =>
      call('OPTIONS', '/message', {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type, idempotency-key',
      });
    const allowed = await preflight(SHOP);
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers['access-control-allow-origin'], SHOP);
    assert.equal(allowed.headers['access-control-allow-credentials'], 'true');
    assert.match(String(allowed.headers.vary), /Origin/);
    assert.match(String(allowed.headers['access-control-allow-headers']), /Idempotency-Key/);

    const actual = await call('POST', '/visitor', { ...asAda, Origin: SHOP, 'Sec-Fetch-Site': 'cross-site' });
    assert.equal(actual.status, 200);
    assert.equal(actual.headers['access-control-allow-origin'], SHOP);
    assert.equal(actual.headers['access-control-allow-credentials'], 'true');
    assert.match(String(actual.headers.vary), /Origin/);

    // A signed-out visitor on the allowed origin must be able to read the 401 (to be asked to sign in).
    const signedOut = await call('POST', '/visitor', { Origin: SHOP, 'Sec-Fetch-Site': 'cross-site' });
    assert.equal(signedOut.status, 401);
    assert.equal(signedOut.headers['access-control-allow-origin'], SHOP);
    assert.equal(signedOut.headers['access-control-allow-credentials'], 'true');

    for (const origin of ['https://evil.example', 'https://shop.example.com.evil.example', 'http://shop.example.com', 'null']) {
      for (const refused of [
        await preflight(origin),
        await call('POST', '/visitor', { ...asAda, Origin: origin, 'Sec-Fetch-Site': 'cross-site' }),
        await call('GET', '/sessions', { ...asAda, Origin: origin, 'Sec-Fetch-Site': 'cross-site' }),
      ]) {
        assert.equal(refused.status, 403, origin);
        assert.equal(refused.headers['access-control-allow-origin'], undefined, origin);
        assert.equal(refused.headers['access-control-allow-credentials'], undefined, origin);
        assert.match(String(refused.headers.vary), /Origin/, origin);
        assert.doesNotMatch(refused.text, /ada/, origin);
      }
    }
    // A cross-site request with the visitor's cookie but no Origin (a form, an image) is refused too.
    assert.equal((await call('GET', '/sessions', { ...asAda, 'Sec-Fetch-Site': 'cross-site' })).status, 403);
    // Same-origin pages need no CORS headers at all.
    const same = await call('POST', '/visitor', { ...asAda, Origin: handler.origin, 'Sec-Fetch-Site': 'same-origin' });
    assert.equal(same.status, 200);
    assert.equal(same.headers['access-control-allow-origin'], undefined);
    assert.equal(same.headers['access-control-allow-credentials'], undefined);
  });
});
