// The signing handler in a Hono app on Node (@hono/node-server): `npm install`, then `npm start`.
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

// The rest of your site.
app.get('/', (c) => c.html('<chatbot-widget endpoint="/chatbot"></chatbot-widget>'));

const port = Number(process.env.PORT ?? 3000);
serve({ fetch: app.fetch, port }, () => console.log(`Listening on http://localhost:${port} (handler at /chatbot)`));
