// The signing handler on Bun.serve: `npm install`, then `bun run server.ts` (see README.md).
import { createSigningHandler } from 'chatbot-widget/server';

const handler = createSigningHandler({
  apiBaseUrl: process.env.CHATBOT_API_BASE_URL!, // ends in /api
  apiKey: process.env.CHATBOT_API_KEY!, // pk_…
  apiSecret: process.env.CHATBOT_API_SECRET!, // sk_…: stays on this server
  chatbotId: process.env.CHATBOT_ID!,
  // One Bun process keeps limits in memory (the default store). Several behind a balancer share
  // them through Redis: store: createRedisStore(client) from 'chatbot-widget/server/redis'.
});

// The rest of your site: a page with the widget, and the widget's files as the package ships them
// (dist/chatbot-widget.js and the chunks it loads from beside it, whose names carry a content hash:
// they may be cached for good, the entry is asked for again each time).
const widgetFiles = new URL('.', import.meta.resolve('chatbot-widget/dist/chatbot-widget.js'));
const WIDGET_FILE = /^\/chatbot-widget(?:-[\w-]+)?\.js$/;
const widgetCaching = (path: string) => (path === '/chatbot-widget.js' ? 'no-cache' : 'public, max-age=31536000, immutable');
const PAGE = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>chatbot-widget on Bun</title>
<script type="module" src="/chatbot-widget.js"></script>
<h1>Your site</h1>
<chatbot-widget endpoint="/chatbot"></chatbot-widget>
`;

const server = Bun.serve({
  port: Number(process.env.PORT ?? 3000),
  async fetch(request, server) {
    const { pathname } = new URL(request.url);
    if (pathname === '/chatbot' || pathname.startsWith('/chatbot/')) {
      // Client address for the per-address limits: the connection's peer address. It is the
      // visitor's own address when Bun faces the internet; behind a proxy, pass the clientAddress
      // option naming the header that proxy overwrites on every request instead.
      return handler(request, { clientAddress: server.requestIP(request)?.address });
    }
    if (WIDGET_FILE.test(pathname)) {
      const script = Bun.file(new URL(`.${pathname}`, widgetFiles));
      if (!(await script.exists())) return new Response('Not found', { status: 404 });
      return new Response(script, {
        headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': widgetCaching(pathname) },
      });
    }
    if (pathname !== '/') return new Response('Not found', { status: 404 });
    return new Response(PAGE, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
  },
});
console.log(`Listening on http://localhost:${server.port} (handler at /chatbot)`);
