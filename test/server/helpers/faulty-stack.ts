// The stack of the exactly-once tests, all real and over HTTP: the emulator (SQLite in memory,
// a counting echo reply source), the fault-injecting proxy in front of it, and the signing handler
// behind node:http in front of the proxy. The verdict is counted from upstream.
import { ChatbotClient } from '../../../src/client/index.js';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import type { SigningHandlerOptions } from '../../../src/server/index.js';
import { startFaultyUpstream, type FaultyUpstream, type FaultyUpstreamOptions } from '../../helpers/faulty-upstream.js';
import { jsonHeaders, rawRequest, startHandler, type RawResponse, type RunningHandler } from './handler-server.js';

export const STACK_BOT = { id: 'bot_once', apiKey: 'pk_once_key', apiSecret: 'sk_once_secret_0123456789abcdef' };

export interface FaultyStack {
  emulator: Emulator;
  proxy: FaultyUpstream;
  handler: RunningHandler;
  /** Times the reply source was asked. */
  replies(): number;
  /**
   * The chatbot's API client through the proxy, without retries: upstream as another server of
   * the site (or another tab's handler) calls it, on the stack's clock unless `now` is given.
   */
  client(now?: () => number): ChatbotClient;
  /** What upstream holds for `userId`, oldest first. */
  stored(userId: string): Promise<Array<{ id: string; senderType: string; text: string; createdAt: string }>>;
  /** `POST /chatbot/message` as `token`, with `key` as Idempotency-Key when given. */
  send(token: string, content: string, key?: string, headers?: Record<string, string>): Promise<RawResponse>;
  close(): Promise<void>;
}

export async function startFaultyStack(
  options: {
    dailyLimit?: number;
    proxy?: Omit<FaultyUpstreamOptions, 'target'>;
    handler?: Partial<SigningHandlerOptions>;
    /** How long the reply source takes for its `call`-th reply (from 1). Default: at once. */
    replyDelayMs?: (call: number) => number;
    /** Whether the reply source fails its `call`-th reply (upstream answers 500, stores nothing). Default: never. */
    replyFails?: (call: number) => boolean;
    /** The emulator's clock (give the handler the same one as `now`). Default: the real clock. */
    now?: () => number;
  } = {},
): Promise<FaultyStack> {
  let replies = 0;
  const emulator = createEmulator({
    db: ':memory:',
    ...(options.now ? { now: options.now } : {}),
    chatbots: [{ ...STACK_BOT, tier: 'enterprise', dailyLimit: options.dailyLimit ?? 10_000 }],
    replySource: {
      name: 'counting-echo',
      reply: async (request) => {
        replies++;
        const delay = options.replyDelayMs?.(replies) ?? 0;
        if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
        if (options.replyFails?.(replies)) throw new Error(`reply ${replies} fails on purpose`);
        return `Echo: ${request.content}`;
      },
    },
  });
  const server = await emulator.listen({ port: 0 });
  const proxy = await startFaultyUpstream({ target: server.url, ...options.proxy });
  const clientOf = (baseUrl: string, now = options.now) =>
    new ChatbotClient({
      baseUrl,
      apiKey: STACK_BOT.apiKey,
      apiSecret: STACK_BOT.apiSecret,
      chatbotId: STACK_BOT.id,
      retry: false,
      ...(now ? { now } : {}),
    });
  const handler = await startHandler(
    { baseUrl: proxy.baseUrl },
    { apiKey: STACK_BOT.apiKey, apiSecret: STACK_BOT.apiSecret, chatbotId: STACK_BOT.id, ...options.handler },
  );
  return {
    emulator,
    proxy,
    handler,
    replies: () => replies,
    client: (now) => clientOf(proxy.baseUrl, now),
    async stored(userId) {
      // Read straight from the emulator (not through the proxy or the handler): the verdict.
      const page = await clientOf(server.url).listMessages({ userId, pageSize: 100 });
      return [...page.data].reverse();
    },
    send: (token, content, key, headers = {}) =>
      rawRequest(handler.port, {
        method: 'POST',
        path: '/chatbot/message',
        headers: { ...jsonHeaders(token), ...(key === undefined ? {} : { 'Idempotency-Key': key }), ...headers },
        body: JSON.stringify({ content, name: 'Tester' }),
      }),
    async close() {
      await handler.close();
      await proxy.close();
      await server.close();
      emulator.close();
    },
  };
}
