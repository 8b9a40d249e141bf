// Generated requests against the real handler over HTTP, in front of the real emulator: methods,
// paths (encoded, dot segments, odd ids), query strings, headers (tokens real, forged, expired and
// revoked; content types; origins; idempotency keys; forwarding headers) and bodies (JSON or not,
// huge, nested, odd Unicode, lone surrogates, file URLs). Whatever arrives, the handler answers
// with a status it documents, refuses in a JSON envelope with words, never caches, never leaks a
// secret or another visitor's messages, and stores every send it accepted exactly once.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createSigningHandler } from '../../src/server/index.js';
import { fuzzParameters } from '../helpers/fuzz.js';
import { jsonHeaders, newVisitor, rawRequest, type RawResponse } from './helpers/handler-server.js';
import { startFaultyStack, STACK_BOT, type FaultyStack } from './helpers/faulty-stack.js';

const VISITOR_TOKEN_SECRET = 'vts_fuzz_0123456789abcdef0123456789abcdef';
const ADMIN_TOKEN = 'admin-fuzz-token';
const ALLOWED_ORIGIN = 'https://allowed.example';
const ROOMY = {
  sendsPerMinute: 100_000,
  sendsPerDay: 100_000,
  sendsPerMinutePerAddress: 100_000,
  visitorsPerMinutePerAddress: 100_000,
  dailyQuotaSharePerAddress: 1,
};
/** The statuses the handler documents; upstream is healthy here, so no 502 or 504 is expected. */
const DOCUMENTED = new Set([200, 204, 400, 401, 403, 404, 405, 413, 415, 429, 503]);
/** Statuses without a body by definition. */
const BODILESS = new Set([204]);
const VISITORS = 3;

