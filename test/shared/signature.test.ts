import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  sign,
  stringToSign,
  timingSafeEqual,
  verifySignature,
  toBase64Url,
  fromBase64Url,
  unixSeconds,
} from '../../src/shared/signature.js';
import { buildQuery } from '../../src/shared/query.js';
import { loadVectors, hasSharedVectors, sharedVectors } from '../helpers/vectors.js';
import { independentSignature } from '../helpers/independent-signer.js';

const vectors = loadVectors();

test('there are vectors to check', () => {
  assert.ok(vectors.length >= 7);
});

test(
  'the project copy of the vectors equals the shared original',
  { skip: hasSharedVectors ? false : `no ${sharedVectors} beside this clone: the project copy is used alone` },
  () => {
    assert.deepEqual(vectors, loadVectors(sharedVectors));
  },
);

for (const v of vectors) {
  test(`sign() reproduces the vector "${v.name}"`, async () => {
    assert.equal(await sign(v), v.signature);
  });

  test(`verifySignature() accepts "${v.name}" and refuses it with one bit changed`, async () => {
    assert.equal(await verifySignature({ ...v, signature: v.signature }), true);
    const flipped = (v.signature[0] === 'A' ? 'B' : 'A') + v.signature.slice(1);
    assert.equal(await verifySignature({ ...v, signature: flipped }), false);
    assert.equal(await verifySignature({ ...v, body: v.body + ' ', signature: v.signature }), false);
    assert.equal(await verifySignature({ ...v, timestamp: v.timestamp + 1, signature: v.signature }), false);
  });
}

test('the string to sign upper-cases the method and keeps an empty line for a GET', () => {
  assert.equal(stringToSign({ method: 'get', path: '/api/x', body: '', timestamp: 5 }), 'GET\n/api/x\n\n5');
});

test('sign() agrees with an independent HMAC on awkward input', async () => {
  const cases = [
    { method: 'GET', path: `/api/Dev/b/messages${buildQuery({ sessionId: 's/1 x', userId: 'zoë@example.com' })}`, body: '' },
    {
      method: 'POST',
      path: '/api/Dev/b/message',
      body: JSON.stringify({ user: { id: 'u', name: 'Zoë' }, message: { content: '👋 日本語 \u2028' } }),
    },
  ];
  for (const c of cases) {
    const expected = independentSignature('sk_ütf8_secret', c.method, c.path, c.body, 1763800000);
    assert.equal(await sign({ ...c, timestamp: 1763800000, secret: 'sk_ütf8_secret' }), expected);
  }
});

test('timingSafeEqual compares whole strings, including different lengths and non-ASCII', () => {
  assert.equal(timingSafeEqual('abc', 'abc'), true);
  assert.equal(timingSafeEqual('abc', 'abd'), false);
  assert.equal(timingSafeEqual('abc', 'abcd'), false);
  assert.equal(timingSafeEqual('', ''), true);
  assert.equal(timingSafeEqual('', 'a'), false);
  assert.equal(timingSafeEqual('ü', 'ü'), true);
  assert.equal(timingSafeEqual('ü', 'u'), false);
});

test('buildQuery encodes each value as URL parsing keeps it, an apostrophe included', () => {
  const query = buildQuery({ userId: "o'brien@example.com", sessionId: "a'b (c)!*~" });
  assert.equal(query, '?userId=o%27brien%40example.com&sessionId=a%27b%20(c)!*~');
  // What is signed is what is sent: the URL parser leaves it as it is.
  assert.equal(new URL(`https://upstream.example/api/Dev/b/messages${query}`).search, query);
});

test('buildQuery encodes each value once and leaves out absent ones', () => {
  assert.equal(buildQuery({}), '');
  assert.equal(buildQuery({ a: undefined, b: null }), '');
  assert.equal(
    buildQuery({ sessionId: 's/1 x', userId: 'ann@example.com', page: 2 }),
    '?sessionId=s%2F1%20x&userId=ann%40example.com&page=2',
  );
  assert.equal(buildQuery({ sent: true, q: 'ü+&=' }), '?sent=true&q=%C3%BC%2B%26%3D');
});

test('base64url round-trips bytes and refuses other alphabets', () => {
  const bytes = new Uint8Array([0, 255, 250, 62, 63, 1, 2]);
  assert.deepEqual(fromBase64Url(toBase64Url(bytes)), bytes);
  assert.throws(() => fromBase64Url('ab+/'), TypeError);
});

test('unixSeconds rounds down to whole seconds', () => {
  assert.equal(unixSeconds(1_763_800_000_999), 1_763_800_000);
});
