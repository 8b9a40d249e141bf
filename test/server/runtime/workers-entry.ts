// The Cloudflare Workers entry of the README, verbatim below the marker; run by
// test/server/one-liners.test.ts with the Web APIs Node shares with workerd.
import { createSigningHandler, type SigningHandler } from '../../../src/server/index.js';

interface Env {
  CHATBOT_API_BASE_URL: string;
  CHATBOT_API_KEY: string;
  CHATBOT_API_SECRET: string;
  CHATBOT_ID: string;
}

// --- README: Cloudflare Workers ---
let handler: SigningHandler | undefined;
export default {
  fetch(request: Request, env: Env): Promise<Response> {
    handler ??= createSigningHandler({
      apiBaseUrl: env.CHATBOT_API_BASE_URL,
      apiKey: env.CHATBOT_API_KEY,
      apiSecret: env.CHATBOT_API_SECRET, // wrangler secret put CHATBOT_API_SECRET
      chatbotId: env.CHATBOT_ID,
      clientAddress: (r) => r.headers.get('CF-Connecting-IP'), // set by Cloudflare, not by visitors
    });
    return handler(request);
  },
};
