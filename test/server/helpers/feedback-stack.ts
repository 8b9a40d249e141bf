// The handler for real in front of the real emulator over HTTP, both on one clock the test moves,
// with what the feedback tests do through them: ask a question (and learn the ids upstream stored),
// rate an answer, read the admin routes.
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { adminTokenAuthorizer, MemoryStore, type SigningHandlerOptions } from '../../../src/server/index.js';
import { jsonHeaders, newVisitor, rawRequest, startHandler, type RawResponse, type RunningHandler } from './handler-server.js';

export const FEEDBACK_BOT = {
  id: 'bot_fb',
  apiKey: 'pk_feedback_key',
  apiSecret: 'sk_feedback_secret_0123456789',
  tier: 'premium' as const,
};
export const FEEDBACK_ADMIN_TOKEN = 'feedback-admin-token-0123456789';

export interface FeedbackStack {
  /** The clock of both the emulator and the handler, in Unix ms. */
  clock: { now: number };
  /** The emulator upstream, for messages only a seed can store (other senders, other cases). */
  emulator: Emulator;
  store: MemoryStore;
  handler: RunningHandler;
  /** A visitor asks; resolves to the ids of their question and of the bot's answer. */
  ask(token: string, content?: string): Promise<{ questionId: string; answerId: string; sessionId: string }>;
  rate(token: string | undefined, body: unknown, headers?: Record<string, string>): Promise<RawResponse>;
  /** GET an admin route with the admin token (or the headers given). */
  admin(path: string, headers?: Record<string, string>): Promise<RawResponse>;
  visitor(): Promise<{ token: string; userId: string }>;
  close(): Promise<void>;
}

export async function startFeedbackStack(start: number, options: Partial<SigningHandlerOptions> = {}): Promise<FeedbackStack> {
  const clock = { now: start };
  const now = () => clock.now;
  const emulator: Emulator = createEmulator({
    db: ':memory:',
    chatbots: [FEEDBACK_BOT],
    now,
    replySource: { name: 'echo', reply: async (request) => `Echo: ${request.content}` },
  });
  const upstream = await emulator.listen({ port: 0 });
  const store = new MemoryStore({ now });
  const handler = await startHandler(
    { baseUrl: upstream.url },
    {
      apiKey: FEEDBACK_BOT.apiKey,
      apiSecret: FEEDBACK_BOT.apiSecret,
      chatbotId: FEEDBACK_BOT.id,
      authorizeAdmin: adminTokenAuthorizer(FEEDBACK_ADMIN_TOKEN),
      limits: { sendsPerMinute: 1000, sendsPerDay: 1000, sendsPerMinutePerAddress: 1000, dailyQuotaSharePerAddress: 1 },
      store,
      now,
      ...options,
    },
  );
  let keys = 0;
  return {
    clock,
    emulator,
    store,
    handler,
    async ask(token, content = 'What does the widget do?') {
      const response = await rawRequest(handler.port, {
        method: 'POST',
        path: '/chatbot/message',
        headers: { ...jsonHeaders(token), 'Idempotency-Key': `ask-${++keys}` },
        body: JSON.stringify({ content }),
      });
      if (response.status !== 200 || !response.json.stored) throw new Error(`the send answered ${response.status}: ${response.text}`);
      const [question, answer] = response.json.stored as { id: string; chatSessionId: string }[];
      return { questionId: question!.id, answerId: answer!.id, sessionId: answer!.chatSessionId };
    },
    rate: (token, body, headers = {}) =>
      rawRequest(handler.port, {
        method: 'POST',
        path: '/chatbot/feedback',
        headers: { ...jsonHeaders(token), ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    admin: (path, headers = { 'X-Admin-Token': FEEDBACK_ADMIN_TOKEN }) =>
      rawRequest(handler.port, { path: `/chatbot/admin${path}`, headers }),
    visitor: () => newVisitor(handler.port),
    async close() {
      await handler.close();
      await upstream.close();
      emulator.close();
    },
  };
}
