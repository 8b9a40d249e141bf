// The signing handler on plain node:http: `npm install`, then `npm start` (see README.md).
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createNodeListener } from 'chatbot-widget/server/node';

// Upstream calls go over keep-alive node:http connections (the `fetch` option can replace that).
const chatbot = createNodeListener({
  apiBaseUrl: process.env.CHATBOT_API_BASE_URL, // ends in /api
  apiKey: process.env.CHATBOT_API_KEY, // pk_…
  apiSecret: process.env.CHATBOT_API_SECRET, // sk_…: stays on this server
  chatbotId: process.env.CHATBOT_ID,
  // Client address for the per-address limits: the socket's peer address (the default). It is the
  // visitor's own address when Node faces the internet. Behind a proxy or load balancer it is the
  // proxy's, so name the header that proxy sets, and only one it overwrites on every request:
  // clientAddress: (request) => request.headers.get('x-real-ip'),
});

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
<title>chatbot-widget on node:http</title>
<script type="module" src="/chatbot-widget.js"></script>
<h1>Your site</h1>
<chatbot-widget endpoint="/chatbot"></chatbot-widget>
`;

const server = createServer(async (req, res) => {
  if (req.url === '/chatbot' || req.url?.startsWith('/chatbot/')) return chatbot(req, res);
  const path = req.url?.split('?')[0] ?? '/';
  if (WIDGET_FILE.test(path)) {
    const script = await readFile(new URL(`.${path}`, widgetFiles)).catch(() => undefined);
    if (!script) return res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': widgetCaching(path) });
    return res.end(script);
  }
  if (path !== '/') return res.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end(PAGE);
});

const port = Number(process.env.PORT ?? 3000);
server.listen(port, () => console.log(`Listening on http://localhost:${port} (handler at /chatbot)`));