describe('handler routes under generated requests', () => {
  let stack: FaultyStack;
  const visitors: Array<{ token: string; userId: string }> = [];
  const tokens: Record<'forged' | 'expired' | 'revoked', string> = { forged: '', expired: '', revoked: '' };
  /** Sends the handler accepted (200, not a replay), per user id. */
  const accepted = new Map<string, number>();
  /** The first answer to each user id and accepted Idempotency-Key. */
  const firstAnswers = new Map<string, string>();
  /** Ids of stored messages and sessions seen so far, whoever's: generated paths reuse them. */
  const messageIds: string[] = ['unknown-message'];
  const sessionIds: string[] = ['unknown-session'];

  before(async () => {
    stack = await startFaultyStack({
      dailyLimit: 1_000_000,
      handler: {
        limits: ROOMY,
        visitorTokenSecret: VISITOR_TOKEN_SECRET,
        allowedOrigins: [ALLOWED_ORIGIN],
        authorizeAdmin: (request) => request.headers.get('authorization') === `Bearer ${ADMIN_TOKEN}`,
      },
    });
    for (let i = 0; i < VISITORS; i++) visitors.push(await newVisitor(stack.handler.port));
    const real = visitors[0]!.token;
    const flipped = real.at(-2) === 'A' ? 'B' : 'A';
    tokens.forged = `${real.slice(0, -2)}${flipped}${real.at(-1)}`;
    // A token from the same secret 40 days ago: past its 30 days.
    const past = createSigningHandler({
      apiBaseUrl: stack.proxy.baseUrl,
      apiKey: STACK_BOT.apiKey,
      apiSecret: STACK_BOT.apiSecret,
      chatbotId: STACK_BOT.id,
      visitorTokenSecret: VISITOR_TOKEN_SECRET,
      now: () => Date.now() - 40 * 86_400_000,
    });
    const old = await past(
      new Request('http://localhost/chatbot/visitor', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
    );
    tokens.expired = ((await old.json()) as { data: { token: string } }).data.token;
    const revoked = await newVisitor(stack.handler.port);
    const revoking = await rawRequest(stack.handler.port, {
      method: 'DELETE',
      path: '/chatbot/visitor',
      headers: jsonHeaders(revoked.token),
    });
    assert.equal(revoking.status, 204);
    tokens.revoked = revoked.token;
  });
  after(() => stack.close());

  /** The questions upstream holds for `userId`, counted page by page in the emulator itself. */
  async function storedQuestions(userId: string): Promise<number> {
    const client = stack.client();
    let questions = 0;
    for (let page = 1; ; page++) {
      const { data } = await client.listMessages({ userId, page, pageSize: 100 });
      questions += data.filter((m) => m.senderType === 'User').length;
      if (data.length < 100) return questions;
    }
  }

  const secrets = () => [STACK_BOT.apiSecret, STACK_BOT.apiKey, VISITOR_TOKEN_SECRET];

  // --- What a request is made of: mostly what the widget sends, with odd parts mixed in ---
  /** `valid` five times in six, else `odd`: enough accepted sends to check, and every odd part. */
  const usually = <T, U>(valid: fc.Arbitrary<T>, odd: fc.Arbitrary<U>) =>
    fc.oneof({ weight: 5, arbitrary: valid }, { weight: 1, arbitrary: odd });
  const visitorIndex = fc.integer({ min: 0, max: VISITORS - 1 });
  const auth = usually(
    visitorIndex.map((v) => ({ kind: 'visitor' as const, v })),
    fc.oneof(
      fc.constant({ kind: 'none' as const }),
      fc.constantFrom('forged', 'expired', 'revoked', 'admin').map((kind) => ({ kind })),
      fc.stringMatching(/^[!-~ ]{0,40}$/).map((raw) => ({ kind: 'raw' as const, raw })),
    ),
  );
  const oddSegment = fc.oneof(
    fc.constantFrom(
      'count',
      'count-by-month',
      '.',
      '..',
      '%2e%2e',
      '%2E',
      '%2F',
      'a%2Fb',
      'a%00b',
      '%F0%9F%98%80',
      '%ED%A0%BD',
      '%ZZ',
      '~x',
      'x;y',
      'x:y',
      '',
    ),
    fc.stringMatching(/^[A-Za-z0-9_-]{1,130}$/),
    fc.nat().map((i) => messageIds[i % messageIds.length]!),
  );
  const widgetRoute = fc.oneof(
    { weight: 6, arbitrary: fc.constant('/message') },
    { weight: 1, arbitrary: fc.constantFrom('/messages', '/sessions', '/visitor', '/feedback') },
    { weight: 1, arbitrary: fc.nat().map((i) => `/messages/${messageIds[i % messageIds.length]!}`) },
  );
  const oddRoute = fc.oneof(
    fc.constantFrom(
      '/visitor',
      '/message',
      '/messages',
      '/sessions',
      '/feedback',
      '/admin/users',
      '/admin/sessions',
      '/admin/messages',
      '/admin/messages/count',
      '/admin/messages/count-by-month',
      '/admin/feedback',
      '/admin/feedback/count-by-month',
      '',
      '/',
      '/message/',
      '//message',
      '/../chatbot/message',
      '/./messages',
      '/%6Dessage',
      '/MESSAGE',
    ),
    oddSegment.map((id) => `/messages/${id}`),
    oddSegment.map((id) => `/admin/messages/${id}`),
    fc.tuple(oddSegment, oddSegment).map(([a, b]) => `/${a}/${b}`),
  );
  const route = usually(widgetRoute, oddRoute);
  const queryValue = fc.oneof(
    fc.constantFrom(
      '1',
      '0',
      '-1',
      '2',
      '100',
      '101',
      '999999999999',
      'abc',
      '%ZZ',
      '%00',
      '1e3',
      '',
      '2026-01-01',
      'up',
      'down',
      '%ED%A0%BD',
    ),
    fc.nat().map((i) => sessionIds[i % sessionIds.length]!),
  );
  const oddQuery = fc
    .array(fc.tuple(fc.constantFrom('page', 'pageSize', 'sessionId', 'userId', 'from', 'to', 'value', 'x', 'page'), queryValue), {
      maxLength: 4,
    })
    .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));
  const query = usually(fc.constant(''), oddQuery);
  const contentType = usually(
    fc.constant('application/json'),
    fc.constantFrom(
      undefined,
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/jsonx',
    ),
  );
  // A few keys per visitor, so that generated sends retry each other's keys.
  const idempotencyKey = usually(
    fc.constantFrom(undefined, 'k1', 'k2', 'k3', 'k4', 'k5', 'k6'),
    fc.constantFrom('', 'bad key', 'a.b', 'x'.repeat(129)),
  );
  const origin = usually(fc.constantFrom(undefined, ALLOWED_ORIGIN), fc.constantFrom('https://evil.example', 'null'));
  const forwarded = usually(fc.constant(undefined), fc.constantFrom('203.0.113.7', '2001:db8::1, 10.0.0.1', 'garbage', ''));
  const text = fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) }, // lone surrogates among them
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '   ',
        'hi',
        'Hello \uD83D',
        '\uDE00',
        '😀👍🏽',
        'e\u0301',
        '\u202Eevil',
        '<script>alert(1)</script>',
        'x'.repeat(4001),
        '𝔘'.repeat(4000),
      ),
    },
  );
  const fileUrl = usually(
    fc.constant(undefined),
    fc.constantFrom(
      null,
      '',
      'https://example.com/a.pdf',
      'http://x',
      'javascript:alert(1)',
      'https:host/x',
      ' https://a',
      `https://e.com/${'a'.repeat(2100)}`,
      'file:///etc/passwd',
    ),
  );
  const sendBody = fc
    .record({
      content: usually(text, fc.constantFrom(null, 42, ['x'], { a: 1 })),
      name: fc.option(text, { nil: undefined, freq: 3 }),
      file: fileUrl,
    })
    .map((body) => JSON.stringify(body));
  const feedbackBody = fc
    .record({
      messageId: fc.oneof(oddSegment, fc.constant(42)),
      value: fc.constantFrom('up', 'down', null, 'sideways', 1),
      comment: fc.option(text, { nil: undefined }),
    })
    .map((body) => JSON.stringify(body));
  const body = fc.oneof(
    { weight: 1, arbitrary: fc.constant(undefined) },
    { weight: 6, arbitrary: sendBody },
    { weight: 1, arbitrary: feedbackBody },
    { weight: 1, arbitrary: fc.json({ maxDepth: 3 }) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        '{',
        'null',
        '[]',
        '"text"',
        `${'['.repeat(5_000)}${']'.repeat(5_000)}`,
        JSON.stringify({ content: 'x'.repeat(20_000) }),
        JSON.stringify({ content: 'hi', userId: 'someone-else', user: { id: 'someone-else' } }),
        '{"content":"hi","content":"\\ud800"}',
      ),
    },
  );
  const request = fc.record({
    /** undefined: the route's own method (POST for /message, /visitor and /feedback, else GET). */
    method: usually(fc.constant(undefined), fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD')),
    route,
    query,
    auth,
    contentType,
    idempotencyKey,
    origin,
    forwarded,
    body,
  });
  type Generated = Omit<typeof request extends fc.Arbitrary<infer T> ? T : never, 'method'> & { method: string };
  const withMethod = request.map((r): Generated => ({
    ...r,
    method: r.method ?? (/^\/(message|visitor|feedback)\/?$/.test(r.route) ? 'POST' : 'GET'),
  }));

  function headersOf(r: Generated): Record<string, string> {
    const headers: Record<string, string> = {};
    const a = r.auth;
    if (a.kind === 'visitor') headers.Authorization = `Bearer ${visitors[a.v]!.token}`;
    else if (a.kind === 'admin') headers.Authorization = `Bearer ${ADMIN_TOKEN}`;
    else if (a.kind === 'raw') headers.Authorization = a.raw;
    else if (a.kind !== 'none') headers.Authorization = `Bearer ${tokens[a.kind]}`;
    if (r.contentType !== undefined) headers['Content-Type'] = r.contentType;
    if (r.idempotencyKey !== undefined) headers['Idempotency-Key'] = r.idempotencyKey;
    if (r.origin !== undefined) headers.Origin = r.origin;
    if (r.forwarded !== undefined) {
      headers['X-Forwarded-For'] = r.forwarded;
      headers.Forwarded = `for=${r.forwarded}`;
    }
    return headers;
  }

  /** Checks one answer; notes accepted sends and ids seen. */
  function check(r: Generated, response: RawResponse): void {
    const where = `${r.method} ${r.route}${r.query} → ${response.status}: ${response.text.slice(0, 300)}`;
    assert.ok(DOCUMENTED.has(response.status), `undocumented status: ${where}`);
    assert.equal(response.headers['cache-control'], 'no-store', `not no-store: ${where}`);
    const everything = `${JSON.stringify(response.headers)}\n${response.text}`;
    for (const secret of secrets()) assert.ok(!everything.includes(secret), `a secret in the answer: ${where}`);
    if (response.status >= 400 && r.method !== 'HEAD') {
      // Upstream's own validation answer (a 400 naming the fields) is passed on as it is.
      const validation = response.status === 400 && typeof response.json?.title === 'string' && typeof response.json?.errors === 'object';
      const words = validation ? `${response.json.title} ${JSON.stringify(response.json.errors)}` : response.json?.error;
      assert.equal(typeof words, 'string', `a refusal without an error envelope: ${where}`);
      assert.match(words, /[A-Za-z]{2,} [A-Za-z]{2,}/, `an error without words: ${where}`);
    }
    if (response.status === 200 && !BODILESS.has(response.status) && r.method !== 'HEAD')
      assert.notEqual(response.json, undefined, `a 200 that is not JSON: ${where}`);

    const viewer = r.auth.kind === 'visitor' ? visitors[r.auth.v]! : undefined;
    // Visitor routes list only the caller's own records; admin routes are for the admin.
    if (response.status === 200 && !r.route.startsWith('/admin') && response.json) {
      const records = Array.isArray(response.json.data) ? response.json.data : [response.json.data, ...(response.json.stored ?? [])];
      for (const record of records) {
        if (record && typeof record === 'object' && 'chatUserId' in record) {
          assert.ok(viewer, `records answered to a caller without a visitor token: ${where}`);
          assert.equal(record.chatUserId, viewer.userId, `another visitor's record: ${where}`);
        }
      }
    }
    const records = [
      response.json?.data,
      ...(Array.isArray(response.json?.data) ? response.json.data : []),
      ...(response.json?.stored ?? []),
    ];
    for (const record of records) {
      if (record && typeof record === 'object' && typeof record.id === 'string' && typeof record.chatSessionId === 'string') {
        messageIds.push(record.id);
        sessionIds.push(record.chatSessionId);
      }
    }
    // A send's answer is the reply text in `data`, whatever odd path reached the send route.
    const sent = r.method === 'POST' && response.status === 200 && typeof response.json?.data === 'string';
    if (!sent) return;
    assert.ok(viewer, `a send accepted without a visitor token: ${where}`);
    const replayed = response.headers['idempotency-replayed'] === 'true';
    if (!replayed) accepted.set(viewer.userId, (accepted.get(viewer.userId) ?? 0) + 1);
    if (r.idempotencyKey === undefined) return;
    // One key, one send: a key is accepted once, and every repeat gets that answer.
    const keyOf = `${viewer.userId}:${r.idempotencyKey}`;
    if (replayed) assert.equal(response.text, firstAnswers.get(keyOf), `a replay that is not the key's first answer: ${where}`);
    else assert.ok(!firstAnswers.has(keyOf), `a key sent twice: ${where}`);
    firstAnswers.set(keyOf, firstAnswers.get(keyOf) ?? response.text);
  }

  it('answers every generated request as documented, and stores every accepted send exactly once', async () => {
    await fc.assert(
      fc.asyncProperty(withMethod, async (r) => {
        const response = await rawRequest(stack.handler.port, {
          method: r.method,
          path: `/chatbot${r.route}${r.query}`,
          headers: headersOf(r),
          ...(r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD' ? { body: r.body } : {}),
        });
        check(r, response);
      }),
      fuzzParameters(300),
    );
    await stack.proxy.idle();
    for (const { userId } of visitors)
      assert.equal(await storedQuestions(userId), accepted.get(userId) ?? 0, `${userId}: every accepted send stored exactly once`);
  });
});
