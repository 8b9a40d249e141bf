// The Node adapter's light Responses and raw Headers behave as the real ones, member by member:
// the handler's core and any host code keep to the Web API and must not tell them apart.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LightResponse } from '../../../src/server/adapters/light-response.js';
import { RawHeaders } from '../../../src/server/adapters/raw-headers.js';

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' };
const light = (body?: BodyInit | null, init?: ResponseInit) => new LightResponse(body, init) as unknown as Response;

describe('LightResponse', () => {
  it('answers status, headers and body as the real Response does', async () => {
    for (const make of [light, (body?: BodyInit | null, init?: ResponseInit) => new Response(body, init)]) {
      const response = make('{"data":1}', { status: 201, statusText: 'Created', headers: JSON_HEADERS });
      assert.equal(response instanceof Response, true);
      assert.deepEqual(
        [response.status, response.ok, response.statusText, response.type, response.redirected],
        [201, true, 'Created', 'default', false],
      );
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(response.bodyUsed, false);
      const copy = response.clone();
      assert.deepEqual(await response.json(), { data: 1 });
      assert.equal(response.bodyUsed, true);
      await assert.rejects(response.text(), TypeError, 'a body is read once');
      assert.equal(await copy.text(), '{"data":1}');
    }
  });

  it('hands its body out as a stream that counts as used once read, as the real one does', async () => {
    const response = light('hello', { headers: { 'Content-Type': 'text/plain' } });
    const reader = response.body!.getReader();
    assert.equal(response.bodyUsed, false, 'a stream handed out is not yet a body read');
    const first = await reader.read();
    assert.equal(new TextDecoder().decode(first.value), 'hello');
    assert.equal((await reader.read()).done, true);
    assert.equal(response.bodyUsed, true);
    await assert.rejects(response.arrayBuffer(), TypeError);
    assert.equal(light(null, { status: 204 }).body, null);
  });

  it('reads its bytes with arrayBuffer as the real one does: a buffer of their own, once, and no body is no bytes', async () => {
    // A small Node Buffer sits in a shared pool: its ArrayBuffer holds other bytes too.
    const pooled = Buffer.from('{"reply":"hi"}');
    assert.ok(pooled.buffer.byteLength > pooled.byteLength, 'the Buffer shares a larger pool');
    for (const make of [light, (body?: BodyInit | null, init?: ResponseInit) => new Response(body, init)]) {
      const response = make(pooled as Uint8Array<ArrayBuffer>, { headers: JSON_HEADERS });
      const bytes = await response.arrayBuffer();
      assert.equal(bytes.byteLength, pooled.byteLength);
      assert.equal(new TextDecoder().decode(bytes), '{"reply":"hi"}');
      new Uint8Array(bytes)[0] = 0x5b;
      assert.equal(pooled[0], 0x7b, 'a copy: writing it leaves the body as it was');
      assert.equal(response.bodyUsed, true);
      await assert.rejects(response.arrayBuffer(), TypeError, 'a body is read once');
      const text = make('héllo', { headers: { 'Content-Type': 'text/plain' } });
      assert.deepEqual([...new Uint8Array(await text.arrayBuffer())], [...new TextEncoder().encode('héllo')]);
      const empty = make(null, { status: 204 });
      assert.equal((await empty.arrayBuffer()).byteLength, 0);
      assert.equal(empty.bodyUsed, false, 'no body is never used');
    }
  });

  it('adds text/plain to a text body without a Content-Type, and keeps a header set after it was built, as the real one does', async () => {
    const bare = light('plain');
    assert.equal(bare.headers.get('content-type'), new Response('plain').headers.get('content-type'));
    const answer = light('{}', { headers: JSON_HEADERS });
    answer.headers.set('Vary', 'Origin');
    assert.equal(answer.headers.get('vary'), 'Origin');
    assert.equal(answer.clone().headers.get('vary'), 'Origin');
    assert.equal(await answer.text(), '{}');
  });

  it('refuses what the real constructor refuses, with the same errors', () => {
    for (const [body, init] of [
      ['x', { status: 0, headers: JSON_HEADERS }],
      ['x', { status: 600, headers: JSON_HEADERS }],
      ['x', { status: 204, headers: JSON_HEADERS }],
      ['x', { headers: { ...JSON_HEADERS, 'Bad Name': 'v' } }],
      ['x', { headers: { ...JSON_HEADERS, 'X-Ok': 'line\nbreak' } }],
      ['x', { statusText: 'bad\r\n', headers: JSON_HEADERS }],
    ] as Array<[string, ResponseInit]>) {
      let real: unknown;
      try {
        new Response(body, init);
      } catch (error) {
        real = (error as Error).constructor;
      }
      assert.ok(real, `the real Response refuses ${JSON.stringify(init)}`);
      assert.throws(() => light(body, init), real as new () => Error, JSON.stringify(init));
    }
  });

  it('keeps the real static methods, and is what instanceof Response recognises', async () => {
    const made = (LightResponse as unknown as typeof Response).json({ a: 1 });
    assert.deepEqual(await made.json(), { a: 1 });
    assert.equal(new Response('x') instanceof (LightResponse as unknown as typeof Response), true);
    assert.equal(LightResponse.partsOf(new Response('x')), undefined, 'a real Response has no parts to write from');
    assert.equal(LightResponse.partsOf(light('x', { headers: JSON_HEADERS }))?.body, 'x');
  });
});

