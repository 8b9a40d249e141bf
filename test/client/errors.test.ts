// How each kind of failure reaches the caller: typed, one-line, with what the upstream said.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ChatbotClient,
  ChatbotError,
  ChatbotHttpError,
  ChatbotNetworkError,
  ChatbotResponseError,
  ChatbotTimeoutError,
  type ChatbotClientOptions,
} from '../../src/client/index.js';
import { startVerifyingUpstream, type VerifyingUpstream } from '../helpers/verifying-upstream.js';
import { createEmulator } from '../../src/emulator/index.js';
import { clientFor } from './client-for.js';
import { refusedOrigin } from '../helpers/refused-port.js';

let upstream: VerifyingUpstream;
before(async () => {
  upstream = await startVerifyingUpstream();
});
after(() => upstream.close());

function client(overrides: Partial<ChatbotClientOptions> = {}) {
  return clientFor(upstream, overrides);
}

const send = (c: ChatbotClient) => c.sendMessage({ user: { id: 'u1', name: 'Ann' }, message: { content: 'hi' } });

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail('expected the call to fail');
}

test('a 400 validation body gives the errors map, the problem and a one-line message', async () => {
  const problem = {
    type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
    title: 'One or more validation errors occurred.',
    status: 400,
    errors: { 'user.name': ['The name field is required.'], 'message.content': ['Too long.', 'Must not\nbe empty.'] },
    traceId: '00-abc',
  };
  upstream.script({ status: 400, body: problem });
  const error = await failure(send(client()));
  assert.ok(error instanceof ChatbotHttpError);
  assert.ok(error instanceof ChatbotError);
  assert.equal(error.status, 400);
  assert.deepEqual(error.errors, problem.errors);
  assert.deepEqual(error.problem, problem);
  assert.deepEqual(error.body, problem);
  assert.equal(error.envelope, null);
  assert.equal(error.upstreamMessage, problem.title);
  // Reads as a sentence: no generic title, no ".;" between fields.
  assert.equal(
    error.message,
    'The chatbot API refused the request: user.name: The name field is required; message.content: Too long. Must not be empty',
  );
});

test('a validation body about the whole body, or without fields, still reads as one natural line', async () => {
  const problem = (errors: Record<string, string[]>) => ({
    type: 'about:blank',
    title: 'One or more validation errors occurred.',
    status: 400,
    errors,
    traceId: 't',
  });
  upstream.script({ status: 400, body: problem({ $: ['The request body is not valid JSON.'] }) });
  assert.equal(
    String(await failure(send(client()))),
    'ChatbotHttpError: The chatbot API refused the request: The request body is not valid JSON',
  );
  upstream.script({ status: 400, body: problem({}) });
  assert.equal(
    String(await failure(send(client()))),
    'ChatbotHttpError: The chatbot API refused the request: One or more validation errors occurred.',
  );
  upstream.script({ status: 422, body: problem({ from: ['Bad.'] }) });
  assert.equal(
    String(await failure(send(client()))),
    'ChatbotHttpError: The chatbot API refused the request (422 Unprocessable Entity): from: Bad',
  );
});

test('a 429 on a send is not retried and carries the quota figures and the wait until reset', async () => {
  const now = Date.now();
  const reset = Math.floor(now / 1000) + 3600;
  upstream.script({
    status: 429,
    headers: { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(reset) },
    body: { data: null, error: 'Daily message quota exceeded' },
  });
  const before = upstream.requests.length;
  const error = await failure(send(client({ now: () => now, retry: { limit: 5, baseDelayMs: 1 } })));
  assert.equal(upstream.requests.length - before, 1);
  assert.ok(error instanceof ChatbotHttpError);
  assert.equal(error.status, 429);
  assert.deepEqual(error.rateLimit, { limit: 100, remaining: 0, reset, resetAt: new Date(reset * 1000) });
  assert.equal(error.retryAfterSeconds, 3600);
  // A wait of an hour or more reads in hours and minutes, and as the reset time in UTC.
  const resetMinute = new Date(Math.ceil((reset * 1000) / 60_000) * 60_000).toISOString().slice(0, 16).replace('T', ' ');
  assert.equal(
    error.message,
    `Chatbot API answered 429 Too Many Requests: Daily message quota exceeded (retry in 1 h, at ${resetMinute} UTC)`,
  );
});

