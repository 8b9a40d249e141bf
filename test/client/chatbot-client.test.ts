// The client against a real HTTP server on loopback that verifies every signature with its own
// node:crypto code (test/helpers/verifying-upstream.ts), over the raw request target and body.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { ChatbotClient, ChatbotHttpError, sign, type ChatbotClientOptions } from '../../src/client/index.js';
import { sign as sharedSign } from '../../src/shared/signature.js';
import { startVerifyingUpstream, type VerifyingUpstream } from '../helpers/verifying-upstream.js';
import { clientFor } from './client-for.js';

let upstream: VerifyingUpstream;
before(async () => {
  upstream = await startVerifyingUpstream();
});
after(() => upstream.close());

function client(overrides: Partial<ChatbotClientOptions> = {}) {
  return clientFor(upstream, overrides);
}

/** The requests a call made: what arrived at the server while `run` ran. */
async function requestsOf(run: () => Promise<unknown>) {
  const start = upstream.requests.length;
  await run();
  return upstream.requests.slice(start);
}

test('the package entry re-exports the shared sign()', () => {
  assert.equal(sign, sharedSign);
});

test('a send with non-ASCII text is signed over exactly the bytes sent, with the four signing headers', async () => {
  const content = 'Grüße 👋 日本語 "quoted" \\ back\u2028line';
  let result: Awaited<ReturnType<ChatbotClient['sendMessage']>> | undefined;
  const [request] = await requestsOf(async () => {
    result = await client().sendMessage({ user: { id: 'zoë@example.com', name: 'Zoë' }, message: { content } });
  });
  assert.ok(request);
  assert.equal(request.verified, true, request.failure);
  assert.equal(request.method, 'POST');
  assert.equal(request.url, '/api/Dev/bot_test/message');
  assert.equal(request.headers['content-type'], 'application/json');
  assert.equal(request.headers['x-api-key'], upstream.apiKey);
  assert.match(String(request.headers['x-timestamp']), /^\d+$/);
  assert.match(String(request.headers['x-signature']), /^[A-Za-z0-9+/]{43}=$/);
  assert.deepEqual(
    request.bodyBytes,
    Buffer.from(JSON.stringify({ user: { id: 'zoë@example.com', name: 'Zoë' }, message: { content } }), 'utf8'),
  );
  assert.equal(result?.reply, `You said: ${content}`);
  assert.equal(result?.envelope.data, result?.reply);
  assert.equal(result?.envelope.totalPages, 0);
  assert.equal(result?.rateLimit?.limit, 100);
  assert.equal(result?.rateLimit?.remaining, 99);
  assert.ok(result?.rateLimit?.resetAt instanceof Date);
  assert.equal(result?.rateLimit?.resetAt.getTime(), (result?.rateLimit?.reset ?? 0) * 1000);
});

test('a send carries only the documented fields, the file when given, and never the secret', async () => {
  const input = {
    user: { id: 'u1', name: 'Ann', role: 'admin' },
    message: { content: 'see attachment', file: 'https://files.example/a b.png' },
    chatbotId: 'other',
  };
  const [withFile] = await requestsOf(() => client().sendMessage(input));
  assert.equal(
    withFile?.body,
    '{"user":{"id":"u1","name":"Ann"},"message":{"content":"see attachment","file":"https://files.example/a b.png"}}',
  );
  const [withoutFile] = await requestsOf(() => client().sendMessage({ user: { id: 'u1', name: 'Ann' }, message: { content: 'x' } }));
  assert.equal(withoutFile?.body, '{"user":{"id":"u1","name":"Ann"},"message":{"content":"x"}}');
  for (const request of [withFile, withoutFile]) {
    assert.ok(!JSON.stringify(request?.headers).includes(upstream.apiSecret));
    assert.ok(!request?.body.includes(upstream.apiSecret));
    assert.ok(!request?.url.includes(upstream.apiSecret));
  }
});

test('query values with spaces, slashes, @, + and non-ASCII are encoded once and signed as sent', async () => {
  const sessionId = 's/1 x+y&z=1';
  const userId = 'zoë@example.com';
  const [request] = await requestsOf(() => client().listMessages({ sessionId, userId, page: 2, pageSize: 50 }));
  assert.equal(request?.verified, true, request?.failure);
  assert.equal(request?.url, '/api/Dev/bot_test/messages?sessionId=s%2F1%20x%2By%26z%3D1&userId=zo%C3%AB%40example.com&page=2&pageSize=50');
  assert.equal(request?.query.get('sessionId'), sessionId);
  assert.equal(request?.query.get('userId'), userId);
  assert.equal(request?.body, '');
});

