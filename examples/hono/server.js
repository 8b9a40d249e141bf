// The signing handler in a Hono app on Node (@hono/node-server): `npm install`, then `npm start`.
import { readFile } from 'node:fs/promises';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import { createSigningHandler } from 'chatbot-widget/server';
import { keepAliveFetch } from 'chatbot-widget/server/node';

const handler = createSigningHandler({
  apiBaseUrl: process.env.CHATBOT_API_BASE_URL, // ends in /api
  apiKey: process.env.CHATBOT_API_KEY, // pk_…
  apiSecret: process.env.CHATBOT_API_SECRET, // sk_…: stays on this server
  chatbotId: process.env.CHATBOT_ID,
  fetch: keepAliveFetch, // upstream calls over keep-alive node:http connections
});

const app = new Hono();

app.all('/chatbot/*', (c) =>
  handler(c.req.raw, {
    // Client address for the per-address limits: the socket's peer address. It is the visitor's
    // own address when Node faces the internet; behind a proxy, pass the clientAddress option
    // naming the header that proxy overwrites on every request instead.
    clientAddress: getConnInfo(c).remote.address,
    // The request target as received, so dot segments are refused rather than resolved.
    rawPath: c.env.incoming.url,
  }),
);

// The rest of your site: a page with the widget, and the widget's files as the package ships them
// (dist/chatbot-widget.js and the chunks it loads from beside it, whose names carry a content hash:
// they may be cached for good, the entry is asked for again each time).
const widgetFiles = new URL('.', import.meta.resolve('chatbot-widget/dist/chatbot-widget.js'));
const WIDGET_FILE = /^\/chatbot-widget(?:-[\w-]+)?\.js$/;
const widgetCaching = (path) => (path === '/chatbot-widget.js' ? 'no-cache' : 'public, max-age=31536000, immutable');
const PAGE = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>chatbot-widget on Hono</title>
<script type="module" src="/chatbot-widget.js"></script>
<h1>Your site</h1>
<chatbot-widget endpoint="/chatbot"></chatbot-widget>
`;

app.get('/', (c) => c.html(PAGE));
app.get('/:file', async (c) => {
  const path = `/${c.req.param('file')}`;
  const script = WIDGET_FILE.test(path) ? await readFile(new URL(`.${path}`, widgetFiles)).catch(() => undefined) : undefined;
  if (!script) return c.notFound();
  return c.body(script, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': widgetCaching(path) });
});

const port = Number(process.env.PORT ?? 3000);
serve({ fetch: app.fetch, port }, () => console.log(`Listening on http://localhost:${port} (handler at /chatbot)`));
