/**
 * The signing handler a widget configuration needs, for each place it is deployed: the code a
 * site owner adds to their server, with the base path the widget's `endpoint` names. Each is the
 * shape of the matching project in examples/ (the tests run them there). Pure: text in, text out.
 */
import type { StudioConfig } from './studio-config.js';

export type HandlerRuntime = 'express' | 'nextjs' | 'workers' | 'deno' | 'bun';

export const HANDLER_RUNTIMES: readonly { id: HandlerRuntime; label: string; file: string }[] = [
  { id: 'express', label: 'Express', file: 'server.js' },
  { id: 'nextjs', label: 'Next.js', file: 'app/chatbot/[...path]/route.ts' },
  { id: 'workers', label: 'Cloudflare Workers', file: 'src/index.ts' },
  { id: 'deno', label: 'Deno', file: 'main.ts' },
  { id: 'bun', label: 'Bun', file: 'server.ts' },
];

const DEFAULT_BASE_PATH = '/chatbot';

/** Where the handler answers: the path of the widget's `endpoint`, without a trailing slash. */
export function handlerBasePath(config: StudioConfig): string {
  const endpoint = typeof config.attributes.endpoint === 'string' ? config.attributes.endpoint : '';
  if (!endpoint) return DEFAULT_BASE_PATH;
  const path = endpoint.startsWith('/') ? endpoint.split(/[?#]/)[0]! : new URL(endpoint).pathname;
  return path.replace(/\/+$/, '') || DEFAULT_BASE_PATH;
}

/** An endpoint on another origin: the handler must name the site's origin to answer it. */
const crossOrigin = (config: StudioConfig) => /^https?:/.test(String(config.attributes.endpoint ?? ''));

/** The options every handler takes, read from the runtime's environment (`read('CHATBOT_ID')`). */
function handlerOptions(config: StudioConfig, read: (name: string) => string, indent: string): string {
  const base = handlerBasePath(config);
  const lines = [
    `apiBaseUrl: ${read('CHATBOT_API_BASE_URL')}, // ends in /api`,
    `apiKey: ${read('CHATBOT_API_KEY')}, // pk_…`,
    `apiSecret: ${read('CHATBOT_API_SECRET')}, // sk_…: stays on the server`,
    `chatbotId: ${read('CHATBOT_ID')},`,
    ...(base === DEFAULT_BASE_PATH ? [] : [`basePath: ${JSON.stringify(base)},`]),
    ...(crossOrigin(config) ? ["allowedOrigins: ['https://www.example.com'], // the site the widget is on"] : []),
  ];
  return lines.map((line) => indent + line).join('\n');
}

/** `pathname` is one the handler answers (its base path or below). */
const routeTest = (base: string) => `pathname === ${JSON.stringify(base)} || pathname.startsWith(${JSON.stringify(`${base}/`)})`;

function express(config: StudioConfig): string {
  return `import express from 'express';
import { createExpressHandler } from 'chatbot-widget/server/express';

const app = express();

// Before any body parser: the handler reads and caps request bodies itself.
app.use(
  createExpressHandler({
${handlerOptions(config, (name) => `process.env.${name}`, '    ')}
  }),
);
// Your site's own routes and files here (express.static('public') for the widget's files).

const port = Number(process.env.PORT ?? 3000);
app.listen(port, () => console.log(\`http://localhost:\${port}\`));
`;
}

function nextjs(config: StudioConfig): string {
  return `// app${handlerBasePath(config)}/[...path]/route.ts
import { createSigningHandler, type SigningHandler } from 'chatbot-widget/server';

// Created on the first request: \`next build\` loads this module without the CHATBOT_* variables.
let handler: SigningHandler | undefined;

function chatbot(request: Request): Promise<Response> {
  handler ??= createSigningHandler({
${handlerOptions(config, (name) => `process.env.${name}!`, '    ')}
    // Route handlers get no client address: name the header your platform overwrites (Vercel: x-real-ip).
    clientAddress: (r) => r.headers.get('x-real-ip'),
  });
  return handler(request);
}

export { chatbot as GET, chatbot as POST, chatbot as OPTIONS, chatbot as DELETE };
`;
}

function workers(config: StudioConfig): string {
  return `import { createSigningHandler, type SigningHandler } from 'chatbot-widget/server';
import { createDurableObjectStore, type ChatbotStoreNamespace } from 'chatbot-widget/server/cloudflare';

// The Durable Object class the CHATBOT_STORE binding of wrangler.toml names.
export { ChatbotStore } from 'chatbot-widget/server/cloudflare';

interface Env {
  CHATBOT_API_BASE_URL: string;
  CHATBOT_API_KEY: string;
  CHATBOT_API_SECRET: string; // wrangler secret put CHATBOT_API_SECRET
  CHATBOT_ID: string;
  CHATBOT_STORE: ChatbotStoreNamespace;
}

let handler: SigningHandler | undefined;

export default {
  fetch(request: Request, env: Env, ctx: { waitUntil(promise: Promise<unknown>): void }): Promise<Response> {
    const { pathname } = new URL(request.url);
    if (!(${routeTest(handlerBasePath(config))})) return Promise.resolve(new Response('Not found', { status: 404 }));
    handler ??= createSigningHandler({
${handlerOptions(config, (name) => `env.${name}`, '      ')}
      store: createDurableObjectStore(env.CHATBOT_STORE),
      clientAddress: (r) => r.headers.get('CF-Connecting-IP'),
    });
    const answer = handler(request);
    // A send handed to upstream is seen through even if the visitor leaves.
    ctx.waitUntil(answer);
    return answer;
  },
};
`;
}

function deno(config: StudioConfig): string {
  return `import { createSigningHandler } from 'chatbot-widget/server';
import { createDenoKvStore } from 'chatbot-widget/server/deno-kv';

// Deno KV: a local file here (CHATBOT_KV_PATH, or Deno's own folder), shared by every instance on Deno Deploy.
const kv = await Deno.openKv(Deno.env.get('CHATBOT_KV_PATH'));
const handler = createSigningHandler({
${handlerOptions(config, (name) => `Deno.env.get('${name}')!`, '  ')}
  store: createDenoKvStore(kv),
});

Deno.serve({ port: Number(Deno.env.get('PORT') ?? 8000) }, (request, info) => {
  const { pathname } = new URL(request.url);
  if (${routeTest(handlerBasePath(config))}) return handler(request, { clientAddress: info.remoteAddr.hostname });
  return new Response('Not found', { status: 404 }); // the rest of your site
});
`;
}

function bun(config: StudioConfig): string {
  return `import { createSigningHandler } from 'chatbot-widget/server';

const handler = createSigningHandler({
${handlerOptions(config, (name) => `process.env.${name}!`, '  ')}
});

Bun.serve({
  port: Number(process.env.PORT ?? 3000),
  fetch(request, server) {
    const { pathname } = new URL(request.url);
    if (${routeTest(handlerBasePath(config))}) return handler(request, { clientAddress: server.requestIP(request)?.address });
    return new Response('Not found', { status: 404 }); // the rest of your site
  },
});
`;
}

const BUILDERS: Record<HandlerRuntime, (config: StudioConfig) => string> = { express, nextjs, workers, deno, bun };

/** The handler for `runtime` that answers the widget `config` describes. */
export const handlerSnippet = (runtime: HandlerRuntime, config: StudioConfig): string => BUILDERS[runtime](config);
