/** What every step of the request pipeline may use: the store, the chatbots, the clock, the reply source. */
import type { ChatbotConfig } from './config.js';
import type { ReplySource } from './replies/types.js';
import type { EmulatorStore } from './store/types.js';

export interface EmulatorContext {
  store: EmulatorStore;
  /** Chatbots by id. */
  chatbots: ReadonlyMap<string, ChatbotConfig>;
  /** Chatbots by API key. */
  keys: ReadonlyMap<string, ChatbotConfig>;
  /** Clock in ms: the quota day, the timestamp window and the session rule all read it. */
  now: () => number;
  basePath: string;
  /** The reply source, loaded on first use. */
  replySource: () => Promise<ReplySource>;
  countTokens: (text: string) => number;
}

/** A successful (or envelope-shaped) answer of a handler. */
export interface HandlerResult {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}
