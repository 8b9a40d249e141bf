// The signing handler as a Cloudflare Worker, with its limits in a Durable Object:
// `npm install`, then `npx wrangler dev` (see README.md; wrangler.toml declares the binding).
import { createSigningHandler, type SigningHandler } from 'chatbot-widget/server';
import { createDurableObjectStore, type ChatbotStoreNamespace } from 'chatbot-widget/server/cloudflare';

// The Durable Object class the CHATBOT_STORE binding of wrangler.toml names.
export { ChatbotStore } from 'chatbot-widget/server/cloudflare';

interface Env {
  CHATBOT_API_BASE_URL: string; // ends in /api
  CHATBOT_API_KEY: string; // pk_…
  CHATBOT_API_SECRET: string; // sk_…: `wrangler secret put CHATBOT_API_SECRET`, never in wrangler.toml
  CHATBOT_ID: string;
  // Sites on other origins that may embed the widget, comma-separated (https://www.example.com).
  CHATBOT_ALLOWED_ORIGINS?: string;
  CHATBOT_STORE: ChatbotStoreNamespace;
}

// Created on the first request, when `env` is there (a Worker has no environment at module load).
let handler: SigningHandler | undefined;

export default {
  fetch(request: Request, env: Env, ctx: { waitUntil(promise: Promise<unknown>): void }): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (pathname !== '/chatbot' && !pathname.startsWith('/chatbot/')) {
      // The site's pages and the widget's files are static assets (public/), served before the
      // Worker runs: what reaches it here is none of them.
      return Promise.resolve(new Response('Not found', { status: 404 }));
    }
    handler ??= createSigningHandler({
      apiBaseUrl: env.CHATBOT_API_BASE_URL,
      apiKey: env.CHATBOT_API_KEY,
      apiSecret: env.CHATBOT_API_SECRET,
      chatbotId: env.CHATBOT_ID,
      // Limits, idempotency records and revocations shared by every isolate, in every location.
      store: createDurableObjectStore(env.CHATBOT_STORE),
      // Client address for the per-address limits: Cloudflare sets CF-Connecting-IP to the
      // visitor's address and replaces any value the visitor sent, so it can be trusted on Workers.
      clientAddress: (r) => r.headers.get('CF-Connecting-IP'),
      // Same origin needs nothing: the Worker routed under the site's domain (example.com/chatbot*).
      allowedOrigins: (env.CHATBOT_ALLOWED_ORIGINS ?? '')
        .split(',')
        .map((origin) => origin.trim())
        .filter(Boolean),
    });
    const answer = handler(request);
    // A send handed to upstream is seen through and its outcome kept even if the visitor leaves.
    ctx.waitUntil(answer);
    return answer;
  },
};
