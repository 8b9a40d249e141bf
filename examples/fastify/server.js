// The signing handler as a Fastify plugin: `npm install`, then `npm start` (see README.md).
import { readFile } from 'node:fs/promises';
import Fastify from 'fastify';
import { fastifyChatbot } from 'chatbot-widget/server/fastify';

const app = Fastify();

// No body-parser setting needed: the plugin reads its own request bodies, in its own scope, and
// leaves Fastify's JSON parsing of your other routes as it is.
await app.register(fastifyChatbot, {
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
<title>chatbot-widget on Fastify</title>
<script type="module" src="/chatbot-widget.js"></script>
<h1>Your site</h1>
<chatbot-widget endpoint="/chatbot"></chatbot-widget>
`;

app.get('/', async (_request, reply) => reply.type('text/html').send(PAGE));
app.get('/:file', async (request, reply) => {
  const path = `/${request.params.file}`;
  const script = WIDGET_FILE.test(path) ? await readFile(new URL(`.${path}`, widgetFiles)).catch(() => undefined) : undefined;
  if (!script) return reply.callNotFound();
  return reply.type('text/javascript; charset=utf-8').header('Cache-Control', widgetCaching(path)).send(script);
});

const port = Number(process.env.PORT ?? 3000);
await app.listen({ port, host: '0.0.0.0' });
console.log(`Listening on http://localhost:${port} (handler at /chatbot)`);
