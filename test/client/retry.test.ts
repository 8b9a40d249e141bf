// Retry of reads: pure timing arithmetic first, then against a verifying server that fails N times.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { ChatbotHttpError, ChatbotNetworkError, type ChatbotClientOptions, type RetryEvent } from '../../src/client/index.js';
import { backoffDelay, DEFAULT_RETRY, retryPolicy, isRetryableStatus } from '../../src/client/retry.js';
import { serverDelayMs as serverDelay } from '../../src/shared/retry-after.js';
import { startVerifyingUpstream, type VerifyingUpstream } from '../helpers/verifying-upstream.js';
import { clientFor } from './client-for.js';

let upstream: VerifyingUpstream;
before(async () => {
  upstream = await startVerifyingUpstream();
});
after(() => upstream.close());

function client(overrides: Partial<ChatbotClientOptions> = {}) {
  return clientFor(upstream, { retry: { limit: 3, baseDelayMs: 1, maxDelayMs: 1000 }, ...overrides });
}

test('backoff doubles per retry, is capped, and keeps half of it fixed under jitter', () => {
  const policy = { limit: 5, baseDelayMs: 100, maxDelayMs: 1000 };
  assert.equal(
    backoffDelay(1, policy, () => 0),
    50,
  );
  assert.equal(
    backoffDelay(1, policy, () => 1),
    100,
  );
  assert.equal(
    backoffDelay(2, policy, () => 0),
    100,
  );
  assert.equal(
    backoffDelay(3, policy, () => 1),
    400,
  );
  assert.equal(
    backoffDelay(10, policy, () => 1),
    1000,
  );
  assert.equal(
    backoffDelay(10, policy, () => 0),
    500,
  );
});

test('the server delay reads Retry-After (seconds or date), then X-RateLimit-Reset on a 429', () => {
  const now = Date.UTC(2025, 5, 1, 12, 0, 0);
  assert.equal(serverDelay(503, new Headers({ 'Retry-After': '7' }), now), 7000);
  assert.equal(serverDelay(503, new Headers({ 'Retry-After': new Date(now + 5000).toUTCString() }), now), 5000);
  assert.equal(serverDelay(503, new Headers({ 'Retry-After': new Date(now - 5000).toUTCString() }), now), 0);
  assert.equal(serverDelay(429, new Headers({ 'X-RateLimit-Reset': String(now / 1000 + 30) }), now), 30_000);
  assert.equal(serverDelay(429, new Headers({ 'X-RateLimit-Reset': String(now / 1000 - 30) }), now), 0);
  assert.equal(serverDelay(429, new Headers({ 'Retry-After': '2', 'X-RateLimit-Reset': String(now / 1000 + 30) }), now), 2000);
  assert.equal(serverDelay(500, new Headers({ 'X-RateLimit-Reset': String(now / 1000 + 30) }), now), null);
  assert.equal(serverDelay(429, new Headers({ 'Retry-After': 'soon' }), now), null);
  assert.equal(serverDelay(429, new Headers(), now), null);
});

test('retry options: defaults, false, and refusal of nonsense', () => {
  assert.deepEqual(retryPolicy(undefined), DEFAULT_RETRY);
  assert.equal(retryPolicy(false).limit, 0);
  assert.deepEqual(retryPolicy({ limit: 1, baseDelayMs: undefined }), { ...DEFAULT_RETRY, limit: 1 });
  assert.throws(() => retryPolicy({ baseDelayMs: Number.NaN }), /retry.baseDelayMs/);
  assert.throws(() => retryPolicy({ limit: 1.5 }), /whole number/);
  assert.deepEqual([429, 500, 503, 599, 400, 401, 404, 200].map(isRetryableStatus), [true, true, true, true, false, false, false, false]);
});

test('a read that fails twice (503, dropped connection) succeeds on the third attempt, each freshly signed', async () => {
  upstream.script({ status: 503, body: { data: null, error: 'busy' } }, { hangUp: true }, { body: { data: 7, error: null } });
  let clock = Date.now();
  const retries: RetryEvent[] = [];
  const before = upstream.requests.length;
  const { data } = await client({ now: () => (clock += 1000), onRetry: (e) => retries.push(e) }).countMessages({
    from: '2025-01-01',
    to: '2025-02-01',
  });
  assert.equal(data, 7);
  const attempts = upstream.requests.slice(before);
  assert.equal(attempts.length, 3);
  for (const attempt of attempts) {
    assert.equal(attempt.verified, true, attempt.failure);
    assert.equal(attempt.url, attempts[0]?.url, 'the same path and query every time');
  }
  assert.equal(new Set(attempts.map((a) => a.headers['x-timestamp'])).size, 3, 'a fresh timestamp per attempt');
  assert.equal(new Set(attempts.map((a) => a.headers['x-signature'])).size, 3, 'a fresh signature per attempt');
  assert.deepEqual(
    retries.map((r) => r.retry),
    [1, 2],
  );
  assert.ok(retries[0]?.error instanceof ChatbotHttpError);
  assert.ok(retries[1]?.error instanceof ChatbotNetworkError);
});

