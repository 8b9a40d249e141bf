// The README's deployment snippets for Cloudflare Workers, Next.js route handlers and Deno
// (test/server/runtime/*.ts hold them verbatim), run against the recording upstream. Node
// provides the same Request/Response/fetch/Web Crypto those runtimes do, and each entry point is
// called the way its runtime calls it. (Bun and Deno also run the handler for real, in
// edge-runtimes.test.ts; workerd is not installed here.)
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startRecordingUpstream, API_KEY, API_SECRET, CHATBOT_ID, type RecordingUpstream } from './helpers/recording-upstream.js';

describe('deployment one-liners', () => {
  let upstream: RecordingUpstream;
  let env: Record<string, string>;

  before(async () => {
    upstream = await startRecordingUpstream();
    env = { CHATBOT_API_BASE_URL: upstream.baseUrl, CHATBOT_API_KEY: API_KEY, CHATBOT_API_SECRET: API_SECRET, CHATBOT_ID };
  });
  after(() => upstream.close());
  beforeEach(() => upstream.reset());

  /** Visitor, send, list through any `(request) => Promise<Response>` entry. */
  async function conversation(call: (request: Request) => Promise<Response>, origin: string) {
    const visitor = await call(
      new Request(`${origin}/chatbot/visitor`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' }),
    );
    assert.equal(visitor.status, 200);
    const { token, userId } = ((await visitor.json()) as { data: { token: string; userId: string } }).data;
    const sent = await call(
      new Request(`${origin}/chatbot/message`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
        body: '{"content":"hi"}',
      }),
    );
    assert.equal(sent.status, 200);
    const list = await call(new Request(`${origin}/chatbot/messages`, { headers: { Authorization: `Bearer ${token}` } }));
    assert.equal(list.status, 200);
    const { data } = (await list.json()) as { data: Array<{ chatUserId: string }> };
    assert.equal(data.length, 2);
    assert.ok(upstream.requests.every((r) => r.signatureValid));
    assert.equal(JSON.parse(upstream.requests[0]!.body).user.id, userId);
  }

  it('Cloudflare Workers: export default { fetch(request, env) }, client address from CF-Connecting-IP', async () => {
    const worker = (await import('./runtime/workers-entry.js')).default;
    await conversation((request) => worker.fetch(request, env as never), 'https://site.example');
    // 30 new visitors a minute per address: 61 from one CF-Connecting-IP put 31 into one minute even across a
    // minute boundary, so some are refused; another address is not.
    const newVisitor = (ip: string) =>
      worker.fetch(
        new Request('https://site.example/chatbot/visitor', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': ip },
        }),
        env as never,
      );
    const statuses = [];
    for (let i = 0; i < 61; i++) statuses.push((await newVisitor('203.0.113.9')).status);
    assert.equal(statuses.filter((s) => s === 429).length >= 1, true);
    assert.equal((await newVisitor('203.0.113.10')).status, 200);
  });

  it('Next.js route handlers: GET, POST and OPTIONS exports', async () => {
    Object.assign(process.env, env);
    const route = await import('./runtime/next-route.js');
    await conversation((request) => (request.method === 'GET' ? route.GET(request) : route.POST(request)), 'http://localhost:3000');
    const preflight = await route.OPTIONS(
      new Request('http://localhost:3000/chatbot/message', { method: 'OPTIONS', headers: { Origin: 'https://evil.example' } }),
    );
    assert.equal(preflight.status, 403);
  });

  it('Deno: Deno.serve((request, info) => handler(request, { clientAddress: info.remoteAddr.hostname }))', async () => {
    let served: ((request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>) | undefined;
    (globalThis as { Deno?: unknown }).Deno = { env: { get: (name: string) => env[name] }, serve: (fn: typeof served) => (served = fn) };
    try {
      await import('./runtime/deno-main.js');
      assert.ok(served, 'the entry called Deno.serve');
      await conversation((request) => served!(request, { remoteAddr: { hostname: '192.0.2.44' } }), 'http://localhost:8000');
    } finally {
      delete (globalThis as { Deno?: unknown }).Deno;
    }
  });
});
