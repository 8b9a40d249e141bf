// Serves the signing handler under Deno, as docs/deployment.md shows, for
// test/server/edge-runtimes.test.ts. Reads the upstream from the environment and prints
// `LISTENING <port>` once it accepts connections.
import { createSigningHandler } from '../../../src/server/index.js';

// Deno's own types are not part of this project's TypeScript setup.
declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(
    options: { port: number; hostname: string; onListen(address: { port: number }): void },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): unknown;
};

const handler = createSigningHandler({
  apiBaseUrl: Deno.env.get('CHATBOT_API_BASE_URL')!,
  apiKey: Deno.env.get('CHATBOT_API_KEY')!,
  apiSecret: Deno.env.get('CHATBOT_API_SECRET')!,
  chatbotId: Deno.env.get('CHATBOT_ID')!,
  limits: { visitorsPerMinutePerAddress: 3 },
});

Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log(`LISTENING ${port}`) }, (request, info) =>
  handler(request, { clientAddress: info.remoteAddr.hostname }),
);
