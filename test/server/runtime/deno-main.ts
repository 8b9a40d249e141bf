// The Deno entry of the README, verbatim below the marker; run by
// test/server/one-liners.test.ts with a stand-in `Deno` global (Deno itself is not installed).
import { createSigningHandler } from '../../../src/server/index.js';

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>): unknown;
};

// --- README: Deno ---
const handler = createSigningHandler({
  apiBaseUrl: Deno.env.get('CHATBOT_API_BASE_URL')!,
  apiKey: Deno.env.get('CHATBOT_API_KEY')!,
  apiSecret: Deno.env.get('CHATBOT_API_SECRET')!,
  chatbotId: Deno.env.get('CHATBOT_ID')!,
});
Deno.serve((request, info) => handler(request, { clientAddress: info.remoteAddr.hostname }));
