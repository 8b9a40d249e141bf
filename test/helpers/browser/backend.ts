/**
 * The real backend behind the browser tests: the emulator (SQLite in memory, premium tier) and
 * the signing handler, mounted on @web/test-runner's own dev server so the widget calls them
 * same-origin, exactly as on a site.
 *
 * Each test uses its own endpoint, `/t/<namespace>/chatbot`, which is the handler's `/chatbot`
 * (the prefix is stripped): a fresh IndexedDB namespace and a fresh visitor per test, on one
 * handler. Namespaces starting with `limited-` go to a second handler with a 2-a-minute send
 * limit, for the 429 tests; `daily-` to one allowing 5 sends a day (the quota notice);
 * and `stress-` to one whose upstream is slow
 * and drops connections after storing (test/helpers/faulty-upstream.ts), for the exactly-once
 * suite.
 *
 * Fault injection between browser and handler: `POST /__net/<namespace>/<mode>`
 * sets how the connection behaves for that namespace. `down` closes the socket before the handler
 * sees the request (the browser's fetch fails as when offline); `drop` lets the handler and
 * upstream act, then breaks the connection mid-answer (a send that arrived but whose answer was
 * lost; `/visitor` is answered); `up` restores it.
 *
 * Namespaces starting with `noadmin-` go to a handler without `authorizeAdmin`: admin access off,
 * as on a site that never turned it on.
 *
 * Namespaces starting with `signedin-` go to a handler with `identify`: a stand-in for a site's
 * own login, whose user is the `member` cookie's value ({@link SIGNED_IN_COOKIE}; a test sets it
 * with the namespace's path, so it reaches that namespace only), and no cookie is nobody.
 *
 * Namespaces starting with `rated-` each get a handler of their own (its own store, in front of
 * the same emulator), so the ratings a test gives are the only ones its admin feedback routes
 * list, month counts included. `GET /__rated/<namespace>/<admin route>` reads that handler's admin
 * routes with the admin token, whatever the namespace's network mode.
 *
 * For the security tests (hostile.test.ts, markdown.test.ts) two more routes:
 * - `/__beacon/<name>` records that something requested it, from any origin, and `GET /__beacons`
 *   lists the names so far. Test payloads point their images, styles and frames at this route
 *   on the other loopback name (`127.0.0.1` when the page is on `localhost`), a third-party
 *   origin as far as the browser knows: a payload that makes the browser fetch anything shows
 *   up here, whether or not the resource loaded.
 * - Namespaces starting with `hostile-` answer `POST …/message` with a 400 envelope whose error
 *   text is HTML ({@link HOSTILE_ERROR}): a stand-in for a compromised upstream, whose 400 bodies
 *   the handler passes on as they are; those starting with `hostile-reads-` answer every `GET`
 *   of messages and sessions so too. Every other route of them is the real one.
 */
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { HOSTILE_ERROR } from './hostile-error.js';
import { LONG_CODE_REPLY } from './code-sample.js';
import { WIDE_TABLE_REPLY } from './table-sample.js';
import { ADMIN_TOKEN } from './admin-token.js';
import { createEmulator } from '../../../src/emulator/index.js';
import type { ReplySource } from '../../../src/emulator/index.js';
import { createSigningHandler, adminTokenAuthorizer, ADMIN_TOKEN_HEADER } from '../../../src/server/index.js';
import { startFaultyUpstream } from '../faulty-upstream.js';
import { SIGNED_IN_COOKIE } from './signed-in-cookie.js';

const CHATBOT = { id: 'bot_widget', apiKey: 'pk_widget_tests', apiSecret: 'sk_widget_tests_secret_value', tier: 'premium' as const };

