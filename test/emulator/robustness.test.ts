// Bad input never crashes the emulator and never gets a 500: malformed or non-object JSON, wrong
// content types, bodies over the cap, odd percent-encodings, unknown routes and methods.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import { independentSignature } from '../helpers/independent-signer.js';
import { BOT_A, ENVELOPE_KEYS, VALIDATION_KEYS, keysOf, rawRequest, startHarness } from './harness.js';

const h = await startHarness();

/** A send whose raw body is `body` (string or bytes), correctly signed over those bytes. */
function signedPost(body: Buffer | string, headers: Record<string, string> = {}) {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const ts = Math.floor(h.clock.now / 1000);
  const path = '/api/Dev/bot_a/message';
  const signature = independentSignatureOfBytes(path, bytes, ts);
  return rawRequest(h.port, {
    method: 'POST',
    path,
    body: bytes,
    headers: {
      'Content-Type': 'application/json',
      'X-API-Key': BOT_A.apiKey,
      'X-Timestamp': String(ts),
      'X-Signature': signature,
      ...headers,
    },
  });
}

function independentSignatureOfBytes(path: string, bytes: Buffer, ts: number): string {
  const text = bytes.toString('utf8');
  if (Buffer.from(text, 'utf8').equals(bytes)) return independentSignature(BOT_A.apiSecret, 'POST', path, text, ts);
  // Not UTF-8: sign the exact bytes with node:crypto directly.
  return createHmacOfBytes(`POST\n${path}\n`, bytes, `\n${ts}`);
}

function createHmacOfBytes(prefix: string, bytes: Buffer, suffix: string): string {
  return createHmac('sha256', BOT_A.apiSecret).update(prefix).update(bytes).update(suffix).digest('base64');
}

test('malformed JSON, JSON that is not an object, and an empty body are 400 validation bodies', async () => {
  for (const body of [
    '{',
    '{"user":',
    'null',
    '[]',
    '"text"',
    '42',
    'true',
    '',
    '{"user":{"id":"u","name":"n"},"message":{"content":"x"}} trailing',
  ]) {
    const res = await signedPost(body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.deepEqual(keysOf(res.body), VALIDATION_KEYS, JSON.stringify(body));
    assert.ok(Object.keys(res.body.errors).length > 0);
  }
});

test('a body that is not UTF-8 is a 400, not a crash', async () => {
  const res = await signedPost(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
  assert.equal(res.status, 400);
  assert.deepEqual(Object.keys(res.body.errors), ['$']);
});

test('lone surrogates and control characters in JSON strings are stored without harm', async () => {
  const body = '{"user":{"id":"u-odd","name":"\\ud800 odd"},"message":{"content":"nul \\u0000 and \\udfff"}}';
  const res = await signedPost(body);
  assert.equal(res.status, 200, res.text);
  const list = await h.call('GET', '/Dev/bot_a/messages?userId=u-odd');
  assert.equal(list.status, 200);
  assert.equal(list.body.totalItems, 2);
});

test('a POST whose Content-Type is not JSON is 415 with the envelope', async () => {
  const body = JSON.stringify({ user: { id: 'u', name: 'n' }, message: { content: 'x' } });
  for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonp']) {
    const res = await signedPost(body, { 'Content-Type': type });
    assert.equal(res.status, 415, type);
    assert.deepEqual(keysOf(res.body), ENVELOPE_KEYS);
  }
  assert.equal((await signedPost(body, { 'Content-Type': 'Application/JSON; charset=utf-8' })).status, 200);
});

test('a body over 64 KiB is 413 with the envelope, declared or chunked', async () => {
  const big = JSON.stringify({ user: { id: 'u', name: 'n' }, message: { content: 'x'.repeat(70 * 1024) } });
  const declared = await signedPost(big);
  assert.equal(declared.status, 413);
  assert.deepEqual(keysOf(declared.body), ENVELOPE_KEYS);
  assert.equal(declared.body.data, null);

  // Chunked, no Content-Length: counted as it arrives.
  const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: h.port,
        method: 'POST',
        path: '/api/Dev/bot_a/message',
        headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    for (let i = 0; i < 10; i++) req.write('x'.repeat(8 * 1024));
    req.end();
  });
  assert.equal(chunked.status, 413);
  assert.equal(JSON.parse(chunked.body).data, null);
  // And the emulator still answers.
  assert.equal((await h.call('GET', '/Dev/bot_a/users')).status, 200);
});

