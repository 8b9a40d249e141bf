/**
 * `npm start`: the whole stack in one process.
 *   /            the demo site (demo/*.html) and /chatbot-widget.js (the standalone bundle)
 *   /studio      the studio: the widget's configuration, live, and its snippets (demo/studio/)
 *   /chatbot/    the signing handler
 *   /api/        the built-in emulator (unless CHATBOT_API_BASE_URL names a real upstream)
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createEmulator, type Emulator } from '../src/emulator/index.js';
import { createReplySourceFromEnv } from '../src/emulator/replies/index.js';
import { createSigningHandler, adminTokenAuthorizer } from '../src/server/index.js';
import { toNodeListener } from '../src/server/adapters/node.js';
import { readStartConfig, StartConfigError, type UpstreamConfig } from './config.js';
import { createStaticSite } from './static-site.js';
import { ensureManifest, serveStudio } from './studio-assets.js';
import { connectRedisStore, type RedisStoreConnection } from './redis.js';
import { listensOnLoopback, namesLoopback } from './host-check.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

async function main(): Promise<void> {
  const config = readStartConfig(process.env);
  // Before listening: a Redis that is not there stops npm start with one line, not a broken stack.
  const redis: RedisStoreConnection | undefined = config.redisUrl ? await connectRedisStore(config.redisUrl) : undefined;
  const site = await createStaticSite();
  ensureManifest();
  const replySource = config.upstream ? undefined : createReplySourceFromEnv(process.env);
  const emulator: Emulator | undefined = replySource
    ? createEmulator({ db: join(config.dataDir, 'emulator.sqlite'), basePath: '/api', replySource })
    : undefined;

  // The handler is wired once the port is known (PORT=0 picks a free one), because it reaches
  // the emulator over loopback HTTP, exactly as it would reach the hosted API.
  let handlerListener: Listener | undefined = undefined;
  let port = config.port;
  const loopbackOnly = listensOnLoopback(config.host);
  const server = createServer((req, res) => {
    if (loopbackOnly && !namesLoopback(req.headers.host)) {
      res.writeHead(403, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(
        `npm start answers only to localhost while HOST is ${config.host}: open http://localhost:${port}/, or set HOST=0.0.0.0 to serve other names.\n`,
      );
      return;
    }
    const path = (req.url ?? '/').split('?')[0]!;
    if (emulator && (path === '/api' || path.startsWith('/api/'))) return emulator.listener(req, res);
    if ((path === '/chatbot' || path.startsWith('/chatbot/')) && handlerListener) return handlerListener(req, res);
    serveStudio(req, res, path).then(
      (served) => served || site.serve(req, res),
      (error: unknown) => {
        console.error('studio:', error instanceof Error ? error.message : error);
        if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end('The studio could not be served; see the server log.');
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://localhost:${port}`;

  let upstream: UpstreamConfig;
  if (emulator) {
    const bot = emulator.chatbots[0]!;
    upstream = { baseUrl: `http://127.0.0.1:${port}/api`, apiKey: bot.apiKey, apiSecret: bot.apiSecret, chatbotId: bot.id };
  } else {
    upstream = config.upstream!;
  }
  const handler = createSigningHandler({
    apiBaseUrl: upstream.baseUrl,
    apiKey: upstream.apiKey,
    apiSecret: upstream.apiSecret,
    chatbotId: upstream.chatbotId,
    basePath: '/chatbot',
    authorizeAdmin: adminTokenAuthorizer(config.adminToken),
    allowedOrigins: config.allowedOrigins,
    ...(redis ? { store: redis.store } : {}),
  });
  handlerListener = toNodeListener(handler);

  const lines = [
    '',
    '  chatbot-widget is running',
    '',
    `  Demo site        ${origin}/`,
    `  Inline, dark     ${origin}/inline.html`,
    `  Embed it         ${origin}/embed.html`,
    `  Studio           ${origin}/studio  (set the widget up, live, and copy its snippets)`,
    `  Admin            ${origin}/admin.html#token=${config.adminToken}`,
    `  Signing handler  ${origin}/chatbot/  (the widget's API: POST visitor and message, GET sessions and messages)`,
    config.allowedOrigins.length
      ? `  Other origins    ${config.allowedOrigins.join(', ')} may embed the widget (CHATBOT_ALLOWED_ORIGINS)`
      : '  Other origins    none may embed the widget; list them in CHATBOT_ALLOWED_ORIGINS',
    emulator
      ? `  Emulator         ${origin}/api  (signed API for servers and chatbot-api; data in ${join(config.dataDir, 'emulator.sqlite')}, replies from ${replySource!.name})`
      : `  Upstream         ${upstream.baseUrl}`,
    redis
      ? `  Store            Redis at ${redis.address} (CHATBOT_REDIS_URL): limits, idempotency and revocations shared by every process using it`
      : "  Store            this process's memory; set CHATBOT_REDIS_URL to share limits across several processes",
    '',
  ];
  if (emulator) {
    const bot = emulator.chatbots[0]!;
    lines.push(
      "  Your own server or chatbot-api against the emulator (the README's quick start):",
      `    export CHATBOT_API_BASE_URL=${origin}/api CHATBOT_ID=${bot.id} CHATBOT_API_KEY=${bot.apiKey} CHATBOT_API_SECRET=${bot.apiSecret} CHATBOT_ADMIN_TOKEN=${config.adminToken}`,
      '    npm run --silent api -- usage --from 2026-01-01 --to 2027-01-01 --table',
      '',
    );
  }
  if (config.generatedAdminToken) lines.push('  CHATBOT_ADMIN_TOKEN was not set: the admin token above was generated for this run.', '');
  console.log(lines.join('\n'));

  const stop = () => {
    server.close();
    server.closeAllConnections();
    emulator?.close();
    void redis?.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  if (error instanceof StartConfigError) {
    console.error(`npm start: ${error.message}`);
    process.exit(2);
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EADDRINUSE') {
    console.error(`npm start: port ${process.env.PORT ?? 8080} is in use; stop what uses it or set PORT to another number.`);
    process.exit(1);
  }
  console.error('npm start failed:', error instanceof Error ? error.message : error);
  process.exit(1);
});
