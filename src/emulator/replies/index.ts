/**
 * The emulator's reply sources: which one answers a visitor's message.
 *
 * By default, {@link createDefaultReplySource}: deterministic answers from the project's docs. With
 * the environment variables below set, {@link createReplySourceFromEnv} picks an OpenAI-compatible
 * chat-completions endpoint instead.
 */
import { createKnowledgeBaseReplySource, type KnowledgeBaseReplySource } from './knowledge-base.js';
import { createOpenAIReplySource } from './openai.js';
import type { ReplySource } from './types.js';

export type { ReplyHistoryItem, ReplyRequest, ReplySource } from './types.js';
export { createKnowledgeBaseReplySource } from './knowledge-base.js';
export type { KnowledgeBaseOptions, KnowledgeBaseReplySource } from './knowledge-base.js';
export { createOpenAIReplySource, buildChatMessages, DEFAULT_SYSTEM_PROMPT } from './openai.js';
export type { OpenAIReplySourceOptions, ChatCompletionMessage } from './openai.js';

/**
 * The default reply source: the knowledge base of the project's docs.
 *
 * @param options.docs Markdown files to answer from; default `README.md` and `docs/*.md` of the
 *   project root.
 * @example
 * const replies = createDefaultReplySource();
 * const text = await replies.reply({ content: 'How do I embed the widget?', history: [], … });
 */
export function createDefaultReplySource(options: { docs?: string[] } = {}): KnowledgeBaseReplySource {
  return createKnowledgeBaseReplySource(options.docs ? { docs: options.docs } : {});
}

/** The environment variables {@link createReplySourceFromEnv} reads, each with its generic fallback. */
const REPLY_ENV = {
  baseUrl: { own: 'CHATBOT_EMULATOR_OPENAI_BASE_URL', fallback: 'OPENAI_BASE_URL' },
  model: { own: 'CHATBOT_EMULATOR_OPENAI_MODEL', fallback: 'OPENAI_MODEL' },
  apiKey: { own: 'CHATBOT_EMULATOR_OPENAI_API_KEY', fallback: 'OPENAI_API_KEY' },
} as const;

/** A setting's two variables: the emulator's own, read first, and the generic one. */
type EnvNames = (typeof REPLY_ENV)[keyof typeof REPLY_ENV];

/**
 * The reply source the environment asks for.
 *
 * - `CHATBOT_EMULATOR_REPLIES=knowledge-base` forces the default source, whatever else is set.
 * - An OpenAI-compatible endpoint when a base URL, a model and an API key are all set: each read from
 *   `CHATBOT_EMULATOR_OPENAI_BASE_URL` / `_MODEL` / `_API_KEY`, falling back to `OPENAI_BASE_URL` /
 *   `OPENAI_MODEL` / `OPENAI_API_KEY`. `CHATBOT_EMULATOR_OPENAI_TIMEOUT_MS` and
 *   `CHATBOT_EMULATOR_OPENAI_SYSTEM_PROMPT` are optional.
 * - Otherwise the default source. Setting only some of the `CHATBOT_EMULATOR_OPENAI_*` three is a
 *   mistake and throws, naming what is missing; a lone `OPENAI_API_KEY` in a shell is simply ignored.
 *
 * @example
 * // CHATBOT_EMULATOR_OPENAI_BASE_URL=http://127.0.0.1:11434/v1 CHATBOT_EMULATOR_OPENAI_MODEL=llama3.2
 * // CHATBOT_EMULATOR_OPENAI_API_KEY=ollama npm run emulator
 * const replies = createReplySourceFromEnv(); // replies.name === 'openai:llama3.2'
 */
export function createReplySourceFromEnv(env: Record<string, string | undefined> = process.env): ReplySource {
  const choice = env.CHATBOT_EMULATOR_REPLIES?.trim();
  if (choice === 'knowledge-base') return createDefaultReplySource();
  if (choice) throw new Error(`CHATBOT_EMULATOR_REPLIES must be "knowledge-base" or unset, got ${JSON.stringify(choice)}.`);

  const read = (names: EnvNames): string | undefined => env[names.own]?.trim() || env[names.fallback]?.trim() || undefined;
  const baseUrl = read(REPLY_ENV.baseUrl);
  const model = read(REPLY_ENV.model);
  const apiKey = read(REPLY_ENV.apiKey);

  if (baseUrl && model && apiKey) {
    const timeout = env.CHATBOT_EMULATOR_OPENAI_TIMEOUT_MS?.trim();
    const timeoutMs = timeout ? Number(timeout) : undefined;
    if (timeoutMs !== undefined && !(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
      throw new Error(`CHATBOT_EMULATOR_OPENAI_TIMEOUT_MS must be a positive number of milliseconds, got ${JSON.stringify(timeout)}.`);
    }
    const systemPrompt = env.CHATBOT_EMULATOR_OPENAI_SYSTEM_PROMPT?.trim() || undefined;
    return createOpenAIReplySource({
      baseUrl,
      model,
      apiKey,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(systemPrompt ? { systemPrompt } : {}),
    });
  }

  const own = Object.values(REPLY_ENV).map((names) => names.own);
  const setOwn = own.filter((name) => env[name]?.trim());
  if (setOwn.length > 0) {
    const missing = Object.values(REPLY_ENV)
      .filter((names) => !read(names))
      .map((names) => names.own);
    throw new Error(
      `The emulator's OpenAI-compatible replies need ${own.join(', ')} all set; missing ${missing.join(', ')}. ` +
        'Unset them all to use the built-in knowledge base.',
    );
  }
  return createDefaultReplySource();
}
