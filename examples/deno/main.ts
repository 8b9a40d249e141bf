// The signing handler on Deno.serve with its limits in Deno KV: `npm install`, then
// `deno task start` (see README.md).
import { createSigningHandler } from 'chatbot-widget/server';
import { createDenoKvStore } from 'chatbot-widget/server/deno-kv';

// Deno KV: a local SQLite file here (CHATBOT_KV_PATH; unset, Deno's own folder for this script),
// and shared by every instance on Deno Deploy, so the limits, idempotency records and revocations
// hold across all of them.
const kv = await Deno.openKv(Deno.env.get('CHATBOT_KV_PATH'));

const handler = createSigningHandler({
  apiBaseUrl: Deno.env.get('CHATBOT_API_BASE_URL')!, // ends in /api
  apiKey: Deno.env.get('CHATBOT_API_KEY')!, // pk_…
  apiSecret: Deno.env.get('CHATBOT_API_SECRET')!, // sk_…: stays on this server
  chatbotId: Deno.env.get('CHATBOT_ID')!,
  store: createDenoKvStore(kv),
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
<title>chatbot-widget on Deno</title>
<script type="module" src="/chatbot-widget.js"></script>
<h1>Your site</h1>
<chatbot-widget endpoint="/chatbot"></chatbot-widget>
`;

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 8000) }, async (request, info) => {
  const { pathname } = new URL(request.url);
  if (pathname === '/chatbot' || pathname.startsWith('/chatbot/')) {
    // Client address for the per-address limits: the connection's peer address. It is the
    // visitor's own address when Deno faces the internet and on Deno Deploy; behind your own
    // proxy, pass the clientAddress option naming the header that proxy overwrites instead.
    return handler(request, { clientAddress: info.remoteAddr.hostname });
  }
  if (WIDGET_FILE.test(pathname)) {
    const script = await Deno.readFile(new URL(`.${pathname}`, widgetFiles)).catch((error) => {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error; // not readable: see the permissions in README.md
    });
    if (!script) return new Response('Not found', { status: 404 });
    return new Response(script, {
      headers: { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': widgetCaching(pathname) },
    });
  }
  if (pathname !== '/') return new Response('Not found', { status: 404 });
  return new Response(PAGE, { headers: { 'Content-Type': 'text/html; charset=utf-8' } });
});