describe('RawHeaders', () => {
  const raw = ['Content-Type', 'application/json', 'X-Many', ' one ', 'x-many', 'two', 'Set-Cookie', 'a=1', 'set-cookie', 'b=2'];

  it('reads as Headers filled from the same pairs', () => {
    const real = new Headers();
    for (let i = 0; i < raw.length; i += 2) real.append(raw[i]!, raw[i + 1]!);
    const headers = new RawHeaders(raw) as unknown as Headers;
    assert.equal(headers instanceof Headers, true);
    for (const name of ['content-type', 'X-MANY', 'set-cookie', 'absent']) {
      assert.equal(headers.get(name), real.get(name), name);
      assert.equal(headers.has(name), real.has(name), name);
    }
    assert.deepEqual([...headers], [...real]);
    assert.deepEqual(headers.getSetCookie(), real.getSetCookie());
    assert.throws(() => headers.get('bad name'), TypeError);
  });

  it('changes its own copy of the pairs as Headers changes its pairs, and leaves to Headers what it must refuse or trim', () => {
    const given = [...raw];
    const headers = new RawHeaders(given) as unknown as Headers;
    const real = new Headers();
    for (let i = 0; i < raw.length; i += 2) real.append(raw[i]!, raw[i + 1]!);
    const steps: [string, (h: Headers) => void][] = [
      ['append keeps the earlier value', (h) => h.append('Vary', 'Origin')],
      ['set replaces every pair of the name', (h) => h.set('X-Many', 'replaced')],
      ['delete', (h) => h.delete('content-type')],
      ['append again', (h) => h.append('vary', 'Accept')],
      ['set of a name not there', (h) => h.set('X-RateLimit-Limit', '100')],
      ['an empty value', (h) => h.set('X-Empty', '')],
      ['a value that is not text', (h) => h.set('X-Count', 5 as unknown as string)],
      ['delete of a name not there', (h) => h.delete('absent')],
    ];
    const names = ['x-many', 'content-type', 'vary', 'x-ratelimit-limit', 'x-empty', 'x-count', 'set-cookie', 'absent'];
    for (const [what, step] of steps) {
      step(headers);
      step(real);
      for (const name of names) assert.equal(headers.get(name), real.get(name), `${what}: ${name}`);
    }
    assert.deepEqual(given, raw, 'the list handed in is never written to');
    // Still on the list: the adapter writes these pairs as they are.
    const pairs = RawHeaders.pairsOf(headers)!;
    assert.ok(pairs, 'plain changes do not need the real Headers');
    const written = new Headers();
    for (let i = 0; i < pairs.length; i += 2) written.append(pairs[i]!, pairs[i + 1]!);
    assert.deepEqual([...written], [...real]);
    assert.deepEqual([...headers], [...real]);
  });

  it('refuses, trims and keeps values exactly as Headers does, and is written from the real Headers after', () => {
    const cases: [string, (h: Headers) => void][] = [
      ['a value with whitespace at its ends', (h) => h.set('X-Note', ' \t spaced \t ')],
      ['a value with a line break', (h) => h.set('X-Note', 'a\r\nInjected: yes')],
      ['a value outside Latin-1', (h) => h.set('X-Note', 'euro €')],
      ['a Latin-1 value', (h) => h.append('X-Note', 'café')],
      ['a name that is not a token', (h) => h.set('Bad Name', 'x')],
      ['a name that is not a token, deleted', (h) => h.delete('bad name')],
    ];
    for (const [what, step] of cases) {
      const headers = new RawHeaders(['X-Note', 'first']) as unknown as Headers;
      const real = new Headers([['X-Note', 'first']]);
      let realError: unknown;
      let rawError: unknown;
      try {
        step(real);
      } catch (error) {
        realError = error;
      }
      try {
        step(headers);
      } catch (error) {
        rawError = error;
      }
      assert.equal(rawError?.constructor, realError?.constructor, `${what}: the same error, or none`);
      assert.equal(headers.get('x-note'), real.get('x-note'), what);
      assert.deepEqual([...headers], [...real], what);
    }
  });

  it('makes Headers of a plain record, and answers writers with no pairs once the real Headers exists', () => {
    const headers = RawHeaders.fromRecord({ 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }) as unknown as Headers;
    headers.set('Vary', 'Origin');
    assert.deepEqual(RawHeaders.pairsOf(headers), ['Content-Type', 'application/json', 'Cache-Control', 'no-store', 'Vary', 'Origin']);
    headers.set('X-Note', 'needs trimming ');
    assert.equal(RawHeaders.pairsOf(headers), undefined, 'built: the real Headers answers from now on');
    assert.equal(headers.get('x-note'), 'needs trimming');
    assert.equal(headers.get('vary'), 'Origin');
    assert.equal(RawHeaders.pairsOf(new Headers()), undefined);
    assert.equal(RawHeaders.pairsOf({}), undefined);
  });
});
