// The signing handler on Deno.serve with its limits in Deno KV: `npm install`, then
// `deno task start` (see README.md).
import { createSigningHandler } from 'chatbot-widget/server';
import { createDenoKvStore } from 'chatbot-widget/server/deno-kv';

// Deno KV: a local SQLite file here, and shared by every instance on Deno Deploy, so the limits,
// idempotency records and revocations hold across all of them.
const kv = await Deno.openKv(Deno.env.get('CHATBOT_KV_PATH'));

const handler = createSigningHandler({
  apiBaseUrl: Deno.env.get('CHATBOT_API_BASE_URL')!, // ends in /api
  apiKey: Deno.env.get('CHATBOT_API_KEY')!, // pk_…
  apiSecret: Deno.env.get('CHATBOT_API_SECRET')!, // sk_…: stays on this server
  chatbotId: Deno.env.get('CHATBOT_ID')!,
  store: createDenoKvStore(kv),
});

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 8000) }, (request, info) => {
  const { pathname } = new URL(request.url);
  if (pathname === '/chatbot' || pathname.startsWith('/chatbot/')) {
    // Client address for the per-address limits: the connection's peer address. It is the
    // visitor's own address when Deno faces the internet and on Deno Deploy; behind your own
    // proxy, pass the clientAddress option naming the header that proxy overwrites instead.
    return handler(request, { clientAddress: info.remoteAddr.hostname });
  }
  // The rest of your site.
  return new Response('<chatbot-widget endpoint="/chatbot"></chatbot-widget>', { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
});