test('a 429 a whole working day before the reset says "9 h 57 min", a short one seconds', async () => {
  // The client's clock signs too, so it stays the real one; the reset is 35,797 s after it.
  const now = Date.now();
  const reset = Math.floor(now / 1000) + 35797;
  upstream.script({
    status: 429,
    headers: { 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(reset) },
    body: { data: null, error: 'Daily message quota exceeded' },
  });
  const daily = await failure(send(client({ now: () => now, retry: false })));
  assert.ok(daily instanceof ChatbotHttpError);
  assert.equal(daily.retryAfterSeconds, 35797);
  const resetMinute = new Date(Math.ceil((reset * 1000) / 60_000) * 60_000).toISOString().slice(0, 16).replace('T', ' ');
  assert.equal(
    daily.message,
    `Chatbot API answered 429 Too Many Requests: Daily message quota exceeded (retry in 9 h 57 min, at ${resetMinute} UTC)`,
  );

  upstream.script({ status: 429, headers: { 'Retry-After': '42' }, body: { data: null, error: 'Slow down' } });
  const short = await failure(send(client({ retry: false })));
  assert.equal((short as Error).message, 'Chatbot API answered 429 Too Many Requests: Slow down (retry in 42 s)');
});

test('a 404 from a base URL without the /api suffix says so; a 404 of a real route does not', async () => {
  // The real emulator, on loopback: it answers any path outside /api with a 404 envelope.
  const emulator = createEmulator({ db: ':memory:', chatbots: [{ id: 'bot_test', apiKey: 'pk_e', apiSecret: 'sk_e', tier: 'free' }] });
  const server = await emulator.listen({ port: 0, host: '127.0.0.1' });
  try {
    const options = { apiKey: 'pk_e', apiSecret: 'sk_e', chatbotId: 'bot_test', retry: false as const };
    const noSuffix = await failure(new ChatbotClient({ ...options, baseUrl: new URL(server.url).origin }).listUsers());
    assert.ok(noSuffix instanceof ChatbotHttpError);
    assert.equal(noSuffix.status, 404);
    assert.match(
      noSuffix.message,
      /^Chatbot API answered 404 Not Found: .+ \(the base URL should end in \/api, e.g\. http:\/\/localhost:8080\/api\)$/,
    );

    const missing = await failure(new ChatbotClient({ ...options, baseUrl: server.url }).getMessage('nope'));
    assert.equal((missing as Error).message, 'Chatbot API answered 404 Not Found: Message not found.');
  } finally {
    await server.close();
    emulator.close();
  }
});

test('a base URL without a scheme is refused naming the whole value, with the likely fix', () => {
  assert.throws(() => client({ baseUrl: 'localhost:8099/api' }), {
    name: 'TypeError',
    message:
      'baseUrl must be an absolute http(s) URL such as https://host/api, got "localhost:8099/api"; did you mean "http://localhost:8099/api"?',
  });
});

test('a 5xx without a JSON body is an HTTP error that says so', async () => {
  upstream.script({ status: 502, headers: { 'Content-Type': 'text/html' }, body: '<html>Bad gateway</html>' });
  const error = await failure(client().listUsers());
  assert.ok(error instanceof ChatbotHttpError);
  assert.equal(error.status, 502);
  assert.equal(error.body, undefined);
  assert.equal(error.upstreamMessage, null);
  assert.equal(error.message, 'Chatbot API answered 502 Bad Gateway: no JSON body');
});

test('a 2xx that is not JSON, or not the envelope, is a ChatbotResponseError', async () => {
  upstream.script({ headers: { 'Content-Type': 'text/html' }, body: '<!doctype html><title>Welcome</title>' });
  const notJson = await failure(client().listUsers());
  assert.ok(notJson instanceof ChatbotResponseError);
  assert.equal(notJson.status, 200);
  assert.match(notJson.message, /answered 200 with a body that is not JSON; check the base URL/);
  assert.equal(notJson.bodySnippet, '<!doctype html><title>Welcome</title>');
  assert.ok(notJson.cause instanceof SyntaxError);

  upstream.script({ body: { data: { not: 'a list' }, error: null } });
  const wrongShape = await failure(client().listMessages());
  assert.ok(wrongShape instanceof ChatbotResponseError);
  assert.match(wrongShape.message, /a "data" that is not a list/);

  upstream.script({ body: [1, 2] });
  assert.match(String(await failure(client().countMessages({ from: '2025-01-01', to: '2025-02-01' }))), /JSON that is not an envelope/);

  upstream.script({ body: '' });
  assert.match(String(await failure(client().listUsers())), /an empty body/);
});