/** Replies the tests can predict; `markdown-sample` answers with every construct and some hostile HTML. */
export const testReplies: ReplySource = {
  name: 'widget-tests',
  async reply(request) {
    const text = request.content;
    if (text.startsWith('slow')) {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      return 'Done, slowly.';
    }
    if (text === 'markdown-sample') {
      return [
        'Here is **bold**, *italic* and `inline <b>code</b>`.',
        '',
        '- first item',
        '- second item with a [safe link](https://example.com/docs)',
        '',
        '1. one',
        '2. two',
        '',
        '```',
        'const x = 1 < 2;',
        '```',
        '',
        'Mail [us](mailto:help@example.com), not [this](javascript:window.__pwned=1) or [that](data:text/html,hi).',
        '',
        '<img src="x" onerror="window.__pwned=1"><script>window.__pwned=1</script>',
      ].join('\n');
    }
    if (text === 'layout-sample') return LAYOUT_SAMPLE;
    if (text === 'visual-sample') return VISUAL_SAMPLE;
    if (text === 'long-code-line') return LONG_CODE_REPLY;
    if (text === 'wide-table') return WIDE_TABLE_REPLY;
    // Right-to-left text with the constructs whose layout mirrors: a list, a quote, a link, code (which stays left to right).
    if (text === 'rtl-sample')
      return 'مرحبا! هذه **إجابة** مع قائمة:\n\n- الأول\n- الثاني\n\n> שלום, זה ציטוט\n\nاقرأ [الوثائق](https://example.com/docs) أو انسخ:\n\n```\nconst x = 1;\n```';
    if (text === 'soft-break-sample') return 'One sentence written\nacross two source lines.\n\nA hard  \nbreak and a backslash\\\nbreak.';
    return `You said: ${text}`;
  },
};

/**
 * A reply that is hard to fit in a narrow bubble: inline code and a URL with no break
 * opportunity, a code block with long lines, and a soft line break (which is a space).
 */
export const LAYOUT_SAMPLE = [
  'Copy `dist/chatbot-widget.js` from the `chatbot-widget` package to your',
  'site (it is one ES module',
  'with Lit bundled). Read https://example.com/docs/a/very/long/path/that/never/breaks/anywhere/at/all/because/it/is/one/word/index.html',
  'and call `someVeryLongFunctionNameThatHasNoBreakOpportunityAnywhereAtAll(withAnArgumentThatIsLongToo)`.',
  '',
  '```html',
  '<script type="module" src="/chatbot-widget.js"></script><chatbot-widget endpoint="/chatbot" heading="Ask the docs" placeholder="Ask about chatbot-widget…"></chatbot-widget>',
  '```',
  '',
  'Done.',
].join('\n');

/** What the screenshot tests show of a reply: a code block, a table and a long link. */
export const VISUAL_SAMPLE = [
  'Add the element, then style it:',
  '',
  '```html',
  '<chatbot-widget endpoint="/chatbot" heading="Help" theme="dark"></chatbot-widget>',
  '```',
  '',
  '| Plan | Messages a day |',
  '| --- | ---: |',
  '| Free | 100 |',
  '| Premium | 10,000 |',
  '',
  'More: https://example.com/docs/chatbot-widget/configuration/every-attribute-and-custom-property',
].join('\n');

type Mode = 'up' | 'down' | 'drop';

export interface Backend {
  middleware: (ctx: KoaContext, next: () => Promise<unknown>) => Promise<unknown>;
  /** The environment `chatbot-api` needs to talk to the same emulator (its URL, key, secret, chatbot). */
  cliEnv: Record<string, string>;
  stop(): Promise<void>;
}

