// The Next.js route handler of the README (app/chatbot/[...path]/route.ts), verbatim below the
// marker; run by test/server/one-liners.test.ts.
import { createSigningHandler } from '../../../src/server/index.js';

// --- README: Next.js ---
const handler = createSigningHandler({
  apiBaseUrl: process.env.CHATBOT_API_BASE_URL!,
  apiKey: process.env.CHATBOT_API_KEY!,
  apiSecret: process.env.CHATBOT_API_SECRET!,
  chatbotId: process.env.CHATBOT_ID!,
});
export const GET = (request: Request) => handler(request);
export const POST = (request: Request) => handler(request);
export const OPTIONS = (request: Request) => handler(request);
