// Table-driven attack tests: every route against every attack a hostile browser can make, through real HTTP
// with raw request targets. Each case asserts the handler's answer AND what the recording
// upstream received (nothing at all, or only what it should).
import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { API_SECRET, CHATBOT_ID, type RecordedRequest } from './helpers/recording-upstream.js';
import { newVisitor, rawRequest, type RawRequest } from './helpers/handler-server.js';
import { ROOMY_SEND_LIMITS } from './helpers/handler-options.js';
import { handlerStackForFile } from './helpers/stack-for-file.js';
import { adminTokenAuthorizer } from '../../src/server/index.js';
import { issueVisitorToken, visitorKey } from '../../src/server/identity/visitor-token.js';
import { grant } from './helpers/token-grant.js';
import { toBase64Url } from '../../src/shared/signature.js';

const ADMIN_TOKEN = 'admin-token-0123456789abcdef';
const VICTIM = 'v_victim0000000000000000';

interface RouteCase {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Needs the caller's identity (every visitor route but /visitor). */
  identity: boolean;
  admin: boolean;
}

const ROUTES: RouteCase[] = [
  { name: 'POST /visitor', method: 'POST', path: '/chatbot/visitor', body: '{}', identity: false, admin: false },
  { name: 'POST /message', method: 'POST', path: '/chatbot/message', body: '{"content":"hello"}', identity: true, admin: false },
  { name: 'GET /sessions', method: 'GET', path: '/chatbot/sessions', identity: true, admin: false },
  { name: 'GET /messages', method: 'GET', path: '/chatbot/messages', identity: true, admin: false },
  { name: 'GET /messages/{id}', method: 'GET', path: '/chatbot/messages/MESSAGE_ID', identity: true, admin: false },
  { name: 'GET /admin/users', method: 'GET', path: '/chatbot/admin/users', identity: false, admin: true },
  { name: 'GET /admin/sessions', method: 'GET', path: '/chatbot/admin/sessions', identity: false, admin: true },
  { name: 'GET /admin/messages', method: 'GET', path: '/chatbot/admin/messages', identity: false, admin: true },
  { name: 'GET /admin/messages/{id}', method: 'GET', path: '/chatbot/admin/messages/MESSAGE_ID', identity: false, admin: true },
  {
    name: 'GET /admin/messages/count',
    method: 'GET',
    path: '/chatbot/admin/messages/count?from=2026-01-01&to=2026-02-01',
    identity: false,
    admin: true,
  },
  {
    name: 'GET /admin/messages/count-by-month',
    method: 'GET',
    path: '/chatbot/admin/messages/count-by-month?from=2026-01-01&to=2026-02-01',
    identity: false,
    admin: true,
  },
];

/** Ways to hide a path change in a request target, each applied to every route. */
const PATH_ATTACKS: Array<[string, (path: string) => string]> = [
  ['a trailing ..', (p) => `${p}/..`],
  ['.. into admin', (p) => `${p}/../admin/users`],
  ['.. from the base path', (p) => p.replace('/chatbot/', '/chatbot/../chatbot/')],
  ['a single dot segment', (p) => p.replace('/chatbot/', '/chatbot/./')],
  ['%2e%2e', (p) => `${p}/%2e%2e/admin/users`],
  ['.%2e', (p) => `${p}/.%2e/x`],
  ['%2E%2E upper case', (p) => `${p}/%2E%2E`],
  ['%2f inside a segment', (p) => `${p}%2f..%2fadmin%2fusers`],
  ['%5c backslash', (p) => `${p}%5c..%5cadmin`],
  ['a raw backslash', (p) => `${p}\\..\\admin`],
  ['double encoding %252e%252e%252f', (p) => `${p}/%252e%252e%252fusers`],
  ['double encoding %252f', (p) => `${p}%252fx`],
  ['a NUL byte %00', (p) => `${p}%00`],
  ['an empty segment //', (p) => p.replace('/chatbot/', '/chatbot//')],
  ['a matrix parameter ;', (p) => `${p};userId=${VICTIM}`],
  ['overlong UTF-8 %c0%ae', (p) => `${p}/%c0%ae%c0%ae/admin`],
];

const FORBIDDEN_UPSTREAM_HEADERS = [
  'cookie',
  'authorization',
  'x-forwarded-for',
  'x-real-ip',
  'origin',
  'referer',
  'x-admin-token',
  'x-evil',
  'sec-fetch-site',
  'forwarded',
];

function withPathOnly(path: string): string {
  return path.split('?')[0]!;
}

