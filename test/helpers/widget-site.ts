// A small site for Playwright tests of the BUILT widget (dist/chatbot-widget.js, rebuilt when
// older than its sources): one page with `<chatbot-widget endpoint="/chatbot">`, served with the
// headers a test asks for, the real signing handler at /chatbot/, and the emulator behind it
// over HTTP, optionally through the fault-injecting upstream proxy.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { bundlePath, ensureBundle } from '../../demo/static-site.js';
import { createEmulator, type ReplySource } from '../../src/emulator/index.js';
import { createSigningHandler, adminTokenAuthorizer, ADMIN_TOKEN_HEADER } from '../../src/server/index.js';
import { toNodeListener } from '../../src/server/adapters/node.js';
import { startFaultyUpstream, type FaultyUpstream, type FaultyUpstreamOptions } from './faulty-upstream.js';

const CHATBOT = { id: 'bot_site', apiKey: 'pk_site_tests', apiSecret: 'sk_site_tests_secret_value', tier: 'premium' as const };
const ADMIN_TOKEN = 'widget-site-admin-token';

export interface WidgetSiteOptions {
  replySource: ReplySource;
  /** Headers of the page, given the site's origin (e.g. a Content-Security-Policy naming it). */
  pageHeaders?: (origin: string) => Record<string, string>;
  /** Puts the fault-injecting proxy between handler and emulator. */
  faults?: Omit<FaultyUpstreamOptions, 'target'>;
}

export interface WidgetSite {
  origin: string;
  faulty: FaultyUpstream | undefined;
  /** Every message upstream holds, oldest first. */
  upstreamMessages(): Promise<{ id: string; text: string; senderType: string }[]>;
  close(): Promise<void>;
}

export async function startWidgetSite(options: WidgetSiteOptions): Promise<WidgetSite> {
  ensureBundle();
  const emulator = createEmulator({ db: ':memory:', chatbots: [CHATBOT], replySource: options.replySource });
  const upstream = await emulator.listen({ port: 0, host: '127.0.0.1' });
  const faulty = options.faults ? await startFaultyUpstream({ target: new URL(upstream.url).origin, ...options.faults }) : undefined;
  const handler = toNodeListener(
    createSigningHandler({
      apiBaseUrl: faulty?.baseUrl ?? upstream.url,
      apiKey: CHATBOT.apiKey,
      apiSecret: CHATBOT.apiSecret,
      chatbotId: CHATBOT.id,
      basePath: '/chatbot',
      logger: { warn() {}, error() {} },
      authorizeAdmin: adminTokenAuthorizer(ADMIN_TOKEN),
    }),
  );
  // `/`: the chat closed behind its launcher; `/open`: the page shows it open from the start.
  const page = (open: boolean) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Widget site</title>
<script type="module" src="/chatbot-widget.js"></script></head>
<body><chatbot-widget endpoint="/chatbot" heading="Test site"${open ? ' open' : ''}></chatbot-widget></body></html>`;
  let origin = '';
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path.startsWith('/chatbot/')) return handler(req, res);
    // The bundle, and the chunks it loads from beside itself (the panel, a language).
    if (path === '/chatbot-widget.js' || /^\/chatbot-widget-[\w-]+\.js$/.test(path)) {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' });
      return res.end(readFileSync(join(dirname(bundlePath), path.slice(1))));
    }
    if (path === '/' || path === '/open') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...options.pageHeaders?.(origin) });
      return res.end(page(path === '/open'));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    faulty,
    async upstreamMessages() {
      const response = await fetch(`${origin}/chatbot/admin/messages?pageSize=100`, { headers: { [ADMIN_TOKEN_HEADER]: ADMIN_TOKEN } });
      if (response.status !== 200) throw new Error(`admin messages: ${response.status}`);
      return ((await response.json()) as { data: { id: string; text: string; senderType: string }[] }).data.reverse();
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await faulty?.close();
      await upstream.close();
      emulator.close();
    },
  };
}
