import { ChatbotError } from './chatbot-error.js';

/**
 * No whole answer arrived within `timeoutMs` (per attempt). Reads are retried on it. For a
 * send the message may or may not have been stored upstream; list the session's messages
 * before sending it again.
 */
export class ChatbotTimeoutError extends ChatbotError {
  override name = 'ChatbotTimeoutError';

  readonly url: string;
  readonly timeoutMs: number;

  constructor(url: string, timeoutMs: number, options?: { cause?: unknown }) {
    super(`The chatbot API at ${url} did not answer within ${timeoutMs} ms`, options);
    this.url = url;
    this.timeoutMs = timeoutMs;
  }
}
