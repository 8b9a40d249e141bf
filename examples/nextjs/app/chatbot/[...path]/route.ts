// The signing handler as a Next.js App Router route handler, answering /chatbot/*.
import { createSigningHandler, type SigningHandler } from 'chatbot-widget/server';

// Created on the first request, not at module load: `next build` loads this module too, and must
// succeed on a build machine that has no CHATBOT_* variables.
let handler: SigningHandler | undefined;

function chatbot(request: Request): Promise<Response> {
  handler ??= createSigningHandler({
    apiBaseUrl: process.env.CHATBOT_API_BASE_URL!, // ends in /api
    apiKey: process.env.CHATBOT_API_KEY!, // pk_…
    apiSecret: process.env.CHATBOT_API_SECRET!, // sk_…: stays on the server
    chatbotId: process.env.CHATBOT_ID!,
    // Route handlers get no client address, so name the header the platform sets. Vercel sets
    // x-real-ip (and x-forwarded-for) to the visitor's address and replaces what the visitor sent,
    // so it can be trusted there. Elsewhere use the header your host's proxy overwrites; with
    // `next start` facing the internet directly, any visitor can send these headers.
    clientAddress: (r) => r.headers.get('x-real-ip') ?? r.headers.get('x-forwarded-for')?.split(',')[0]?.trim(),
  });
  return handler(request);
}

export { chatbot as GET, chatbot as POST, chatbot as OPTIONS, chatbot as DELETE };
