// The calls of <chatbot-usage> (src/chatbot-usage/admin-api.ts, which needs only `fetch`)
// against the real signing handler and the real emulator over loopback HTTP: its figures are the
// routes' figures, and each way a call can fail becomes the kind and the sentence the site owner
// sees (the browser tests check the same on screen; these reach the failures a browser test
// cannot set up: upstream unreachable behind the handler, a server that is not the handler).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { adminTokenAuthorizer, createSigningHandler } from '../../src/server/index.js';
import { toNodeListener } from '../../src/server/adapters/node.js';
import { AdminApi, AdminFailure } from '../../src/chatbot-usage/admin-api.js';
import { checkRange } from '../../src/chatbot-usage/month-range.js';
import { busiestUsers } from '../../src/chatbot-usage/busiest-users.js';
import { refusedOrigin } from '../helpers/refused-port.js';

const BOT = { id: 'bot_usage', apiKey: 'pk_usage', apiSecret: 'sk_usage_secret', tier: 'premium' as const };
const TOKEN = 'usage-admin-token-0123456789';
const servers: Server[] = [];
let emulator: Emulator;
let upstream: { url: string; close(): Promise<void> };
let handlerOrigin: string;
let deadUpstreamOrigin: string;
let notAHandlerOrigin: string;

async function serve(listener: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(listener);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function handler(apiBaseUrl: string) {
  const quiet = { warn() {}, error() {} };
  return toNodeListener(
    createSigningHandler({
      apiBaseUrl,
      apiKey: BOT.apiKey,
      apiSecret: BOT.apiSecret,
      chatbotId: BOT.id,
      basePath: '/chatbot',
      authorizeAdmin: adminTokenAuthorizer(TOKEN),
      logger: quiet,
    }),
  );
}

before(async () => {
  emulator = createEmulator({ db: ':memory:', chatbots: [BOT], replySource: { name: 'none', reply: async () => 'ok' } });
  upstream = await emulator.listen({ port: 0, host: '127.0.0.1' });
  const { writeFileSync, mkdtempSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const file = join(mkdtempSync(join(tmpdir(), 'usage-seed-')), 'seed.jsonl');
  const lines = [];
  // Three users; usage-c sends most. Messages on the first instant of March and the last of April (UTC).
  const at = [Date.UTC(2025, 2, 1), Date.UTC(2025, 2, 15), Date.UTC(2025, 3, 10), Date.UTC(2025, 4, 1) - 1];
  for (const [i, user] of ['usage-a', 'usage-b', 'usage-c', 'usage-c', 'usage-c', 'usage-b'].entries()) {
    lines.push(
      JSON.stringify({
        chatbotId: BOT.id,
        chatSessionId: `s-${i}`,
        chatUserId: user,
        userName: user,
        senderType: 'User',
        text: `q${i}`,
        createdAt: new Date(at[i % 4]!).toISOString(),
      }),
    );
  }
  writeFileSync(file, lines.join('\n'));
  await emulator.importSeed(file);
  handlerOrigin = await serve(handler(upstream.url));
  deadUpstreamOrigin = await serve(handler(`${await refusedOrigin()}/api`));
  notAHandlerOrigin = await serve((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><p>a web page</p>');
  });
});

after(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
  await upstream.close();
  emulator.close();
});

const range = () => {
  const check = checkRange('2025-03-01', '2025-05-01');
  assert.ok(check.ok);
  return check.range;
};

async function failure(call: () => Promise<unknown>): Promise<AdminFailure> {
  try {
    await call();
  } catch (error) {
    assert.ok(error instanceof AdminFailure, String(error));
    return error;
  }
  assert.fail('the call succeeded');
}

test('figures through the handler: months, counts and the busiest users', async () => {
  const api = new AdminApi(`${handlerOrigin}/chatbot`, TOKEN, new AbortController().signal);
  const months = await api.countByMonth(range());
  assert.deepEqual(
    months.map((m) => [m.month, m.messageCount]),
    [
      ['2025-03', 4],
      ['2025-04', 2],
    ],
  );
  assert.equal(await api.count(range()), 6);
  assert.equal(await api.count(range(), true), 6);
  const busiest = await busiestUsers(api, range());
  assert.deepEqual(
    busiest.users.map((u) => [u.id, u.messageCount]),
    [
      ['usage-c', 3],
      ['usage-b', 2],
      ['usage-a', 1],
    ],
  );
  assert.equal(busiest.complete, true);
});

test('a wrong token: identity, 403, and how admin access is turned on', async () => {
  const api = new AdminApi(`${handlerOrigin}/chatbot`, 'not-the-token', new AbortController().signal);
  const error = await failure(() => api.countByMonth(range()));
  assert.equal(error.kind, 'identity');
  assert.equal(error.status, 403);
  assert.equal(error.route, 'admin/messages/count-by-month');
  assert.match(error.message, /wrong or out of date, or admin access is off/);
  assert.match(error.message, /CHATBOT_ADMIN_TOKEN/);
  assert.match(error.message, /authorizeAdmin/);
});

test('upstream unreachable behind the handler: 502 and where to look', async () => {
  const api = new AdminApi(`${deadUpstreamOrigin}/chatbot`, TOKEN, new AbortController().signal);
  const error = await failure(() => api.count(range()));
  assert.equal(error.kind, 'server');
  assert.equal(error.status, 502);
  assert.match(error.message, /CHATBOT_API_BASE_URL/);
});

test('the handler itself unreachable, or an endpoint that is not the handler', async () => {
  const gone = new AdminApi(`${await refusedOrigin()}/chatbot`, TOKEN, new AbortController().signal);
  const unreachable = await failure(() => gone.count(range()));
  assert.equal(unreachable.kind, 'unreachable');
  assert.equal(unreachable.status, 0);
  assert.match(unreachable.message, /cannot be reached/);

  const page = new AdminApi(`${notAHandlerOrigin}/chatbot`, TOKEN, new AbortController().signal);
  const wrong = await failure(() => page.count(range()));
  assert.match(wrong.message, /not the signing handler's: check that the endpoint attribute/);

  const missing = new AdminApi(`${handlerOrigin}/elsewhere`, TOKEN, new AbortController().signal);
  const notFound = await failure(() => missing.count(range()));
  assert.equal(notFound.status, 404);
  assert.match(notFound.message, /no admin routes at/);
});

test("upstream's validation passes through as the owner's words: a range over 1,200 months", async () => {
  const api = new AdminApi(`${handlerOrigin}/chatbot`, TOKEN, new AbortController().signal);
  const error = await failure(() => api.countByMonth({ from: '1800-01-01', to: '2025-01-01', fromMs: 0, toMs: 1 }));
  assert.equal(error.kind, 'rejected');
  assert.equal(error.status, 400);
  assert.match(error.message, /at most 1200 months/);
});
