// The signing handler against requests crafted to get past it: per-address limits that ports,
// IPv6 and text that is no address cannot dodge, visitor tokens bound to their chatbot, the Node
// bridge's bodies, sockets and headers, and table-driven checks of the rest of its attack
// surface. Real HTTP on loopback where the Node bridge is under test, in-process Web Requests
// where only the core is.
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect } from 'node:net';
import express from 'express';
import { CHATBOT_ID } from './helpers/recording-upstream.js';
import { jsonHeaders, listen, newVisitor, rawRequest, startHandler, type RunningHandler } from './helpers/handler-server.js';
import { handlerOptions, logLinesInto } from './helpers/handler-options.js';
import { recordingUpstreamForFile } from './helpers/stack-for-file.js';
import { createSigningHandler, type SigningHandlerOptions } from '../../src/server/index.js';
import { createExpressHandler, toExpress } from '../../src/server/adapters/express.js';
import { addressBucket } from '../../src/server/identity/address-bucket.js';

const SHARED_TOKEN_SECRET = 'a-visitor-token-secret-shared-by-two-handlers';
const upstream = await recordingUpstreamForFile();

describe('signing handler: requests crafted to get past it', () => {
  let clock: number;
  const logs: string[] = [];
  beforeEach(() => {
    logs.length = 0;
    clock = Date.now();
  });

  const options = (extra: Partial<SigningHandlerOptions> = {}): SigningHandlerOptions =>
    handlerOptions(upstream, { now: () => clock, logger: logLinesInto(logs), ...extra });
  const post = (path: string, headers: Record<string, string> = {}, body: BodyInit | null = '{}') =>
    new Request(`http://localhost/chatbot${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
      duplex: 'half',
    } as RequestInit);
  const get = (path: string, headers: Record<string, string> = {}) => new Request(`http://localhost/chatbot${path}`, { headers });
  const data = async (response: Response) => ((await response.json()) as { data: any }).data;

  // Finding: the per-address limit counted every IPv6 address alone. A host is routinely given a
  // whole /64, so one client could open unlimited identities (and with them unlimited sends).
  describe('per-address limit and IPv6', () => {
    const buckets: Array<[string, string]> = [
      ['192.0.2.1', '192.0.2.1'],
      ['::ffff:192.0.2.1', '192.0.2.1'],
      ['::FFFF:c000:0201', '192.0.2.1'],
      ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
      ['2001:0db8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
      ['2001:db8:1:2:0:0:0:9', '2001:db8:1:2::/64'],
      ['[2001:db8:1:2::7]', '2001:db8:1:2::/64'],
      ['fe80::1%eth0', 'fe80:0:0:0::/64'],
      ['::1', '0:0:0:0::/64'],
      ['2001:db8::', '2001:db8:0:0::/64'],
      ['64:ff9b::192.0.2.1', '64:ff9b:0:0::/64'],
      ['203.0.113.7:50123', '203.0.113.7'],
      [' 203.0.113.7 ', '203.0.113.7'],
      ['[2001:db8::1]:443', '2001:db8:0:0::/64'],
      ['[2001:DB8:1:2::1]:8080', '2001:db8:1:2::/64'],
      ['2001:DB8:1:2::ABCD', '2001:db8:1:2::/64'],
      ['[::ffff:203.0.113.7]:443', '203.0.113.7'],
      ['::FFFF:203.0.113.7', '203.0.113.7'],
    ];
    const noAddress = ['not-an-address', '1:2:3', '1::2::3', '203.0.113.7:99999', '256.0.0.1', '203.0.113', '[2001:db8::1]:http', ''];
    for (const [address, bucket] of buckets) {
      it(`${address} counts in ${bucket}`, () => assert.equal(addressBucket(address), bucket));
    }
    for (const text of noAddress)
      it(`${JSON.stringify(text)} is no address: no bucket of its own`, () => assert.equal(addressBucket(text), undefined));

    it('new visitors from one IPv6 /64 share one limit; another /64 has its own', async () => {
      const handler = createSigningHandler(options({ limits: { visitorsPerMinutePerAddress: 2 } }));
      const from = async (clientAddress: string) => (await handler(post('/visitor'), { clientAddress })).status;
      assert.equal(await from('2001:db8:1:2::1'), 200);
      assert.equal(await from('2001:db8:1:2::2'), 200);
      assert.equal(await from('2001:db8:1:2:ffff::3'), 429, 'a third address of the same /64 is the same client');
      assert.equal(await from('2001:db8:1:3::1'), 200, 'the next /64 is another client');
    });

    it('an address given with a port counts as the address without it, IPv4 and bracketed IPv6', async () => {
      const handler = createSigningHandler(options({ limits: { visitorsPerMinutePerAddress: 1 } }));
      const from = async (clientAddress: string) => (await handler(post('/visitor'), { clientAddress })).status;
      assert.equal(await from('203.0.113.7:50123'), 200);
      assert.equal(await from('203.0.113.7:50124'), 429, 'another port of the same address');
      assert.equal(await from('203.0.113.7'), 429);
      assert.equal(await from('[2001:DB8:5::1]:443'), 200);
      assert.equal(await from('[2001:db8:5::2]:8443'), 429, 'another port, another address of the same /64');
      assert.equal(await from('2001:db8:5::3'), 429);
      assert.equal(await from('[::ffff:203.0.113.8]:443'), 200);
      assert.equal(await from('203.0.113.8:1'), 429, 'an IPv4-mapped address with a port is the IPv4 address');
    });

    it('text that is no address shares one bucket, and the owner is told once without it being quoted', async () => {
      const handler = createSigningHandler(options({ limits: { visitorsPerMinutePerAddress: 2 } }));
      const from = async (clientAddress: string) => (await handler(post('/visitor'), { clientAddress })).status;
      assert.equal(await from('proxy-said-this\nforged log line'), 200);
      assert.equal(await from('unknown'), 200);
      for (let i = 0; i < 5; i++) assert.equal(await from(`garbage-${i}`), 429, 'no bucket per distinct text');
      assert.equal(await from('198.51.100.40'), 200, 'real addresses keep their own');
      assert.equal(logs.length, 1, logs.join('\n'));
      assert.match(logs[0]!, /not an IP address/);
      assert.doesNotMatch(logs[0]!, /garbage|forged|proxy-said/);
    });

    it('an IPv4 peer seen through a dual-stack socket counts like the IPv4 address', async () => {
      const handler = createSigningHandler(options({ limits: { visitorsPerMinutePerAddress: 1 } }));
      assert.equal((await handler(post('/visitor'), { clientAddress: '192.0.2.9' })).status, 200);
      assert.equal((await handler(post('/visitor'), { clientAddress: '::ffff:192.0.2.9' })).status, 429);
      assert.equal(
        (await handler(post('/visitor'), { clientAddress: '::ffff:192.0.2.10' })).status,
        200,
        'not one bucket for every IPv4 peer',
      );
    });
  });

  // Finding: tokens named no chatbot, so two handlers sharing a visitorTokenSecret (or an API
  // secret) accepted each other's tokens.
  describe('visitor tokens are bound to their chatbot', () => {
    const cases: Array<[string, Partial<SigningHandlerOptions>]> = [
      ['a shared visitorTokenSecret', { visitorTokenSecret: SHARED_TOKEN_SECRET }],
      ['a shared API secret (derived key)', {}],
    ];
    for (const [how, shared] of cases) {
      it(`with ${how}, another chatbot's token is refused (401) and /visitor issues a new identity`, async () => {
        const botA = createSigningHandler(options({ ...shared, chatbotId: 'bot_a' }));
        const botB = createSigningHandler(options({ ...shared, chatbotId: CHATBOT_ID }));
        const issued = await data(await botA(post('/visitor')));
        const auth = { Authorization: `Bearer ${issued.token}` };
        assert.equal((await botB(get('/sessions', auth))).status, 401);
        assert.equal((await botB(post('/message', auth, '{"content":"hi"}'))).status, 401);
        assert.notEqual((await data(await botB(post('/visitor', auth)))).userId, issued.userId);
        assert.equal(upstream.requests.length, 0, 'nothing reached upstream');
        const own = await data(await botB(post('/visitor')));
        assert.equal((await botB(get('/sessions', { Authorization: `Bearer ${own.token}` }))).status, 200, 'its own tokens still work');
      });
    }
  });

  // Finding: a lone surrogate in identify()'s userId cannot be percent-encoded; listings crashed
  // with a 500 (URIError) instead of refusing the identity.
  it('an identify() user id that is not well-formed Unicode is refused and logged, never a 500', async () => {
    for (const userId of ['u\ud800', '\udc00x', 'a\ud800\ud800']) {
      logs.length = 0;
      const handler = createSigningHandler(options({ identify: () => ({ userId }) }));
      for (const request of [get('/sessions'), get('/messages'), post('/message', {}, '{"content":"hi"}')]) {
        const response = await handler(request);
        assert.equal(response.status, 401, `${request.method} ${request.url}`);
      }
      assert.ok(
        logs.some((line) => /identify\(\)/.test(line)),
        logs.join('\n'),
      );
      assert.ok(!logs.some((line) => /unexpected/.test(line)), logs.join('\n'));
    }
    assert.equal(upstream.requests.length, 0);
    // A well-formed astral character (a surrogate pair) is fine.
    const handler = createSigningHandler(options({ identify: () => ({ userId: 'user-😀' }) }));
    assert.equal((await handler(get('/sessions'))).status, 200);
  });

  // Finding: a body stream that fails while being read (the visitor's connection dropped) was
  // logged as an unexpected error and answered 500; any client could fill the owner's log.
  it('a request body that breaks off while being read is a 400, not an unexpected error', async () => {
    const handler = createSigningHandler(options());
    const token = (await data(await handler(post('/visitor')))).token as string;
    const broken = () =>
      new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"content":'));
          controller.error(new Error('aborted'));
        },
      });
    for (const path of ['/message', '/visitor']) {
      const response = await handler(post(path, { Authorization: `Bearer ${token}` }, broken()));
      assert.equal(response.status, 400, path);
      assert.equal(((await response.json()) as { data: unknown }).data, null);
    }
    assert.deepEqual(logs, []);
    assert.equal(upstream.requests.length, 0);
  });

  describe('the Node bridge', () => {
    let handler: RunningHandler;
    let token: string;
    before(async () => {
      handler = await startHandler(upstream, { limits: { visitorsPerMinutePerAddress: 1000 } });
      ({ token } = await newVisitor(handler.port));
    });
    after(() => handler.close());
    beforeEach(() => {
      handler.logs.length = 0;
    });

    // Finding: absolute-form targets were parsed with URL, which resolves `..`, `%2e%2e` and `\`,
    // so they were resolved instead of refused like in an origin-form target.
    // 400 for a bad segment, 404 when the trick hides the base path itself (`/chatbot\\…`).
    const absolute: Array<[string, string, number]> = [
      ['..', '/chatbot/visitor/../sessions', 400],
      ['%2e%2e', '/chatbot/messages/%2e%2e/sessions', 400],
      ['.%2E', '/chatbot/messages/.%2E/sessions', 400],
      ['a single dot', '/chatbot/./sessions', 400],
      ['a backslash', '/chatbot\\sessions', 404],
      ['.. out of the base path into admin', '/chatbot/sessions/../admin/users', 400],
    ];
    for (const [trick, path, status] of absolute) {
      it(`an absolute-form target with ${trick} is refused with ${status}, not resolved`, async () => {
        const response = await rawRequest(handler.port, { path: `http://127.0.0.1:${handler.port}${path}`, headers: jsonHeaders(token) });
        assert.equal(response.status, status, response.text);
        assert.equal(upstream.requests.length, 0);
      });
    }

    it('a plain absolute-form target still works, query and all', async () => {
      const response = await rawRequest(handler.port, {
        path: `http://127.0.0.1:${handler.port}/chatbot/sessions?page=2`,
        headers: jsonHeaders(token),
      });
      assert.equal(response.status, 200, response.text);
      assert.equal(upstream.requests[0]?.query.get('page'), '2');
    });

    it('a Host header with an impossible port still reaches the route', async () => {
      const response = await rawRequest(handler.port, {
        path: '/chatbot/sessions',
        headers: { ...jsonHeaders(token), Host: 'example.com:99999' },
      });
      assert.equal(response.status, 200, response.text);
    });

    // Finding: TRACE cannot be a Web Request, so the bridge answered 500.
    for (const method of ['TRACE', 'PROPFIND', 'HEAD']) {
      it(`${method} → 405 with Allow, never a 500`, async () => {
        const response = await rawRequest(handler.port, { method, path: '/chatbot/visitor' });
        assert.equal(response.status, 405);
        assert.match(String(response.headers.allow), /POST/);
        assert.equal(response.headers['cache-control'], 'no-store');
        assert.deepEqual(handler.logs, []);
      });
    }

    // Finding: the same as the in-process body test, through a real socket.
    for (const [framing, head, partial] of [
      ['Content-Length', 'Content-Length: 1000', '{"content":'],
      ['chunked', 'Transfer-Encoding: chunked', '5\r\n{"con\r\n'],
    ] as const) {
      it(`a visitor who drops the connection mid-body (${framing}) leaves no error in the log`, async () => {
        await new Promise<void>((resolve, reject) => {
          const socket = connect(handler.port, '127.0.0.1', () => {
            socket.write(
              `POST /chatbot/message HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer ${token}\r\n${head}\r\n\r\n${partial}`,
            );
            // Let the handler start reading, then vanish.
            setTimeout(() => {
              socket.destroy();
              resolve();
            }, 100);
          });
          socket.on('error', reject);
        });
        // The handler runs on after the socket is gone; give it the same turn of the loop.
        for (let i = 0; i < 20 && handler.logs.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
        assert.deepEqual(handler.logs, []);
        assert.equal(upstream.requests.length, 0);
      });
    }
  });

  // Finding: when middleware before the handler had read the body without setting req.body,
  // the bridge waited for an `end` that had already happened: the request hung forever.
  it('Express: a body another middleware already read answers at once instead of hanging', async () => {
    const app = express();
    app.use((req, _res, next) => {
      req.on('data', () => undefined);
      req.on('end', () => next());
    });
    app.use('/chatbot', toExpress(createSigningHandler(options({ now: Date.now }))));
    const server = await listen(createServer(app));
    try {
      // Bounded waits: each of these requests must get an answer, never hang.
      const post = (path: string, headers: Record<string, string>, body: string) =>
        fetch(`${server.origin}/chatbot${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...headers },
          body,
          signal: AbortSignal.timeout(5000),
        });
      assert.equal((await post('/message', { Authorization: 'Bearer x' }, '{"content":"hi"}')).status, 401);
      const visitor = await post('/visitor', {}, '{}');
      assert.equal(visitor.status, 200, 'an empty body is an empty /visitor request');
    } finally {
      await server.close();
    }
  });

  // Follow-up of the absolute-form finding: Express passes the target on as req.originalUrl.
  it('Express: absolute-form targets are routed by their path and refused with dot segments', async () => {
    for (const mount of ['by path', 'createExpressHandler'] as const) {
      const app = express();
      if (mount === 'by path') app.use('/chatbot', toExpress(createSigningHandler(options({ now: Date.now }))));
      else app.use(createExpressHandler(options({ now: Date.now })));
      const server = await listen(createServer(app));
      try {
        const { token } = await newVisitor(server.port);
        const at = (path: string) =>
          rawRequest(server.port, { path: `http://127.0.0.1:${server.port}${path}`, headers: jsonHeaders(token) });
        assert.equal((await at('/chatbot/sessions')).status, 200, mount);
        upstream.requests.length = 0;
        assert.equal((await at('/chatbot/x/../sessions')).status, 400, mount);
        assert.equal(upstream.requests.length, 0);
      } finally {
        await server.close();
      }
    }
  });

  describe('the rest of the attack surface, by table', () => {
    let handler: ReturnType<typeof createSigningHandler>;
    let token: string;
    let userId: string;
    beforeEach(async () => {
      handler = createSigningHandler(options({ allowedOrigins: ['https://shop.example.com'] }));
      ({ token, userId } = await data(await handler(post('/visitor'))));
    });
    const auth = () => ({ Authorization: `Bearer ${token}` });

    const paths: Array<[string, string, number]> = [
      ['upper-case base path', '/CHATBOT/messages', 404],
      ['upper-case route', '/chatbot/Messages', 404],
      ['a base path with a suffix', '/chatbotX/messages', 404],
      ['the base path alone', '/chatbot', 404],
      ['a trailing slash', '/chatbot/messages/', 400],
      ['a trailing dot', '/chatbot/messages.', 400],
      ['a fullwidth solidus, percent-encoded', '/chatbot/messages%EF%BC%8Fcount', 400],
      ['an encoded slash in an id', '/chatbot/messages/a%2Fb', 400],
      ['a route under another route', '/chatbot/sessions/messages', 404],
      ['an admin route without admin rights', '/chatbot/admin/users', 403],
    ];
    for (const [what, path, status] of paths) {
      it(`path: ${what} → ${status}, nothing upstream`, async () => {
        const response = await handler(new Request(`http://localhost${path}`, { headers: auth() }));
        assert.equal(response.status, status);
        assert.equal(upstream.requests.length, 0);
      });
    }

    // A userId or an unknown parameter is dropped (the caller's own list); a page or pageSize
    // that is not a number is refused.
    const queries: Array<[string, string, number]> = [
      ['userId twice', 'userId=v_a&userId=v_b', 200],
      ['userId with another case', 'UserID=v_victim', 200],
      ['page smuggling a userId through an encoded &', 'page=1%26userId%3Dv_victim', 400],
      ['pageSize smuggling a parameter', 'pageSize=20%26sessionId%3Dx', 400],
      ['sessionId as an array', 'sessionId[]=a&sessionId[]=b', 200],
    ];
    for (const [what, query, status] of queries) {
      it(`query: ${what} → ${status}, never reaching upstream as another user's filter`, async () => {
        const response = await handler(get(`/messages?${query}`, auth()));
        assert.equal(response.status, status);
        for (const call of upstream.requests) {
          assert.deepEqual(call.query.getAll('userId'), [userId]);
          // The caller's own random id may itself begin with v_a or v_b: look at what is left without it.
          assert.doesNotMatch(call.target.replace(`userId=${userId}`, ''), /victim|v_a|v_b/);
        }
      });
    }

    // Whatever shape upstream gives a single message, only the caller's own record gets through.
    // An envelope whose data is not the caller's own record is "not found" (404); an answer that is
    // not an envelope at all is upstream's fault (502).
    const shapes: Array<[string, (own: Record<string, unknown>) => { status: number; body: unknown }, 404 | 502]> = [
      [
        "another user's message",
        (own) => ({ status: 200, body: { data: { ...own, chatUserId: 'v_someone_else_000000000' }, error: null } }),
        404,
      ],
      ["a list holding the caller's message", (own) => ({ status: 200, body: { data: [own], error: null } }), 404],
      ['the message nested one level deeper', (own) => ({ status: 200, body: { data: { data: own }, error: null } }), 404],
      ['200 with an error and no data', () => ({ status: 200, body: { data: null, error: 'Message not found' } }), 404],
      ['a record without chatUserId', (own) => ({ status: 200, body: { data: { ...own, chatUserId: undefined }, error: null } }), 404],
      ['chatUserId of another type', () => ({ status: 200, body: { data: { chatUserId: [userId] }, error: null } }), 404],
      ["201 with the caller's message", (own) => ({ status: 201, body: { data: own, error: null } }), 404],
      ['a top-level array', (own) => ({ status: 200, body: [own] }), 502],
    ];
    for (const [shape, answer, expected] of shapes) {
      it(`GET /messages/{id}: ${shape} → ${expected}, never the record`, async () => {
        const own = {
          id: 'm1',
          chatbotId: CHATBOT_ID,
          chatSessionId: 's1',
          chatUserId: userId,
          senderType: 'User',
          text: 'secret text',
          tokenCount: 1,
          createdAt: '2026-01-01T00:00:00Z',
        };
        const { status, body } = answer(own);
        upstream.override = () => ({ status, body: JSON.stringify(body) });
        const response = await handler(get('/messages/m1', auth()));
        assert.equal(response.status, expected);
        assert.doesNotMatch(await response.text(), /secret text/);
      });
    }

    // Upstream answers are read with a cap and must be UTF-8 JSON; none of these reaches the visitor.
    const upstreamBodies: Array<[string, () => string | Buffer]> = [
      ['a body over the 4 MiB cap', () => `{"data":[${'"x",'.repeat(1_400_000)}"x"],"error":null}`],
      ['a body that is not UTF-8', () => Buffer.from([0x7b, 0x22, 0x64, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
      ['an empty body', () => ''],
      ['JSON that is not an object', () => '"just text"'],
    ];
    for (const [what, body] of upstreamBodies) {
      it(`upstream answering 200 with ${what} → 502, logged without the body`, async () => {
        upstream.override = () => ({ status: 200, body: body() as string });
        const response = await handler(get('/messages', auth()));
        assert.equal(response.status, 502);
        assert.equal(((await response.json()) as { data: unknown }).data, null);
        assert.equal(logs.length, 1, logs.join('\n'));
        assert.ok(logs[0]!.length < 300 && !logs[0]!.includes('"x"'), logs[0]);
      });
    }

    const origins: Array<[string, Record<string, string>, number, string | undefined]> = [
      ['the listed origin', { Origin: 'https://shop.example.com' }, 200, 'https://shop.example.com'],
      ['the listed origin with a trailing slash', { Origin: 'https://shop.example.com/' }, 403, undefined],
      ['the listed origin in upper case', { Origin: 'HTTPS://SHOP.EXAMPLE.COM' }, 403, undefined],
      ['a suffix of the listed origin', { Origin: 'https://shop.example.com.evil.example' }, 403, undefined],
      ['the listed origin over http', { Origin: 'http://shop.example.com' }, 403, undefined],
      ['Origin: null', { Origin: 'null' }, 403, undefined],
      ['cross-site without Origin', { 'Sec-Fetch-Site': 'cross-site' }, 403, undefined],
    ];
    for (const [what, headers, status, allowOrigin] of origins) {
      it(`CORS: ${what} → ${status}, Access-Control-Allow-Origin ${allowOrigin ?? 'absent'}, Vary: Origin`, async () => {
        const response = await handler(get('/sessions', { ...auth(), ...headers }));
        assert.equal(response.status, status);
        assert.equal(response.headers.get('Access-Control-Allow-Origin'), allowOrigin ?? null);
        assert.equal(response.headers.get('Access-Control-Allow-Credentials'), null, 'no credentials without identify');
        assert.match(response.headers.get('Vary') ?? '', /Origin/);
        const preflight = await handler(
          new Request('http://localhost/chatbot/sessions', {
            method: 'OPTIONS',
            headers: { ...headers, 'Access-Control-Request-Method': 'GET' },
          }),
        );
        assert.equal(preflight.headers.get('Access-Control-Allow-Origin'), allowOrigin ?? null);
      });
    }
  });
});
