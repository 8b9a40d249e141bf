// Conformance: authentication (signature, key, ±300 s window), unknown chatbot vs another
// chatbot's key, and the order of checks 401 → 404 → 403 → 400 → 429 (docs/api.md), over real
// HTTP with the independent signer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { independentSignature } from '../helpers/independent-signer.js';
import { BOT_A, BOT_B, ENVELOPE_KEYS, keysOf, rawRequest, startHarness } from './harness.js';

const h = await startHarness();

test('a correctly signed GET is accepted on every read endpoint', async () => {
  for (const path of [
    '/Dev/bot_a/messages',
    '/Dev/bot_a/messages?page=1&pageSize=50',
    '/Dev/bot_a/messages/count?from=2025-01-01&to=2025-07-01',
    '/Dev/bot_a/messages/count-by-month?from=2025-01-01&to=2025-07-01',
    '/Dev/bot_a/users',
    '/Dev/bot_a/sessions',
  ]) {
    const res = await h.call('GET', path);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    assert.equal(res.body.error, null);
  }
});

test('each missing header is 401 with the envelope (data null, error a message)', async () => {
  const ts = String(Math.floor(h.clock.now / 1000));
  const path = '/api/Dev/bot_a/users';
  const full = {
    'X-API-Key': BOT_A.apiKey,
    'X-Timestamp': ts,
    'X-Signature': independentSignature(BOT_A.apiSecret, 'GET', path, '', ts),
  };
  assert.equal((await rawRequest(h.port, { method: 'GET', path, headers: full })).status, 200, 'control: all three present');
  for (const missing of Object.keys(full)) {
    const headers = { ...full } as Record<string, string>;
    delete headers[missing];
    const res = await rawRequest(h.port, { method: 'GET', path, headers });
    assert.equal(res.status, 401, missing);
    assert.deepEqual(keysOf(res.body), ENVELOPE_KEYS);
    assert.equal(res.body.data, null);
    assert.equal(typeof res.body.error, 'string');
  }
});

test('an unknown key is 401', async () => {
  const res = await h.call('GET', '/Dev/bot_a/users', { bot: { ...BOT_A, apiKey: 'pk_nobody' } });
  assert.equal(res.status, 401);
  assert.equal(res.body.data, null);
});

test('a signature made with the wrong secret is 401', async () => {
  const res = await h.call('GET', '/Dev/bot_a/users', { bot: { ...BOT_A, apiSecret: 'sk_wrong' } });
  assert.equal(res.status, 401);
});

test('the signature covers the raw query exactly as sent: a different encoding of the same query is 401', async () => {
  // Same meaning, different bytes: the emulator must verify over what arrived, not a normalised form.
  const ok = await h.call('GET', '/Dev/bot_a/sessions?userId=a%20b');
  assert.equal(ok.status, 200);
  const res = await h.call('GET', '/Dev/bot_a/sessions?userId=a%20b', { signedPath: '/api/Dev/bot_a/sessions?userId=a+b' });
  assert.equal(res.status, 401);
  const noQuery = await h.call('GET', '/Dev/bot_a/sessions?userId=x', { signedPath: '/api/Dev/bot_a/sessions' });
  assert.equal(noQuery.status, 401, 'the query string is part of the signed path');
  const reordered = await h.call('GET', '/Dev/bot_a/messages?page=1&pageSize=5', {
    signedPath: '/api/Dev/bot_a/messages?pageSize=5&page=1',
  });
  assert.equal(reordered.status, 401);
});

test('the signature covers the raw body bytes: re-serialised JSON is 401', async () => {
  const sent = '{"user":{"id":"u-raw","name":"Raw"},  "message":{"content":"spaces matter"}}';
  const ts = Math.floor(h.clock.now / 1000);
  const path = '/api/Dev/bot_a/message';
  const headers = (signedBody: string) => ({
    'Content-Type': 'application/json',
    'X-API-Key': BOT_A.apiKey,
    'X-Timestamp': String(ts),
    'X-Signature': independentSignature(BOT_A.apiSecret, 'POST', path, signedBody, ts),
  });
  const wrong = await rawRequest(h.port, { method: 'POST', path, body: sent, headers: headers(JSON.stringify(JSON.parse(sent))) });
  assert.equal(wrong.status, 401);
  const right = await rawRequest(h.port, { method: 'POST', path, body: sent, headers: headers(sent) });
  assert.equal(right.status, 200, right.text);
});