test('listMessages without filters sends no query string and returns the typed envelope', async () => {
  let page: Awaited<ReturnType<ChatbotClient['listMessages']>> | undefined;
  const [request] = await requestsOf(async () => {
    page = await client().listMessages();
  });
  assert.equal(request?.url, '/api/Dev/bot_test/messages');
  assert.deepEqual(page, { data: [], error: null, totalItems: 0, pageSize: 20, currentPage: 1, totalPages: 0 });
});

test('users and sessions listings pass paging and the user filter', async () => {
  const [users] = await requestsOf(() => client().listUsers({ page: 3, pageSize: 10 }));
  assert.equal(users?.url, '/api/Dev/bot_test/users?page=3&pageSize=10');
  assert.equal(users?.verified, true);
  const [sessions] = await requestsOf(() => client().listSessions({ userId: 'a b/ü', pageSize: 5 }));
  assert.equal(sessions?.url, '/api/Dev/bot_test/sessions?userId=a%20b%2F%C3%BC&pageSize=5');
  assert.equal(sessions?.verified, true);
});

test('count takes Dates and text, sends sent only when given, and returns the number', async () => {
  upstream.script({ body: { data: 42, error: null } });
  let count: number | undefined;
  const [first] = await requestsOf(async () => {
    ({ data: count } = await client().countMessages({ from: new Date(Date.UTC(2025, 0, 1)), to: '2025-02-01T00:00:00+01:00', sent: true }));
  });
  assert.equal(count, 42);
  assert.equal(first?.verified, true, first?.failure);
  assert.equal(
    first?.url,
    '/api/Dev/bot_test/messages/count?from=2025-01-01T00%3A00%3A00.000Z&to=2025-02-01T00%3A00%3A00%2B01%3A00&sent=true',
  );
  const [second] = await requestsOf(() => client().countMessages({ from: '2025-01-01', to: '2025-02-01', sent: false }));
  assert.equal(second?.query.get('sent'), 'false');
  const [third] = await requestsOf(() => client().countMessages({ from: '2025-01-01', to: '2025-02-01' }));
  assert.equal(third?.query.has('sent'), false);
  await assert.rejects(client().countMessages({ from: new Date('nonsense'), to: '2025-02-01' }), /from is an invalid Date/);
});

test('count-by-month returns the monthly buckets', async () => {
  const months = [
    { month: '2025-01', messageCount: 10, userMessageCount: 5, distinctUsers: 2, distinctSessions: 3, tokenTotal: 900 },
    { month: '2025-02', messageCount: 0, userMessageCount: 0, distinctUsers: 0, distinctSessions: 0, tokenTotal: 0 },
  ];
  upstream.script({ body: { data: months, error: null } });
  let data: unknown;
  const [request] = await requestsOf(async () => {
    ({ data } = await client().countMessagesByMonth({ from: '2025-01-01', to: '2025-03-01' }));
  });
  assert.deepEqual(data, months);
  assert.equal(request?.url, '/api/Dev/bot_test/messages/count-by-month?from=2025-01-01&to=2025-03-01');
  assert.equal(request?.verified, true);
});

test('getMessage encodes the id as one path segment; an unknown id is a 404 ChatbotHttpError', async () => {
  const message = {
    id: 'm 1/é',
    chatbotId: 'bot_test',
    chatSessionId: 's',
    chatUserId: 'u',
    senderType: 'User',
    text: 'hi',
    tokenCount: 1,
    createdAt: '2025-01-01T00:00:00Z',
  };
  upstream.script({ body: { data: message, error: null } });
  let data: unknown;
  const [found] = await requestsOf(async () => {
    ({ data } = await client().getMessage('m 1/é'));
  });
  assert.equal(found?.url, '/api/Dev/bot_test/messages/m%201%2F%C3%A9');
  assert.equal(found?.verified, true, found?.failure);
  assert.deepEqual(data, message);

  const error = await client()
    .getMessage('missing')
    .catch((e: unknown) => e);
  assert.ok(error instanceof ChatbotHttpError);
  assert.equal(error.status, 404);
  assert.equal(error.upstreamMessage, 'Message not found');
  assert.deepEqual(error.envelope, { data: null, error: 'Message not found' });
  assert.match(error.message, /^Chatbot API answered 404 Not Found: Message not found$/);
});