const { upstream, handler } = await handlerStackForFile({
  authorizeAdmin: adminTokenAuthorizer(ADMIN_TOKEN),
  limits: { ...ROOMY_SEND_LIMITS, visitorsPerMinutePerAddress: 10_000 },
});
const { token, userId } = await newVisitor(handler.port);

describe('attacks against every route', () => {
  let ownMessageId: string;

  beforeEach(() => {
    ownMessageId = upstream.seed({ chatUserId: userId, text: 'mine' }).id;
    upstream.requests.length = 0;
  });

  /** A request for `route` with valid credentials, so only the attack can make it fail. */
  function legit(route: RouteCase, extra: Partial<RawRequest> = {}): RawRequest {
    return {
      method: route.method,
      path: route.path.replace('MESSAGE_ID', ownMessageId),
      headers: {
        ...(route.method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
        ...(route.identity ? { Authorization: `Bearer ${token}` } : {}),
        ...(route.admin ? { 'X-Admin-Token': ADMIN_TOKEN } : {}),
        ...extra.headers,
      },
      ...(route.body !== undefined ? { body: route.body } : {}),
      ...extra,
      ...(extra.headers
        ? {
            headers: {
              ...(route.method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
              ...(route.identity ? { Authorization: `Bearer ${token}` } : {}),
              ...(route.admin ? { 'X-Admin-Token': ADMIN_TOKEN } : {}),
              ...extra.headers,
            },
          }
        : {}),
    };
  }

  function assertRefused(
    response: { status: number; headers: Record<string, unknown>; json: any; text: string },
    status: number | [number, number],
  ) {
    if (Array.isArray(status))
      assert.ok(response.status >= status[0] && response.status <= status[1], `status ${response.status}: ${response.text}`);
    else assert.equal(response.status, status, response.text);
    assert.equal(response.headers['cache-control'], 'no-store');
    assert.equal(response.json?.data, null, 'an error envelope');
    assert.equal(typeof response.json?.error, 'string');
    assert.doesNotMatch(response.text, new RegExp(API_SECRET));
    assert.equal(upstream.requests.length, 0, `nothing reaches upstream, got ${upstream.requests.map((r) => r.target).join(', ')}`);
  }

  for (const route of ROUTES) {
    describe(route.name, () => {
      it('the legitimate request works (baseline for the attacks below)', async () => {
        const response = await rawRequest(handler.port, legit(route));
        assert.equal(response.status, 200, response.text);
        assert.equal(upstream.requests.length, route.name === 'POST /visitor' ? 0 : 1);
      });

      for (const [attack, mutate] of PATH_ATTACKS) {
        it(`path attack: ${attack} → 4xx, nothing upstream`, async () => {
          const [path, query] = route.path.replace('MESSAGE_ID', ownMessageId).split('?');
          const target = mutate(path!) + (query ? `?${query}` : '');
          const response = await rawRequest(handler.port, { ...legit(route), path: target });
          assertRefused(response, [400, 499]);
        });
      }

      // DELETE is a route of its own on /visitor (revocation).
      for (const method of [
        'PUT',
        ...(route.name === 'POST /visitor' ? [] : ['DELETE']),
        'PATCH',
        route.method === 'GET' ? 'POST' : 'GET',
      ]) {
        it(`wrong method ${method} → 405, nothing upstream`, async () => {
          const response = await rawRequest(handler.port, { ...legit(route), method, body: method === 'GET' ? undefined : '{}' });
          assertRefused(response, 405);
          assert.match(String(response.headers.allow), new RegExp(route.method));
        });
      }

      const crossSite: Array<[string, Record<string, string>]> = [
        ['a foreign Origin', { Origin: 'https://evil.example' }],
        ['Origin: null', { Origin: 'null' }],
        ['Sec-Fetch-Site: cross-site without Origin', { 'Sec-Fetch-Site': 'cross-site' }],
        ['Sec-Fetch-Site: same-site from a sibling subdomain', { 'Sec-Fetch-Site': 'same-site', Origin: 'https://evil.127.0.0.1.nip.io' }],
        ["an Origin that only starts like the handler's", { Origin: 'http://127.0.0.1.evil.example' }],
      ];
      for (const [attack, headers] of crossSite) {
        it(`cross-site: ${attack} → 403, nothing upstream, no CORS grant`, async () => {
          const response = await rawRequest(handler.port, legit(route, { headers }));
          assertRefused(response, 403);
          assert.equal(response.headers['access-control-allow-origin'], undefined);
        });
      }

      if (route.identity) {
        const forgeries: Array<[string, () => Promise<string | undefined>]> = [
          ['no token', async () => undefined],
          ['a garbage token', async () => 'not-a-token'],
          ['a token with its signature changed', async () => `${token.slice(0, -3)}${token.endsWith('AAA') ? 'BBB' : 'AAA'}`],
          [
            'a token whose payload names another user',
            async () => {
              const [version, , signature] = token.split('.');
              const payload = toBase64Url(new TextEncoder().encode(JSON.stringify({ sub: VICTIM, iat: 1, exp: 4_000_000_000 })));
              return `${version}.${payload}.${signature}`;
            },
          ],
          [
            'a token signed with another key',
            async () =>
              (await issueVisitorToken('another-key-another-key-another-key', grant(VICTIM, Math.floor(Date.now() / 1000), 3600))).token,
          ],
          [
            'a token signed with the API secret itself',
            async () => (await issueVisitorToken(API_SECRET, grant(VICTIM, Math.floor(Date.now() / 1000), 3600))).token,
          ],
          [
            'an expired token',
            async () =>
              (await issueVisitorToken(await visitorKey(API_SECRET), grant(VICTIM, Math.floor(Date.now() / 1000) - 7200, 3600))).token,
          ],
          ['a token with an empty signature', async () => `${token.split('.').slice(0, 2).join('.')}.`],
        ];
        for (const [attack, makeToken] of forgeries) {
          it(`identity: ${attack} → 401, nothing upstream`, async () => {
            const forged = await makeToken();
            const request = legit(route);
            const headers = { ...request.headers };
            delete headers.Authorization;
            if (forged !== undefined) headers.Authorization = `Bearer ${forged}`;
            const response = await rawRequest(handler.port, { ...request, headers });
            assertRefused(response, 401);
          });
        }

        it('the browser cannot choose the upstream user id (query and body)', async () => {
          const request = legit(route);
          const query = `userId=${VICTIM}&user=${VICTIM}&chatUserId=${VICTIM}&user.id=${VICTIM}`;
          const path = request.path.includes('?') ? `${request.path}&${query}` : `${request.path}?${query}`;
          const body =
            route.method === 'POST'
              ? JSON.stringify({ content: 'hi', userId: VICTIM, user: { id: VICTIM, name: 'x' }, chatUserId: VICTIM })
              : undefined;
          const response = await rawRequest(handler.port, { ...request, path, ...(body ? { body } : {}) });
          assert.equal(response.status, 200, response.text);
          const [call] = upstream.requests as [RecordedRequest];
          assert.doesNotMatch(call.target + call.body, new RegExp(VICTIM));
          if (route.name === 'POST /message') assert.equal(JSON.parse(call.body).user.id, userId);
          if (route.name === 'GET /messages' || route.name === 'GET /sessions') assert.deepEqual(call.query.getAll('userId'), [userId]);
        });
      }

      if (route.admin) {
        for (const [attack, headers] of [
          ['no admin token', {}],
          ['a wrong admin token', { 'X-Admin-Token': 'admin-token-0123456789abcdeX' }],
          ['a prefix of the admin token', { 'X-Admin-Token': ADMIN_TOKEN.slice(0, 10) }],
          ['a visitor token instead', { Authorization: 'Bearer VISITOR' }],
        ] as Array<[string, Record<string, string>]>) {
          it(`admin: ${attack} → 403, nothing upstream`, async () => {
            const response = await rawRequest(handler.port, {
              method: 'GET',
              path: route.path.replace('MESSAGE_ID', ownMessageId),
              headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, v.replace('VISITOR', token)])),
            });
            assertRefused(response, 403);
          });
        }
      }

      if (route.method === 'POST') {
        const bodies: Array<[string, RawRequest['headers'], string | Buffer, number, number | undefined]> = [
          ['text/plain (a form-like simple request)', { 'Content-Type': 'text/plain' }, route.body!, 415, undefined],
          ['application/x-www-form-urlencoded', { 'Content-Type': 'application/x-www-form-urlencoded' }, 'content=hi', 415, undefined],
          ['multipart/form-data', { 'Content-Type': 'multipart/form-data; boundary=x' }, '--x--', 415, undefined],
          ['no Content-Type', {}, route.body!, 415, undefined],
          [
            'a body over 16 KiB, chunked (no Content-Length)',
            { 'Content-Type': 'application/json' },
            `{"content":"${'a'.repeat(20_000)}"}`,
            413,
            1024,
          ],
          [
            'a body over 16 KiB with its Content-Length',
            { 'Content-Type': 'application/json' },
            `{"content":"${'a'.repeat(20_000)}"}`,
            413,
            undefined,
          ],
          ['a body that is not JSON', { 'Content-Type': 'application/json' }, '{"content":', 400, undefined],
          ['a JSON array', { 'Content-Type': 'application/json' }, '["hi"]', 400, undefined],
          ['invalid UTF-8', { 'Content-Type': 'application/json' }, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]), 400, undefined],
        ];
        for (const [attack, headers, body, status, chunkSize] of bodies) {
          it(`body: ${attack} → ${status}, nothing upstream`, async () => {
            const request = legit(route);
            const base = { ...request.headers };
            delete base['Content-Type'];
            const response = await rawRequest(handler.port, {
              ...request,
              headers: { ...base, ...headers },
              body,
              ...(chunkSize ? { chunkSize } : {}),
            });
            assertRefused(response, status);
          });
        }
      }

      if (route.name !== 'POST /visitor') {
        it('only Content-Type and the three signing headers are forwarded: no cookies, Authorization or client headers', async () => {
          const response = await rawRequest(
            handler.port,
            legit(route, {
              headers: {
                Cookie: 'session=host-app-session',
                'X-Forwarded-For': '10.0.0.1',
                'X-Real-IP': '10.0.0.1',
                Forwarded: 'for=10.0.0.1',
                Referer: 'http://127.0.0.1/page',
                'X-Evil': 'yes',
                'Sec-Fetch-Site': 'same-origin',
              },
            }),
          );
          assert.equal(response.status, 200, response.text);
          const [call] = upstream.requests as [RecordedRequest];
          for (const name of FORBIDDEN_UPSTREAM_HEADERS) assert.equal(call.headers[name], undefined, `${name} must not reach upstream`);
          assert.equal(call.headers['content-type'], 'application/json');
          assert.ok(call.headers['x-api-key'] && call.headers['x-signature'] && call.headers['x-timestamp']);
          assert.ok(call.signatureValid);
          assert.match(call.target, new RegExp(`^/api/Dev/${CHATBOT_ID}/`));
        });
      }
    });
  }

  describe('ids in paths', () => {
    const badIds = ['count', 'count-by-month', 'a'.repeat(129), 'a.b', 'a b', '%61bc', 'abc%2F..'];
    for (const id of badIds) {
      for (const base of ['/chatbot/messages/', '/chatbot/admin/messages/']) {
        it(`${base}${id.length > 20 ? `${id.slice(0, 10)}…(${id.length})` : id} → 4xx, nothing upstream`, async () => {
          const admin = base.includes('admin');
          const response = await rawRequest(handler.port, {
            path: base + id.replace(' ', '%20'),
            headers: admin ? { 'X-Admin-Token': ADMIN_TOKEN } : { Authorization: `Bearer ${token}` },
          });
          // `/admin/messages/count` is its own admin route (it then needs its from/to).
          if (admin && (id === 'count' || id === 'count-by-month')) {
            assert.equal(upstream.requests.length, 1);
            assert.equal(withPathOnly(upstream.requests[0]!.target), `/api/Dev/${CHATBOT_ID}/messages/${id}`);
            return;
          }
          assertRefused(response, [400, 499]);
        });
      }
    }
  });

  describe('query values', () => {
    it('are re-encoded from their decoded value, never copied as raw text', async () => {
      const response = await rawRequest(handler.port, {
        path: '/chatbot/messages?sessionId=a%26userId%3Dv_victim%23x&page=1',
        headers: { Authorization: `Bearer ${token}` },
      });
      assert.equal(response.status, 200);
      assert.equal(
        upstream.requests[0]!.target,
        `/api/Dev/${CHATBOT_ID}/messages?sessionId=a%26userId%3Dv_victim%23x&userId=${userId}&page=1`,
      );
    });

    for (const [query, why] of [
      ['page=0', 'page below 1'],
      ['pageSize=101', 'pageSize above 100'],
      ['page=1e3', 'not a whole number'],
      ['page=1&page=2', 'a parameter given twice'],
      ['sessionId=a&sessionId=b', 'sessionId given twice'],
      ['sessionId=%0d%0aX-Injected:1', 'control characters'],
    ]) {
      it(`${why} (${query}) → 400, nothing upstream`, async () => {
        const response = await rawRequest(handler.port, {
          path: `/chatbot/messages?${query}`,
          headers: { Authorization: `Bearer ${token}` },
        });
        assertRefused(response, 400);
      });
    }
  });
});
