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

const server = Bun.serve({
  port: Number(process.env.PORT ?? 3000),
  fetch(request, server) {
    const { pathname } = new URL(request.url);
    if (pathname === '/chatbot' || pathname.startsWith('/chatbot/')) {
      // Client address for the per-address limits: the connection's peer address. It is the
      // visitor's own address when Bun faces the internet; behind a proxy, pass the clientAddress
      // option naming the header that proxy overwrites on every request instead.
      return handler(request, { clientAddress: server.requestIP(request)?.address });
    }
    // The rest of your site.
    return new Response('<chatbot-widget endpoint="/chatbot"></chatbot-widget>', {
      headers: { 'Content-Type': 'text/html; charset=utf-8' },
    });
  },
});
console.log(`Listening on http://localhost:${server.port} (handler at /chatbot)`);
