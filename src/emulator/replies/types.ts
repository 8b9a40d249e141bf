/**
 * A reply source answers a visitor's message for the emulator. Sources are pluggable: the
 * default draws deterministic answers from a knowledge base of the project's docs; another calls
 * any OpenAI-compatible chat-completions endpoint.
 */

/** One earlier message of the session, oldest first, given to sources that use context. */
export interface ReplyHistoryItem {
  senderType: string;
  text: string;
}

export interface ReplyRequest {
  chatbotId: string;
  userId: string;
  userName: string;
  sessionId: string;
  /** The message being answered. */
  content: string;
  file?: string | null;
  /** Recent messages of the session before this one, oldest first (at most a handful). */
  history: ReplyHistoryItem[];
}

export interface ReplySource {
  /** A short name for logs and the start-up banner, e.g. `knowledge-base` or `openai:gpt-4o-mini`. */
  readonly name: string;
  /** The reply text; rejects with an Error whose message says what went wrong (the emulator answers 500). */
  reply(request: ReplyRequest, signal?: AbortSignal): Promise<string>;
}
