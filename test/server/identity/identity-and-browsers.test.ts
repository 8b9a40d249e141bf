// Identity (visitor tokens, the host's identify()), browser rules (same-origin, the exact
// allowedOrigins list, preflights, cookie-based logins) and option checks, called in-process
// with Web Requests in front of the real recording upstream.
import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { API_KEY, API_SECRET, CHATBOT_ID } from '../helpers/recording-upstream.js';
import { adminTokenAuthorizer, createSigningHandler, type SigningHandlerOptions } from '../../../src/server/index.js';
import { issueVisitorToken, verifyVisitorToken, visitorKey } from '../../../src/server/identity/visitor-token.js';
import { grant } from '../helpers/token-grant.js';
import { handlerOptions, logLinesInto } from '../helpers/handler-options.js';
import { recordingUpstreamForFile } from '../helpers/stack-for-file.js';

const SHOP = 'https://shop.example.com';
const upstream = await recordingUpstreamForFile();

describe('identity, browsers and options', () => {
  let clock: number;
  const logs: string[] = [];
  beforeEach(() => {
    logs.length = 0;
    clock = Date.now();
  });

  const base = (): SigningHandlerOptions => handlerOptions(upstream, { now: () => clock, logger: logLinesInto(logs) });
  const post = (path: string, headers: Record<string, string> = {}, body = '{}') =>
    new Request(`http://localhost:8080/chatbot${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
    });
  const get = (path: string, headers: Record<string, string> = {}) => new Request(`http://localhost:8080/chatbot${path}`, { headers });
  const body = async (response: Response) => (await response.json()) as { data: any; error: string | null };

  describe('visitor tokens', () => {
    it('live visitorTokenTtlSeconds (30 days by default); an expired token gets a new identity', async () => {
      const handler = createSigningHandler(base());
      const first = (await body(await handler(post('/visitor')))).data;
      const key = await visitorKey(API_SECRET);
      const claims = await verifyVisitorToken(key, first.token, Math.floor(clock / 1000), CHATBOT_ID);
      assert.equal(claims?.expiresAt, Math.floor(clock / 1000) + 30 * 86_400);
      clock += 30 * 86_400_000 + 1000;
      const afterExpiry = (await body(await handler(post('/visitor', { Authorization: `Bearer ${first.token}` })))).data;
      assert.notEqual(afterExpiry.userId, first.userId);
      assert.equal((await handler(get('/sessions', { Authorization: `Bearer ${first.token}` }))).status, 401);
    });

    it('renewal keeps the user id and moves the expiry', async () => {
      const handler = createSigningHandler({ ...base(), visitorTokenTtlSeconds: 100 });
      const first = (await body(await handler(post('/visitor')))).data;
      clock += 90_000;
      const renewed = (await body(await handler(post('/visitor', { Authorization: `Bearer ${first.token}` })))).data;
      assert.equal(renewed.userId, first.userId);
      clock += 20_000;
      assert.equal((await handler(get('/sessions', { Authorization: `Bearer ${first.token}` }))).status, 401, 'the old token expired');
      assert.equal((await handler(get('/sessions', { Authorization: `Bearer ${renewed.token}` }))).status, 200, 'the renewed one works');
    });

    it('a given visitorTokenSecret signs tokens that a handler with the same secret accepts, and the derived key does not', async () => {
      const secret = 'a-visitor-token-secret-of-32-chars!!';
      const one = createSigningHandler({ ...base(), visitorTokenSecret: secret });
      const two = createSigningHandler({ ...base(), visitorTokenSecret: secret });
      const derived = createSigningHandler(base());
      const { token } = (await body(await one(post('/visitor')))).data;
      assert.equal((await two(get('/sessions', { Authorization: `Bearer ${token}` }))).status, 200);
      assert.equal((await derived(get('/sessions', { Authorization: `Bearer ${token}` }))).status, 401);
    });

    it('the derived key is not the API secret', async () => {
      assert.notEqual(await visitorKey(API_SECRET), API_SECRET);
      const { token } = await issueVisitorToken(await visitorKey(API_SECRET), grant('v_AAAAAAAAAAAAAAAAAAAAAA', 1, 10));
      assert.doesNotMatch(token, new RegExp(API_SECRET));
    });
  });

  describe("identify (the host application's own login)", () => {
    const identify = (request: Request) => {
      const cookie = request.headers.get('Cookie') ?? '';
      const match = /session=(\w+)/.exec(cookie);
      return match ? { userId: `member-${match[1]}`, name: 'Member' } : null;
    };

    it("uses the host's user id and name, ignoring tokens and body fields", async () => {
      const handler = createSigningHandler({ ...base(), identify });
      const response = await handler(
        post(
          '/message',
          { Cookie: 'session=alice', 'Sec-Fetch-Site': 'same-origin' },
          JSON.stringify({ content: 'hi', name: 'Mallory', userId: 'member-bob' }),
        ),
      );
      assert.equal(response.status, 200);
      assert.deepEqual(JSON.parse(upstream.requests[0]!.body).user, { id: 'member-alice', name: 'Member' });
      const visitorAnswer = await body(await handler(post('/visitor', { Cookie: 'session=alice' })));
      assert.deepEqual(visitorAnswer.data, { token: null, userId: 'member-alice' });
    });

    it('answers 401 when identify returns null', async () => {
      const handler = createSigningHandler({ ...base(), identify });
      const response = await handler(get('/messages'));
      assert.equal(response.status, 401);
      assert.equal(upstream.requests.length, 0);
    });

    it('refuses cross-site requests that would carry the cookie (Origin or Sec-Fetch-Site)', async () => {
      const handler = createSigningHandler({ ...base(), identify });
      const attempts = [
        post('/message', { Cookie: 'session=alice', Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }, '{"content":"x"}'),
        get('/messages', { Cookie: 'session=alice', 'Sec-Fetch-Site': 'cross-site' }),
        get('/messages', { Cookie: 'session=alice', 'Sec-Fetch-Site': 'same-site' }),
        post('/message', { Cookie: 'session=alice', 'Content-Type': 'text/plain' }, '{"content":"x"}'),
      ];
      const statuses = [];
      for (const request of attempts) statuses.push((await handler(request)).status);
      assert.deepEqual(statuses, [403, 403, 403, 415]);
      assert.equal(upstream.requests.length, 0);
    });

    it('a malformed identity from identify is refused and logged, never forwarded', async () => {
      const handler = createSigningHandler({ ...base(), identify: () => ({ userId: '' }) });
      assert.equal((await handler(get('/messages'))).status, 401);
      assert.deepEqual(logs, [
        'identify() returned a userId that is not a well-formed string of 1 to 200 characters; the request was refused',
      ]);
      assert.equal(upstream.requests.length, 0);
    });

    it('an identify that throws is logged by name with its message; the browser gets only the generic 500', async () => {
      const handler = createSigningHandler({
        ...base(),
        identify: () => {
          throw new ReferenceError('currentUser is not defined');
        },
      });
      const response = await handler(post('/visitor'));
      assert.equal(response.status, 500);
      const answer = await body(response);
      assert.equal(answer.data, null);
      assert.equal(answer.error, 'Something went wrong on this server. Please try again.');
      assert.deepEqual(logs, ['identify() threw ReferenceError: currentUser is not defined (while answering POST /chatbot/visitor)']);
      assert.equal(upstream.requests.length, 0);
    });
  });

  describe('browser rules', () => {
    it('same-origin requests pass, by Origin or by Sec-Fetch-Site', async () => {
      const handler = createSigningHandler(base());
      assert.equal((await handler(post('/visitor', { Origin: 'http://localhost:8080' }))).status, 200);
      assert.equal(
        (await handler(post('/visitor', { Origin: 'https://other-name.internal', 'Sec-Fetch-Site': 'same-origin' }))).status,
        200,
      );
      assert.equal(
        (await handler(post('/visitor', { Origin: 'https://localhost:8080' }))).status,
        200,
        'https seen as http behind a TLS proxy',
      );
    });

    it('an allowed origin gets exactly its own origin back with Vary: Origin, never * or another', async () => {
      const handler = createSigningHandler({ ...base(), allowedOrigins: [SHOP] });
      const allowed = await handler(post('/visitor', { Origin: SHOP, 'Sec-Fetch-Site': 'cross-site' }));
      assert.equal(allowed.status, 200);
      assert.equal(allowed.headers.get('Access-Control-Allow-Origin'), SHOP);
      assert.match(allowed.headers.get('Vary') ?? '', /Origin/);
      assert.equal(allowed.headers.get('Access-Control-Allow-Credentials'), null, 'no credentials in token mode');
      assert.equal(
        allowed.headers.get('Access-Control-Expose-Headers'),
        'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Idempotency-Replayed',
        'a cross-origin widget can read when to retry, what is left of its budget and whether a send was replayed',
      );
      for (const origin of ['https://evil.example', 'https://shop.example.com.evil.example', 'http://shop.example.com', 'null']) {
        const refused = await handler(post('/visitor', { Origin: origin }));
        assert.equal(refused.status, 403, origin);
        assert.equal(refused.headers.get('Access-Control-Allow-Origin'), null, origin);
        assert.match(refused.headers.get('Vary') ?? '', /Origin/);
      }
    });

    it('answers preflights for allowed origins only', async () => {
      const handler = createSigningHandler({ ...base(), allowedOrigins: [SHOP] });
      const preflight = (origin: string) =>
        handler(
          new Request('http://localhost:8080/chatbot/message', {
            method: 'OPTIONS',
            headers: {
              Origin: origin,
              'Access-Control-Request-Method': 'POST',
              'Access-Control-Request-Headers': 'authorization, content-type',
            },
          }),
        );
      const ok = await preflight(SHOP);
      assert.equal(ok.status, 204);
      assert.equal(ok.headers.get('Access-Control-Allow-Origin'), SHOP);
      assert.match(ok.headers.get('Access-Control-Allow-Headers') ?? '', /Authorization/);
      assert.match(ok.headers.get('Access-Control-Allow-Methods') ?? '', /POST/);
      const refused = await preflight('https://evil.example');
      assert.equal(refused.status, 403);
      assert.equal(refused.headers.get('Access-Control-Allow-Origin'), null);
    });

    it('allows credentials for allowed origins only when identify is used', async () => {
      const handler = createSigningHandler({ ...base(), allowedOrigins: [SHOP], identify: () => ({ userId: 'member-1' }) });
      const response = await handler(get('/sessions', { Origin: SHOP, 'Sec-Fetch-Site': 'cross-site' }));
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('Access-Control-Allow-Credentials'), 'true');
    });
  });

  describe('admin', () => {
    it('adminTokenAuthorizer accepts only the exact token and refuses short tokens at creation', async () => {
      const authorize = adminTokenAuthorizer('0123456789abcdef-token');
      const withToken = (value?: string) => new Request('http://x/', value === undefined ? {} : { headers: { 'X-Admin-Token': value } });
      assert.equal(authorize(withToken('0123456789abcdef-token')), true);
      assert.equal(authorize(withToken('0123456789abcdef-tokeN')), false);
      assert.equal(authorize(withToken('0123456789abcdef-tokenX')), false);
      assert.equal(authorize(withToken()), false);
      assert.throws(() => adminTokenAuthorizer('short'), /at least 16 characters/);
    });

    it('admin routes answer 403 when no authorizeAdmin is configured, whatever the request carries', async () => {
      const handler = createSigningHandler(base());
      const response = await handler(get('/admin/users', { 'X-Admin-Token': 'anything-at-all-0123456789' }));
      assert.equal(response.status, 403);
      assert.equal(upstream.requests.length, 0);
    });

    it('an authorizeAdmin that answers something other than true is a refusal', async () => {
      const handler = createSigningHandler({ ...base(), authorizeAdmin: (() => 'yes') as unknown as () => boolean });
      assert.equal((await handler(get('/admin/users'))).status, 403);
    });
  });

  describe('options', () => {
    const cases: Array<[string, Partial<SigningHandlerOptions> & Record<string, unknown>, RegExp]> = [
      ['missing apiSecret', { apiSecret: undefined }, /apiSecret is missing.*CHATBOT_API_SECRET/],
      ['missing apiKey', { apiKey: '' }, /apiKey is missing/],
      ['missing chatbotId', { chatbotId: undefined }, /chatbotId is missing/],
      ['apiBaseUrl not ending in /api', { apiBaseUrl: 'https://chat.example.com/v1' }, /must end in \/api/],
      ['apiBaseUrl not http(s)', { apiBaseUrl: 'ftp://chat.example.com/api' }, /http\(s\)/],
      ['apiBaseUrl not a URL', { apiBaseUrl: 'chat.example.com/api' }, /not a URL/],
      ['apiBaseUrl with credentials', { apiBaseUrl: 'https://u:p@chat.example.com/api' }, /credentials/],
      ['chatbotId with a slash', { chatbotId: 'bot/../x' }, /chatbotId may only/],
      ['basePath with dots', { basePath: '/chat/../bot' }, /basePath/],
      ['allowedOrigins with *', { allowedOrigins: ['*'] }, /may not contain "\*"/],
      ['allowedOrigins with null', { allowedOrigins: ['null'] }, /may not contain "null"/],
      ['allowedOrigins with a path', { allowedOrigins: ['https://a.example/path'] }, /exactly scheme:\/\/host/],
      ['a short visitorTokenSecret', { visitorTokenSecret: 'short' }, /at least 32 characters/],
      ['a zero limit', { limits: { sendsPerMinute: 0 } }, /limits.sendsPerMinute must be a whole number/],
      ['a fractional timeout', { upstreamTimeoutMs: 1.5 }, /upstreamTimeoutMs/],
      ['identify that is not a function', { identify: 'yes' as never }, /identify must be a function/],
    ];
    for (const [name, override, message] of cases) {
      it(`refuses ${name} at creation with a message naming it`, () => {
        assert.throws(
          () => createSigningHandler({ ...base(), ...override } as SigningHandlerOptions),
          (error: Error) => {
            assert.ok(error instanceof TypeError);
            assert.match(error.message, message);
            assert.doesNotMatch(error.message, new RegExp(API_SECRET));
            return true;
          },
        );
      });
    }

    it('accepts a trailing slash on apiBaseUrl and basePath', async () => {
      const handler = createSigningHandler({ ...base(), apiBaseUrl: `${upstream.baseUrl}/`, basePath: '/chatbot/' });
      const { token } = (await body(await handler(post('/visitor')))).data;
      assert.equal((await handler(get('/sessions', { Authorization: `Bearer ${token}` }))).status, 200);
      assert.ok(upstream.requests[0]!.signatureValid);
    });

    it('never logs the secret, the key or a token', async () => {
      const handler = createSigningHandler(base());
      const { token } = (await body(await handler(post('/visitor')))).data;
      upstream.override = () => ({ status: 401, body: '{}' });
      await handler(get('/sessions', { Authorization: `Bearer ${token}` }));
      upstream.override = () => ({ status: 500, body: 'boom' });
      await handler(get('/messages', { Authorization: `Bearer ${token}` }));
      assert.equal(logs.length, 2, logs.join('\n'));
      for (const line of logs) assert.doesNotMatch(line, new RegExp(`${API_SECRET}|${API_KEY}|${token}`));
    });
  });
});
