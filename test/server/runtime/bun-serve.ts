// Serves the signing handler under Bun, as docs/deployment.md shows, for
// test/server/edge-runtimes.test.ts. Reads the upstream from the environment and prints
// `LISTENING <port>` once it accepts connections.
import { createSigningHandler } from '../../../src/server/index.js';

// Bun's own types are not part of this project's TypeScript setup.
declare const Bun: {
  serve(options: {
    port: number;
    hostname: string;
    fetch(request: Request, server: { requestIP(request: Request): { address: string } | null }): Promise<Response>;
  }): { port: number };
};

const env = process.env;
const handler = createSigningHandler({
  apiBaseUrl: env.CHATBOT_API_BASE_URL!,
  apiKey: env.CHATBOT_API_KEY!,
  apiSecret: env.CHATBOT_API_SECRET!,
  chatbotId: env.CHATBOT_ID!,
  limits: { visitorsPerMinutePerAddress: 3 },
});

const server = Bun.serve({
  port: 0,
  hostname: '127.0.0.1',
  fetch: (request, server) => handler(request, { clientAddress: server.requestIP(request)?.address }),
});
console.log(`LISTENING ${server.port}`);