/** The slice of Koa's context the middleware uses. */
interface KoaContext {
  req: IncomingMessage;
  method: string;
  url: string;
  path: string;
  host: string;
  protocol: string;
  status: number;
  body: unknown;
  respond?: boolean;
  set(name: string, value: string): void;
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startBackend(): Promise<Backend> {
  const emulator = createEmulator({ db: ':memory:', chatbots: [CHATBOT], replySource: testReplies });
  const upstream = await emulator.listen({ port: 0, host: '127.0.0.1' });
  const quiet = { warn() {}, error() {} };
  const common = {
    apiBaseUrl: upstream.url,
    apiKey: CHATBOT.apiKey,
    apiSecret: CHATBOT.apiSecret,
    chatbotId: CHATBOT.id,
    basePath: '/chatbot',
    logger: quiet,
    authorizeAdmin: adminTokenAuthorizer(ADMIN_TOKEN),
  };
  // Every test is a new visitor from 127.0.0.1: the per-address and per-visitor limits are raised
  // here, and tested on their own through the `limited-` handler.
  const unlimitedAddress = { visitorsPerMinutePerAddress: 100_000, sendsPerMinutePerAddress: 100_000, dailyQuotaSharePerAddress: 1 };
  const handler = createSigningHandler({ ...common, limits: { sendsPerMinute: 10_000, sendsPerDay: 100_000, ...unlimitedAddress } });
  const limited = createSigningHandler({ ...common, limits: { sendsPerMinute: 2, sendsPerDay: 100_000, ...unlimitedAddress } });
  const adminOff = createSigningHandler({
    ...common,
    authorizeAdmin: undefined,
    limits: { sendsPerMinute: 10_000, sendsPerDay: 100_000, ...unlimitedAddress },
  });
  const signedIn = createSigningHandler({
    ...common,
    limits: { sendsPerMinute: 10_000, sendsPerDay: 100_000, ...unlimitedAddress },
    identify(request) {
      const cookies = (request.headers.get('cookie') ?? '').split(';').map((pair) => pair.trim().split('='));
      const member = cookies.find(([name]) => name === SIGNED_IN_COOKIE)?.[1];
      return member ? { userId: decodeURIComponent(member) } : null;
    },
  });
  const fewADay = createSigningHandler({ ...common, limits: { sendsPerMinute: 10_000, sendsPerDay: 5, ...unlimitedAddress } });
  // The exactly-once suite's upstream: slow (held before storing and again before answering, over
  // a second in all) and dropping a quarter of the sends' connections after upstream stored them,
  // from a fixed seed so a failing run can be replayed.
  const faulty = await startFaultyUpstream({
    target: new URL(upstream.url).origin,
    delayBeforeMs: 300,
    delayAfterMs: 800,
    dropProbability: 0.25,
    seed: 9,
  });
  const stressed = createSigningHandler({
    ...common,
    apiBaseUrl: faulty.baseUrl,
    limits: { sendsPerMinute: 10_000, sendsPerDay: 100_000, ...unlimitedAddress },
  });
  const ratedHandlers = new Map<string, typeof handler>();
  const ratedHandler = (namespace: string) => {
    let own = ratedHandlers.get(namespace);
    if (!own) {
      own = createSigningHandler({ ...common, limits: { sendsPerMinute: 10_000, sendsPerDay: 100_000, ...unlimitedAddress } });
      ratedHandlers.set(namespace, own);
    }
    return own;
  };
  const modes = new Map<string, Mode>();
  const seedDir = mkdtempSync(join(tmpdir(), 'widget-seed-'));
  let seeds = 0;

  async function forward(ctx: KoaContext, path: string, namespace: string, extraHeaders: Record<string, string> = {}) {
    const body = ctx.method === 'GET' || ctx.method === 'HEAD' ? undefined : await readBody(ctx.req);
    const headers = new Headers();
    for (const [name, value] of Object.entries(ctx.req.headers)) {
      if (value === undefined || name.startsWith(':')) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    for (const [name, value] of Object.entries(extraHeaders)) headers.set(name, value);
    const request = new Request(`${ctx.protocol}://${ctx.host}${path}`, {
      method: ctx.method,
      headers,
      body: body ? new Uint8Array(body) : undefined,
    });
    const target = namespace.startsWith('limited-')
      ? limited
      : namespace.startsWith('daily-')
        ? fewADay
        : namespace.startsWith('stress-')
          ? stressed
          : namespace.startsWith('noadmin-')
            ? adminOff
            : namespace.startsWith('signedin-')
              ? signedIn
              : namespace.startsWith('rated-')
                ? ratedHandler(namespace)
                : handler;
    return target(request, { clientAddress: ctx.req.socket.remoteAddress ?? '127.0.0.1', rawPath: path });
  }

  async function answer(ctx: KoaContext, response: Response) {
    ctx.status = response.status;
    response.headers.forEach((value, name) => {
      if (name !== 'content-length' && name !== 'content-encoding') ctx.set(name, value);
    });
    ctx.body = Buffer.from(await response.arrayBuffer());
  }

  const beacons: string[] = [];

  const middleware = async (ctx: KoaContext, next: () => Promise<unknown>) => {
    const beacon = /^\/__beacon\/(.*)$/.exec(ctx.path);
    if (beacon) {
      beacons.push(decodeURIComponent(beacon[1]!));
      ctx.set('Access-Control-Allow-Origin', '*');
      ctx.status = 204;
      return;
    }
    if (ctx.path === '/__beacons' && ctx.method === 'GET') {
      ctx.status = 200;
      ctx.set('Content-Type', 'application/json');
      ctx.body = JSON.stringify(beacons);
      return;
    }
    const net = /^\/__net\/([\w-]+)\/(up|down|drop)$/.exec(ctx.path);
    if (net && ctx.method === 'POST') {
      modes.set(net[1]!, net[2] as Mode);
      ctx.status = 204;
      return;
    }
    // Seeds messages for a visitor (JSON Lines through the emulator's own importer).
    if (ctx.path === '/__seed' && ctx.method === 'POST') {
      const { records } = JSON.parse((await readBody(ctx.req)).toString('utf8')) as { records: Record<string, unknown>[] };
      const file = join(seedDir, `seed-${++seeds}.jsonl`);
      writeFileSync(file, records.map((r) => JSON.stringify({ chatbotId: CHATBOT.id, ...r })).join('\n'));
      const result = await emulator.importSeed(file);
      ctx.status = 200;
      ctx.set('Content-Type', 'application/json');
      ctx.body = JSON.stringify(result);
      return;
    }
    // What upstream holds for a visitor, through the handler's admin route.
    const admin = /^\/__admin(\/.*)$/.exec(ctx.path);
    if (admin && ctx.method === 'GET') {
      const query = ctx.url.includes('?') ? ctx.url.slice(ctx.url.indexOf('?')) : '';
      await answer(ctx, await forward(ctx, `/chatbot/admin${admin[1]}${query}`, 'admin', { [ADMIN_TOKEN_HEADER]: ADMIN_TOKEN }));
      return;
    }
    const rated = /^\/__rated\/(rated-[\w-]+)(\/.*)$/.exec(ctx.path);
    if (rated && ctx.method === 'GET') {
      const query = ctx.url.includes('?') ? ctx.url.slice(ctx.url.indexOf('?')) : '';
      await answer(ctx, await forward(ctx, `/chatbot/admin${rated[2]}${query}`, rated[1]!, { [ADMIN_TOKEN_HEADER]: ADMIN_TOKEN }));
      return;
    }
    const match = /^\/t\/([\w-]+)(\/chatbot(?:\/.*)?)$/.exec(ctx.path);
    if (!match) return next();
    const namespace = match[1]!;
    const mode = modes.get(namespace) ?? 'up';
    const refused =
      namespace.startsWith('hostile-reads-') && ctx.method === 'GET'
        ? /^\/chatbot\/(messages|sessions)(\/|$)/.test(match[2]!)
        : namespace.startsWith('hostile-') && ctx.method === 'POST' && match[2] === '/chatbot/message';
    if (refused) {
      await readBody(ctx.req);
      ctx.status = 400;
      ctx.set('Content-Type', 'application/json');
      ctx.set('Cache-Control', 'no-store');
      ctx.body = JSON.stringify({ data: null, error: HOSTILE_ERROR });
      return;
    }
    const query = ctx.url.includes('?') ? ctx.url.slice(ctx.url.indexOf('?')) : '';
    if (mode === 'down') {
      ctx.respond = false;
      ctx.req.socket.destroy();
      return;
    }
    const response = await forward(ctx, match[2]! + query, namespace);
    // Who is signed in is still answered: the widget asks before each send, and a lost answer
    // here would keep the send from leaving at all.
    if (mode === 'drop' && match[2] !== '/chatbot/visitor') {
      await response.arrayBuffer();
      ctx.respond = false;
      // The answer breaks off after its headers. Closing without a byte would make Chromium
      // silently repeat the request on a fresh connection (as it does when a kept-alive socket
      // dies), which is the browser's doing, not the widget's.
      ctx.req.socket.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"da');
      return;
    }
    await answer(ctx, response);
  };

  return {
    middleware,
    cliEnv: {
      CHATBOT_API_BASE_URL: upstream.url,
      CHATBOT_API_KEY: CHATBOT.apiKey,
      CHATBOT_API_SECRET: CHATBOT.apiSecret,
      CHATBOT_ID: CHATBOT.id,
    },
    async stop() {
      await faulty.close();
      await upstream.close();
      emulator.close();
      rmSync(seedDir, { recursive: true, force: true });
    },
  };
}