test('a read that times out is retried, and the retry answers', async () => {
  upstream.script(
    { delayMs: 5000, body: { data: [], error: null } },
    { body: { data: [], error: null, totalItems: 0, pageSize: 20, currentPage: 1, totalPages: 0 } },
  );
  const before = upstream.requests.length;
  const retries: RetryEvent[] = [];
  const { totalItems } = await client({ timeoutMs: 100, onRetry: (e) => retries.push(e) }).listUsers();
  assert.equal(totalItems, 0);
  assert.equal(upstream.requests.length - before, 2);
  assert.equal(retries[0]?.error.name, 'ChatbotTimeoutError');
});

test('a read gives up after the retry limit with the last error', async () => {
  upstream.script(...Array.from({ length: 4 }, () => ({ status: 500, body: { data: null, error: 'boom' } })));
  const before = upstream.requests.length;
  const error = await client({ retry: { limit: 3, baseDelayMs: 1 } })
    .listUsers()
    .catch((e: unknown) => e);
  assert.ok(error instanceof ChatbotHttpError);
  assert.equal(error.status, 500);
  assert.equal(upstream.requests.length - before, 4);
});

test('a 429 waits what X-RateLimit-Reset says (taken from the injected clock) before retrying', async () => {
  const resetSeconds = Math.floor(Date.now() / 1000) + 1;
  const now = resetSeconds * 1000 - 30; // 30 ms before the reset
  upstream.script(
    {
      status: 429,
      headers: { 'X-RateLimit-Limit': '10', 'X-RateLimit-Remaining': '0', 'X-RateLimit-Reset': String(resetSeconds) },
      body: { data: null, error: 'slow down' },
    },
    { body: { data: [], error: null } },
  );
  const retries: RetryEvent[] = [];
  await client({ now: () => now, onRetry: (e) => retries.push(e) }).listSessions();
  assert.deepEqual(
    retries.map((r) => r.delayMs),
    [30],
  );
});

test('Retry-After is honoured over backoff', async () => {
  upstream.script(
    { status: 503, headers: { 'Retry-After': '0' }, body: { data: null, error: 'busy' } },
    { body: { data: [], error: null } },
  );
  const retries: RetryEvent[] = [];
  await client({ retry: { limit: 1, baseDelayMs: 5000, maxDelayMs: 5000 }, onRetry: (e) => retries.push(e) }).listUsers();
  assert.deepEqual(
    retries.map((r) => r.delayMs),
    [0],
  );
});

test('a server asking for a longer wait than maxDelayMs gets its error at once', async () => {
  upstream.script({ status: 429, headers: { 'Retry-After': '3600' }, body: { data: null, error: 'quota' } });
  const before = upstream.requests.length;
  const retries: RetryEvent[] = [];
  const error = await client({ onRetry: (e) => retries.push(e) })
    .listUsers()
    .catch((e: unknown) => e);
  assert.ok(error instanceof ChatbotHttpError);
  assert.equal(error.retryAfterSeconds, 3600);
  assert.equal(upstream.requests.length - before, 1);
  assert.equal(retries.length, 0);
});

test('client errors (4xx other than 429) are not retried, nor is anything with retry: false', async () => {
  upstream.script({ status: 403, body: { data: null, error: 'Forbidden' } });
  let before = upstream.requests.length;
  await assert.rejects(client().listUsers(), (e) => e instanceof ChatbotHttpError && e.status === 403);
  assert.equal(upstream.requests.length - before, 1);

  upstream.script({ status: 503, body: { data: null, error: 'busy' } });
  before = upstream.requests.length;
  await assert.rejects(client({ retry: false }).listUsers(), (e) => e instanceof ChatbotHttpError && e.status === 503);
  assert.equal(upstream.requests.length - before, 1);
});

test('a send is never retried, whatever the failure', async () => {
  upstream.script({ status: 503, headers: { 'Retry-After': '0' }, body: { data: null, error: 'busy' } });
  const before = upstream.requests.length;
  await assert.rejects(
    client({ retry: { limit: 5, baseDelayMs: 1 } }).sendMessage({ user: { id: 'u', name: 'U' }, message: { content: 'once' } }),
    (e) => e instanceof ChatbotHttpError && e.status === 503,
  );
  assert.equal(upstream.requests.length - before, 1);
});

test('aborting during the wait between attempts ends the call at once', async () => {
  upstream.script({ status: 503, headers: { 'Retry-After': '5' }, body: { data: null, error: 'busy' } });
  const controller = new AbortController();
  const reason = new Error('stop');
  const call = client({ retry: { limit: 1, maxDelayMs: 10_000 }, onRetry: () => controller.abort(reason) }).listUsers(
    {},
    { signal: controller.signal },
  );
  assert.equal(await call.catch((e: unknown) => e), reason);
});
