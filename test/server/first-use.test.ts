// What a new site owner meets first: a widget embedded on an origin the handler does not list
// (one warning per refused origin in the owner's log, safe to print), a POST without the JSON
// content type (a 415 that says what to send), and the base path opened in a browser (a 404 that
// says what lives there). Through real HTTP in front of the recording upstream.
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { API_KEY, API_SECRET } from './helpers/recording-upstream.js';
import { jsonHeaders, newVisitor, rawRequest, startHandler, type RunningHandler } from './helpers/handler-server.js';
import { recordingUpstreamForFile } from './helpers/stack-for-file.js';
import { loggableOrigin, MAX_LOGGED_ORIGINS } from '../../src/server/core/refused-origins.js';

const LISTED = 'https://shop.example.com';
const HINT = /add it to allowedOrigins \(CHATBOT_ALLOWED_ORIGINS for npm start\) if it should embed the widget/;
const upstream = await recordingUpstreamForFile();

describe('first use of the handler', () => {
  describe("a refused cross-origin browser is named in the owner's log", () => {
    let handler: RunningHandler;
    beforeEach(async () => {
      handler = await startHandler(upstream, { allowedOrigins: [LISTED], limits: { visitorsPerMinutePerAddress: 10_000 } });
    });
    // A handler per test: each test sees its own log and its own set of remembered origins.
    afterEach(() => handler.close());
    const warnings = () => handler.logs.filter((l) => l.level === 'warn').map((l) => l.message);

    it('warns once per origin, for the preflight and the request alike, and never for allowed ones', async () => {
      const { token } = await newVisitor(handler.port);
      const preflight = (origin: string) =>
        rawRequest(handler.port, {
          method: 'OPTIONS',
          path: '/chatbot/message',
          headers: {
            Origin: origin,
            'Sec-Fetch-Site': 'cross-site',
            'Access-Control-Request-Method': 'POST',
            'Access-Control-Request-Headers': 'authorization, content-type',
          },
        });
      const send = (origin: string) =>
        rawRequest(handler.port, {
          method: 'POST',
          path: '/chatbot/message',
          headers: { ...jsonHeaders(token), Origin: origin, 'Sec-Fetch-Site': 'cross-site' },
          body: '{"content":"hi"}',
        });

      assert.equal((await preflight('https://x.example')).status, 403);
      assert.equal((await send('https://x.example')).status, 403);
      assert.equal((await preflight('https://x.example')).status, 403);
      assert.equal((await send('https://y.example:8443')).status, 403);
      assert.equal((await preflight(LISTED)).status, 204);
      assert.equal((await send(LISTED)).status, 200);
      // Same-origin pages and server-to-server calls are not refusals.
      assert.equal(
        (await rawRequest(handler.port, { path: '/chatbot/sessions', headers: { ...jsonHeaders(token), Origin: handler.origin } })).status,
        200,
      );
      assert.equal((await rawRequest(handler.port, { path: '/chatbot/sessions', headers: jsonHeaders(token) })).status, 200);

      assert.deepEqual(warnings(), [
        'refused a cross-origin request from https://x.example: add it to allowedOrigins (CHATBOT_ALLOWED_ORIGINS for npm start) if it should embed the widget',
        'refused a cross-origin request from https://y.example:8443: add it to allowedOrigins (CHATBOT_ALLOWED_ORIGINS for npm start) if it should embed the widget',
      ]);
      for (const line of handler.logs) assert.doesNotMatch(line.message, new RegExp(`${API_SECRET}|${API_KEY}|${token}`));
      assert.equal(upstream.requests.filter((r) => r.method === 'POST').length, 1, "only the listed origin's send went upstream");
    });

    it('a same-site origin (Sec-Fetch-Site: same-site) and an opaque "null" origin are named too', async () => {
      const sameSite = await rawRequest(handler.port, {
        method: 'POST',
        path: '/chatbot/visitor',
        headers: { ...jsonHeaders(), Origin: 'https://api.shop.example.com', 'Sec-Fetch-Site': 'same-site' },
        body: '{}',
      });
      assert.equal(sameSite.status, 403);
      const opaque = await rawRequest(handler.port, {
        method: 'POST',
        path: '/chatbot/visitor',
        headers: { ...jsonHeaders(), Origin: 'null' },
        body: '{}',
      });
      assert.equal(opaque.status, 403);
      // A cross-site request without an Origin (an <img>, a link) has nothing to add to the list.
      const image = await rawRequest(handler.port, { path: '/chatbot/sessions', headers: { 'Sec-Fetch-Site': 'cross-site' } });
      assert.equal(image.status, 403);
      const lines = warnings();
      assert.equal(lines.length, 2, lines.join('\n'));
      assert.match(lines[0]!, /from https:\/\/api\.shop\.example\.com: add it to allowedOrigins/);
      assert.match(lines[1]!, /opaque origin \("null": a sandboxed iframe or a file:\/\/ page\)/);
    });

    it('an Origin with a tab, non-ASCII text and great length is logged capped and printable', async () => {
      // Over the wire: HTTP parsers refuse CR, LF and NUL in header values, so line breaks and
      // control characters are the unit test's below; a tab, a Latin-1 byte and length are here.
      const hostile = `https://evil.example\té${'a'.repeat(10_000)}`;
      const response = await rawRequest(handler.port, {
        method: 'POST',
        path: '/chatbot/visitor',
        headers: { ...jsonHeaders(), Origin: hostile, 'Sec-Fetch-Site': 'cross-site' },
        body: '{}',
      });
      assert.equal(response.status, 403);
      const [line] = warnings();
      assert.ok(line, 'a warning');
      assert.match(line, HINT);
      assert.ok(line.length < 300, `capped: ${line.length} characters`);
      assert.match(line, /^[\x20-\x7e…]+$/, 'printable ASCII only');
    });

    it(`remembers at most ${MAX_LOGGED_ORIGINS} origins, then says once that it stops`, async () => {
      for (let i = 0; i < MAX_LOGGED_ORIGINS + 20; i++) {
        const origin = `https://site-${i}.example`;
        // Each origin twice: the repeat is never logged.
        for (let repeat = 0; repeat < 2; repeat++) {
          const response = await rawRequest(handler.port, {
            method: 'POST',
            path: '/chatbot/visitor',
            headers: { ...jsonHeaders(), Origin: origin, 'Sec-Fetch-Site': 'cross-site' },
            body: '{}',
          });
          assert.equal(response.status, 403);
        }
      }
      const lines = warnings();
      assert.equal(lines.length, MAX_LOGGED_ORIGINS + 1);
      assert.match(lines[0]!, /from https:\/\/site-0\.example:/);
      assert.match(lines[MAX_LOGGED_ORIGINS - 1]!, new RegExp(`from https://site-${MAX_LOGGED_ORIGINS - 1}\\.example:`));
      assert.match(lines[MAX_LOGGED_ORIGINS]!, /more than 100 origins; further ones are not logged/);
    });
  });

  it('loggableOrigin strips line breaks and control characters and caps the length', () => {
    assert.equal(loggableOrigin('https://ok.example'), 'https://ok.example');
    assert.equal(
      loggableOrigin('https://a.example\r\n[chatbot-widget handler] forged line'),
      'https://a.example??[chatbot-widget?handler]?forged?line',
    );
    assert.equal(loggableOrigin('https://b.example\u2028\u0000\u001b[31m'), 'https://b.example???[31m');
    const long = loggableOrigin(`https://${'x'.repeat(500)}.example`);
    assert.equal(long.length, 121);
    assert.ok(long.endsWith('…'));
  });

  describe('routes a person may try by hand', () => {
    let handler: RunningHandler;
    before(async () => {
      handler = await startHandler(upstream);
    });
    after(() => handler.close());

    it('POST without Content-Type: application/json → 415 saying what to send, also for an empty /visitor', async () => {
      for (const [path, body] of [
        ['/chatbot/visitor', undefined],
        ['/chatbot/visitor', '{}'],
        ['/chatbot/message', '{"content":"hi"}'],
      ] as const) {
        const response = await rawRequest(handler.port, { method: 'POST', path, ...(body !== undefined ? { body } : {}) });
        assert.equal(response.status, 415, path);
        assert.equal(response.json.error, 'Send Content-Type: application/json (the body may be empty for /visitor)');
        assert.equal(response.json.data, null);
      }
      // As docs/handler.md ("Routes") says: with the content type, the body may be empty.
      const empty = await rawRequest(handler.port, {
        method: 'POST',
        path: '/chatbot/visitor',
        headers: { 'Content-Type': 'application/json' },
      });
      assert.equal(empty.status, 200, empty.text);
      assert.equal(upstream.requests.length, 0);
    });

    for (const path of ['/chatbot', '/chatbot/']) {
      it(`GET ${path} → 404 naming the routes, no-store, nothing upstream`, async () => {
        const response = await rawRequest(handler.port, { path });
        assert.equal(response.status, 404);
        assert.equal(response.headers['cache-control'], 'no-store');
        assert.deepEqual(response.json, {
          data: null,
          error:
            'This is the chatbot signing handler. The widget calls POST /chatbot/visitor, POST /chatbot/message, GET /chatbot/sessions, GET /chatbot/messages.',
        });
        assert.equal(upstream.requests.length, 0);
      });
    }

    it('the index names the configured base path, and tricks around it are still refused', async () => {
      const custom = await startHandler(upstream, { basePath: '/api/chat' });
      try {
        const index = await rawRequest(custom.port, { path: '/api/chat/' });
        assert.equal(index.status, 404);
        assert.match(
          index.json.error,
          /POST \/api\/chat\/visitor, POST \/api\/chat\/message, GET \/api\/chat\/sessions, GET \/api\/chat\/messages\.$/,
        );
        for (const [path, status] of [
          ['/api/chat//', 400],
          ['/api/chat/.', 400],
          ['/api/chat/%2e', 400],
          ['/api/chatX', 404],
          ['/api/chat/..', 400],
        ] as const) {
          const response = await rawRequest(custom.port, { path });
          assert.equal(response.status, status, path);
          assert.doesNotMatch(response.json.error, /signing handler/, path);
        }
        assert.equal(upstream.requests.length, 0);
      } finally {
        await custom.close();
      }
    });
  });
});
