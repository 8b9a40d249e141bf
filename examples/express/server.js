// The signing handler in an Express app: `npm install`, then `npm start` (see README.md).
import { fileURLToPath } from 'node:url';
import express from 'express';
import { createExpressHandler } from 'chatbot-widget/server/express';

const app = express();

// Mounted before any body parser: the handler reads and caps request bodies itself.
app.use(
  createExpressHandler({
    apiBaseUrl: process.env.CHATBOT_API_BASE_URL, // ends in /api
    apiKey: process.env.CHATBOT_API_KEY, // pk_…
    apiSecret: process.env.CHATBOT_API_SECRET, // sk_…: stays on this server
    chatbotId: process.env.CHATBOT_ID,
    // Client address for the per-address limits: the socket's peer address (the default). It is the
    // visitor's own address when Node faces the internet. Behind a proxy or load balancer it is the
    // proxy's, so name the header that proxy sets, and only one it overwrites on every request:
    // clientAddress: (request) => request.headers.get('x-real-ip'),
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
<title>chatbot-widget on Express</title>
<script type="module" src="/chatbot-widget.js"></script>
<h1>Your site</h1>
<chatbot-widget endpoint="/chatbot"></chatbot-widget>
`;

app.get(WIDGET_FILE, (req, res, next) => {
  const file = fileURLToPath(new URL(`.${req.path}`, widgetFiles));
  // The caching header goes with the file only: a 404 is never kept for a year.
  res.sendFile(file, { cacheControl: false, headers: { 'Cache-Control': widgetCaching(req.path) } }, (error) => error && next());
});
app.get('/', (_req, res) => {
  res.type('html').send(PAGE);
});

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`Listening on http://localhost:${port} (handler at /chatbot)`));