test('a body with non-ASCII text is verified over its UTF-8 bytes', async () => {
  const res = await h.send('Grüße, 世界 🙂', { user: 'u-utf8', name: 'Zoë' });
  assert.equal(res.status, 200, res.text);
});

test('the method is part of the signature', async () => {
  const ts = Math.floor(h.clock.now / 1000);
  const path = '/api/Dev/bot_a/users';
  const res = await rawRequest(h.port, {
    method: 'GET',
    path,
    headers: {
      'X-API-Key': BOT_A.apiKey,
      'X-Timestamp': String(ts),
      'X-Signature': independentSignature(BOT_A.apiSecret, 'POST', path, '', ts),
    },
  });
  assert.equal(res.status, 401);
});

test('the timestamp window: 300 s either way accepted, 301 s either way refused with 401', async () => {
  const now = Math.floor(h.clock.now / 1000);
  for (const [offset, status] of [
    [0, 200],
    [300, 200],
    [-300, 200],
    [301, 401],
    [-301, 401],
    [86_400, 401],
  ] as const) {
    const res = await h.call('GET', '/Dev/bot_a/users', { timestamp: now + offset });
    assert.equal(res.status, status, `offset ${offset}`);
  }
});

test('a timestamp that is not whole seconds is 401', async () => {
  const now = Math.floor(h.clock.now / 1000);
  for (const bad of [`${now}.5`, `${now * 1000}`, 'yesterday', ` ${now}`, `-${now}`]) {
    const path = '/api/Dev/bot_a/users';
    const res = await rawRequest(h.port, {
      method: 'GET',
      path,
      headers: {
        'X-API-Key': BOT_A.apiKey,
        'X-Timestamp': bad,
        'X-Signature': independentSignature(BOT_A.apiSecret, 'GET', path, '', bad),
      },
    });
    assert.equal(res.status, 401, JSON.stringify(bad));
  }
});

test('an unknown chatbot is 404 with the envelope; a key of another chatbot is 403', async () => {
  const unknown = await h.call('GET', '/Dev/bot_zzz/messages');
  assert.equal(unknown.status, 404);
  assert.deepEqual(unknown.body, { data: null, error: unknown.body.error });
  assert.equal(typeof unknown.body.error, 'string');
  const other = await h.call('GET', '/Dev/bot_b/messages', { bot: BOT_A });
  assert.equal(other.status, 403);
  assert.deepEqual(keysOf(other.body), ENVELOPE_KEYS);
  assert.equal(other.body.data, null);
  const own = await h.call('GET', '/Dev/bot_b/messages', { bot: BOT_B });
  assert.equal(own.status, 200);
});

test('order of checks: 401 before 404 before 403 before 400', async () => {
  // Bad signature on an unknown chatbot with bad paging: authentication wins.
  assert.equal((await h.call('GET', '/Dev/nobody/messages?page=0', { bot: { ...BOT_A, apiSecret: 'sk_x' } })).status, 401);
  // Valid signature, unknown chatbot, bad paging: 404.
  assert.equal((await h.call('GET', '/Dev/nobody/messages?page=0')).status, 404);
  // Valid signature, another's chatbot, bad paging: 403.
  assert.equal((await h.call('GET', '/Dev/bot_b/messages?page=0')).status, 403);
  // Own chatbot, bad paging: 400.
  assert.equal((await h.call('GET', '/Dev/bot_a/messages?page=0')).status, 400);
  // Send: another's chatbot with an invalid body is 403, not 400.
  const body = JSON.stringify({ user: { id: 'x' }, message: {} });
  assert.equal((await h.call('POST', '/Dev/bot_b/message', { body })).status, 403);
});

test('a percent-encoded chatbot id is decoded after the signature check', async () => {
  const res = await h.call('GET', '/Dev/bot%5Fa/users');
  assert.equal(res.status, 200, res.text);
  const broken = await h.call('GET', '/Dev/bot%zz/users');
  assert.equal(broken.status, 404);
});
