// The signing handler on plain node:http: `npm install`, then `npm start` (see README.md).
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

const server = createServer((req, res) => {
  if (req.url === '/chatbot' || req.url?.startsWith('/chatbot/')) return chatbot(req, res);
  // The rest of your site.
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
  res.end('<chatbot-widget endpoint="/chatbot"></chatbot-widget>');
});

const port = Number(process.env.PORT ?? 3000);
server.listen(port, () => console.log(`Listening on http://localhost:${port} (handler at /chatbot)`));