test('unknown routes are 404 envelopes, before any authentication', async () => {
  for (const path of [
    '/api',
    '/api/',
    '/api/Dev',
    '/api/Dev/bot_a',
    '/api/Dev/bot_a/nothing',
    '/api/Dev/bot_a/messages/m/extra',
    '/api/Dev//messages',
    '/api/v2/Dev/bot_a/messages',
    '/elsewhere',
    '/',
  ]) {
    const res = await rawRequest(h.port, { method: 'GET', path });
    assert.equal(res.status, 404, path);
    assert.deepEqual(keysOf(res.body), ENVELOPE_KEYS, path);
    assert.equal(res.body.data, null);
    // The body lists the routes that exist, rather than pointing at a document the caller may not have.
    assert.equal(
      res.body.error,
      'No such endpoint. Routes are under /api/Dev/{chatbotId}/: message (POST), messages, messages/{messageId}, ' +
        'messages/count, messages/count-by-month, users, sessions (GET).',
      path,
    );
  }
});

test('a wrong method is 405 with Allow and the envelope', async () => {
  for (const [method, path, allow] of [
    ['GET', '/api/Dev/bot_a/message', 'POST'],
    ['POST', '/api/Dev/bot_a/messages', 'GET'],
    ['DELETE', '/api/Dev/bot_a/messages/m1', 'GET'],
    ['PUT', '/api/Dev/bot_a/users', 'GET'],
  ] as const) {
    const res = await rawRequest(h.port, { method, path });
    assert.equal(res.status, 405, `${method} ${path}`);
    assert.equal(res.headers.allow, allow);
    assert.deepEqual(keysOf(res.body), ENVELOPE_KEYS);
  }
});

test('route literals match in any case and with one trailing slash, as upstream’s router does', async () => {
  assert.equal((await h.call('GET', '/dev/bot_a/Messages/')).status, 200);
  assert.equal((await h.call('GET', '/DEV/bot_a/users')).status, 200);
});

test('odd percent-encodings in the query or path never crash: 400 naming the parameter or an empty result', async () => {
  const page = await h.call('GET', '/Dev/bot_a/messages?page=%zz');
  assert.equal(page.status, 400);
  assert.deepEqual(Object.keys(page.body.errors), ['page']);
  const from = await h.call('GET', '/Dev/bot_a/messages/count?from=%E2%82&to=2026-01-01');
  assert.equal(from.status, 400);
  assert.deepEqual(Object.keys(from.body.errors), ['from']);
  for (const path of ['/Dev/bot_a/messages?userId=%', '/Dev/bot_a/messages?sessionId=%C3%28', '/Dev/bot_a/sessions?userId=a%2']) {
    const res = await h.call('GET', path);
    assert.equal(res.status, 200, path);
    assert.deepEqual(res.body.data, []);
  }
  // Unknown or malformed parameter names are ignored, like any unknown parameter.
  assert.equal((await h.call('GET', '/Dev/bot_a/messages?%zz=1&&=&a')).status, 200);
  assert.equal((await h.call('GET', '/Dev/bot_a/messages/%E0%A4%A')).status, 404);
  assert.equal((await h.call('GET', '/Dev/%/users')).status, 404);
});

test('wrong types in header values are 401, never 500', async () => {
  const path = '/api/Dev/bot_a/users';
  const res = await rawRequest(h.port, {
    method: 'GET',
    path,
    headers: { 'X-API-Key': BOT_A.apiKey, 'X-Timestamp': String(Math.floor(h.clock.now / 1000)), 'X-Signature': '!!!not base64!!!' },
  });
  assert.equal(res.status, 401);
});

test('a burst of garbage leaves the emulator answering', async () => {
  const junk = await Promise.all(
    Array.from({ length: 30 }, (_, i) => signedPost(i % 2 ? '{"user":' + '['.repeat(i * 100) : JSON.stringify({ user: [i], message: i }))),
  );
  assert.ok(junk.every((r) => r.status === 400));
  assert.equal((await h.send('still here?')).status, 200);
});
