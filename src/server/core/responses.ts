/**
 * Every answer of the handler is JSON in the upstream envelope shape, never cached, never
 * sniffed. Error texts are written for the visitor: what happened and what to do next.
 */

/** Headers every response carries. */
const BASE_HEADERS: Record<string, string> = {
  'Content-Type': 'application/json; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
};

/** A JSON response with the handler's fixed headers plus `extra`. */
export function json(status: number, body: unknown, extra: Record<string, string> = {}): Response {
  return jsonText(status, JSON.stringify(body), extra);
}

/** A JSON response whose body is already JSON text (a recorded outcome, answered byte for byte). */
export function jsonText(status: number, text: string, extra: Record<string, string> = {}): Response {
  return new Response(text, { status, headers: { ...BASE_HEADERS, ...extra } });
}

/** An error envelope: `{ data: null, error: message }`. */
export function failure(status: number, message: string, extra: Record<string, string> = {}): Response {
  return json(status, { data: null, error: message }, extra);
}

/** A thrown answer: code deep in a route can stop the request with a ready response. */
export class HandlerAnswer extends Error {
  readonly response: Response;
  constructor(response: Response) {
    super(`handler answered ${response.status}`);
    this.response = response;
    this.name = 'HandlerAnswer';
  }
}

/** Throws an error envelope as the request's answer. */
export function refuse(status: number, message: string, extra: Record<string, string> = {}): never {
  throw new HandlerAnswer(failure(status, message, extra));
}

/** Messages the visitor may see, one place so tests and docs agree. */
export const TEXT = {
  notFound: 'There is nothing at this address.',
  badPath: 'This address is not valid.',
  methodNotAllowed: 'This address does not accept that method.',
  noIdentity: 'Your chat identity is missing or has expired. Reload the page to start again.',
  notLoggedIn: 'Sign in to use the chat.',
  forbiddenOrigin: 'This site may not use this chat service.',
  adminDenied: 'Admin access is not allowed for this request.',
  notJson: 'Send Content-Type: application/json (the body may be empty for /visitor)',
  tooLarge: 'The request is too large.',
  badJson: 'The request body is not valid JSON.',
  bodyUnreadable: 'The request body could not be read completely. Please try again.',
  messageNotFound: 'That message was not found.',
  tooManySends: 'You are sending messages too quickly. Please wait a moment and try again.',
  dailyLimit: 'You have reached the message limit for today. Please come back tomorrow.',
  tooManyVisitors: 'Too many new chats from your network. Please wait a minute and try again.',
  upstreamBusy: 'The chatbot is busy right now. Please try again later.',
  upstreamDown: 'The chatbot service cannot be reached right now. Please try again in a moment.',
  upstreamTimeout: 'The chatbot took too long to answer. Please try again.',
  upstreamConfig: 'The chat service is not set up correctly. The site owner has been told; please try again later.',
  internal: 'Something went wrong on this server. Please try again.',
  storeFull: 'The chat service is busy right now. Please try again in a minute.',
  storeDown: 'The chat service is temporarily unavailable. Please try again in a moment.',
  keyTakenOver: 'Your message could not be confirmed yet. Please try again in a moment.',
  loneSurrogateMessage:
    'Your message contains a broken character (half of an emoji or other symbol) that cannot be sent. Remove it and send again.',
  loneSurrogateName: 'Your name contains a broken character (half of an emoji or other symbol). Remove it and send again.',
  badIdempotencyKey: 'The Idempotency-Key header must be 1 to 128 characters, each a letter (A-Z, a-z), a digit, "_" or "-".',
  tooManySendsFromAddress: 'Too many messages from your network right now. Please wait a minute and try again.',
  addressDailyLimit: 'Your network has reached its message limit for today. Please come back tomorrow.',
  tooManyRevocations: 'Too many chats were reset today. This one could not be closed on the server yet; please try again tomorrow.',
} as const;

/**
 * The answer to the base path itself (`/chatbot`, `/chatbot/`): `npm start` prints that address,
 * so whoever opens it learns what runs there instead of seeing an error about the address.
 */
export function handlerIndex(basePath: string): string {
  return (
    `This is the chatbot signing handler. The widget calls POST ${basePath}/visitor, POST ${basePath}/message, ` +
    `GET ${basePath}/sessions, GET ${basePath}/messages.`
  );
}
