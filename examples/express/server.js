// The signing handler in an Express app: `npm install`, then `npm start` (see README.md).
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

// The rest of your site.
app.get('/', (_req, res) => {
  res.type('html').send('<chatbot-widget endpoint="/chatbot"></chatbot-widget>');
});

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(`Listening on http://localhost:${port} (handler at /chatbot)`));