test('an envelope reporting an error is an error even with status 200', async () => {
  upstream.script({ body: { data: 0, error: 'to must be greater than from' } });
  const error = await failure(client().countMessages({ from: '2025-02-01', to: '2025-01-01' }));
  assert.ok(error instanceof ChatbotHttpError);
  assert.equal(error.status, 200);
  assert.equal(error.upstreamMessage, 'to must be greater than from');
  assert.deepEqual(error.envelope, { data: 0, error: 'to must be greater than from' });
});

test('a redirect is not followed with the signed headers', async () => {
  let followed = 0;
  const elsewhere = createServer((_req, res) => {
    followed++;
    res.end('{}');
  });
  await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
  try {
    const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/steal`;
    upstream.script({ status: 302, headers: { Location: target } });
    const error = await failure(client().listUsers());
    assert.ok(error instanceof ChatbotHttpError);
    assert.equal(error.status, 302);
    assert.match(error.message, /redirected the request.*check the base URL/);
    assert.equal(followed, 0);
  } finally {
    await new Promise((resolve) => elsewhere.close(resolve));
  }
});

test('an unreachable upstream is a ChatbotNetworkError naming the URL and keeping the cause', async () => {
  const origin = await refusedOrigin();
  const error = await failure(client({ baseUrl: `${origin}/api` }).listUsers());
  assert.ok(error instanceof ChatbotNetworkError);
  assert.ok(error instanceof ChatbotError);
  assert.equal(error.url, `${origin}/api/Dev/bot_test/users`);
  assert.ok(error.message.startsWith(`Could not reach the chatbot API at ${origin}/api/Dev/bot_test/users: `), error.message);
  assert.match(error.message, /ECONNREFUSED/);
  assert.ok(error.cause instanceof Error);
});

test('a connection dropped mid-request is a network error, and a send is not retried', async () => {
  // Two hang-ups scripted: a retry would meet the second one and still fail, so only the count tells.
  upstream.script({ hangUp: true }, { hangUp: true });
  const before = upstream.requests.length;
  const error = await failure(send(client({ retry: { limit: 3, baseDelayMs: 1 } })));
  assert.ok(error instanceof ChatbotNetworkError);
  assert.match(error.message, /other side closed|socket|reset/i);
  assert.equal(upstream.requests.length - before, 1);
  // A read, by contrast, retries past the second hang-up to the canned answer.
  assert.deepEqual((await client({ retry: { limit: 1, baseDelayMs: 1 } }).listUsers()).data, []);
});

test('an answer slower than timeoutMs is a ChatbotTimeoutError; a send times out once, unretried', async () => {
  upstream.script({ delayMs: 3000, body: { data: 'late', error: null } });
  const before = upstream.requests.length;
  const error = await failure(send(client({ timeoutMs: 100, retry: { limit: 3, baseDelayMs: 1 } })));
  assert.ok(error instanceof ChatbotTimeoutError);
  assert.equal(error.timeoutMs, 100);
  assert.match(error.message, /did not answer within 100 ms/);
  assert.equal(upstream.requests.length - before, 1);

  upstream.script({ delayMs: 3000, body: { data: [], error: null } });
  assert.ok((await failure(client({ timeoutMs: 5000 }).listUsers({}, { timeoutMs: 50 }))) instanceof ChatbotTimeoutError);
});

test("the caller's AbortSignal ends the call with the caller's reason", async () => {
  upstream.script({ delayMs: 3000, body: { data: [], error: null } });
  const controller = new AbortController();
  const reason = new Error('user navigated away');
  setTimeout(() => controller.abort(reason), 20);
  assert.equal(await failure(client().listUsers({}, { signal: controller.signal })), reason);
  assert.equal(await failure(client().listUsers({}, { signal: AbortSignal.abort(reason) })), reason);
});
