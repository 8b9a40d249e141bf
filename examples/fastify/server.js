// The signing handler as a Fastify plugin: `npm install`, then `npm start` (see README.md).
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

// The rest of your site.
app.get('/', async (_request, reply) => reply.type('text/html').send('<chatbot-widget endpoint="/chatbot"></chatbot-widget>'));

const port = Number(process.env.PORT ?? 3000);
await app.listen({ port, host: '0.0.0.0' });
console.log(`Listening on http://localhost:${port} (handler at /chatbot)`);