test('ids a URL parser would rewrite are refused before anything is sent', async () => {
  const requests = await requestsOf(async () => {
    await assert.rejects(client().getMessage('..'), /messageId cannot be "\.\."/);
    await assert.rejects(client().getMessage(''), /messageId must be a non-empty string/);
  });
  assert.equal(requests.length, 0);
  assert.throws(() => client({ chatbotId: '.' }), /chatbotId cannot be "\."/);
});

test('a chatbot id with spaces and non-ASCII is encoded in the path and signed as sent', async () => {
  const other = await startVerifyingUpstream({ chatbotId: 'bot ü/1' });
  try {
    const c = new ChatbotClient({
      baseUrl: `${other.baseUrl}/`,
      apiKey: other.apiKey,
      apiSecret: other.apiSecret,
      chatbotId: other.chatbotId,
    });
    const { data } = await c.listUsers();
    assert.deepEqual(data, []);
    assert.equal(other.requests[0]?.url, '/api/Dev/bot%20%C3%BC%2F1/users');
    assert.equal(other.requests[0]?.verified, true, other.requests[0]?.failure);
  } finally {
    await other.close();
  }
});

test('X-Timestamp comes from the injected clock, in whole seconds', async () => {
  const now = Date.now();
  const [request] = await requestsOf(() => client({ now: () => now }).listUsers());
  assert.equal(request?.headers['x-timestamp'], String(Math.floor(now / 1000)));
  assert.equal(request?.verified, true);
});

test('a wrong secret is refused upstream and reported without the secret', async () => {
  const wrongSecret = 'sk_wrong_secret_value';
  const requests = await requestsOf(async () => {
    const error = await client({ apiSecret: wrongSecret, retry: { limit: 3, baseDelayMs: 1 } })
      .listUsers()
      .catch((e: unknown) => e);
    assert.ok(error instanceof ChatbotHttpError);
    assert.equal(error.status, 401);
    assert.equal(error.message, 'Chatbot API answered 401 Unauthorized: Invalid signature');
    assert.ok(!JSON.stringify({ ...error, message: error.message, stack: error.stack }).includes(wrongSecret));
  });
  assert.equal(requests.length, 1, '401 is not retried');
});

test('the constructor names what is missing or malformed', () => {
  const base = { baseUrl: 'http://127.0.0.1:1/api', apiKey: 'pk', apiSecret: 'sk', chatbotId: 'b' };
  assert.throws(() => new ChatbotClient({ ...base, apiSecret: '' }), /option "apiSecret" is missing/);
  assert.throws(() => new ChatbotClient({ ...base, apiKey: undefined as unknown as string }), /option "apiKey" is missing/);
  assert.throws(() => new ChatbotClient({ ...base, chatbotId: '' }), /option "chatbotId" is missing/);
  assert.throws(() => new ChatbotClient({ ...base, baseUrl: '' }), /option "baseUrl" is missing/);
  assert.throws(
    () => new ChatbotClient({ ...base, baseUrl: 'localhost:8787/api' }),
    /absolute http\(s\) URL .*got "localhost:8787\/api"; did you mean "http:\/\/localhost:8787\/api"\?/,
  );
  assert.throws(
    () => new ChatbotClient({ ...base, baseUrl: 'ftp://host/api' }),
    /absolute http\(s\) URL such as https:\/\/host\/api, got "ftp:\/\/host\/api"$/,
  );
  assert.throws(() => new ChatbotClient({ ...base, baseUrl: 'not a url' }), /absolute http\(s\) URL/);
  assert.throws(() => new ChatbotClient({ ...base, baseUrl: 'http://u:p@host/api' }), /must not contain credentials/);
  assert.throws(() => new ChatbotClient({ ...base, baseUrl: 'http://host/api?x=1' }), /query or fragment/);
  assert.throws(() => new ChatbotClient({ ...base, timeoutMs: 0 }), /timeoutMs/);
  assert.throws(() => new ChatbotClient({ ...base, retry: { limit: -1 } }), /retry.limit/);
});
