/**
 * The base of every error `ChatbotClient` throws, so a caller can catch the client's failures
 * in one place and tell them from its own bugs:
 *
 * @example
 * try {
 *   await client.listMessages();
 * } catch (error) {
 *   if (error instanceof ChatbotHttpError && error.status === 404) … // a typed upstream answer
 *   else if (error instanceof ChatbotError) … // network, timeout, malformed answer
 *   else throw error;
 * }
 *
 * The underlying failure (a `fetch` TypeError, a JSON SyntaxError) is kept as `cause`.
 * No message ever contains the API secret: the client never puts it anywhere but into the HMAC.
 */
export class ChatbotError extends Error {
  override name = 'ChatbotError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
