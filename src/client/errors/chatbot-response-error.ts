import { ChatbotError } from './chatbot-error.js';

/**
 * The upstream answered with a success status but a body the client cannot use: not JSON, or
 * JSON without the envelope shape the endpoint documents. Usually a wrong base URL (a web page
 * or a proxy answering instead of the API). Never retried: asking again would get the same.
 */
export class ChatbotResponseError extends ChatbotError {
  override name = 'ChatbotResponseError';

  readonly url: string;
  readonly status: number;
  /** The start of the body as received, at most 200 characters, for diagnosis. */
  readonly bodySnippet: string;

  constructor(url: string, status: number, problem: string, body: string, options?: { cause?: unknown }) {
    super(`The chatbot API at ${url} answered ${status} with ${problem}; check the base URL`, options);
    this.url = url;
    this.status = status;
    this.bodySnippet = body.slice(0, 200);
  }
}
