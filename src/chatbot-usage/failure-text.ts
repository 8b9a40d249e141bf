/**
 * The sentence `<chatbot-usage>` shows (and sends in `chatbot-error`) when an admin call fails:
 * written for the site owner, saying what happened and what to change.
 */
import type { Envelope, ValidationProblem } from '../shared/types.js';
import type { ChatbotErrorKind } from '../ui/events.js';
import { inertText } from '../ui/inert-text.js';

export interface FailureFacts {
  kind: ChatbotErrorKind;
  status: number;
  /** The handler's base URL the element called. */
  base: string;
  retryAfter?: number | undefined;
  /** The server's own words, when it sent some. */
  said?: string | undefined;
}

/** Turning admin access on, in the words of the two ways to do it. */
export const HOW_TO_ENABLE_ADMIN =
  'The site owner turns admin access on by setting CHATBOT_ADMIN_TOKEN for npm start, or the authorizeAdmin option of createSigningHandler (e.g. adminTokenAuthorizer(token)), and gives this page that token.';

/** The text of an error body: an envelope's `error`, else a validation body's first message. */
export function serverWords(body: unknown): string {
  if (!body || typeof body !== 'object') return '';
  const { error, title, errors } = body as Partial<Envelope<unknown>> & Partial<ValidationProblem>;
  if (typeof error === 'string' && error) return inertText(error);
  if (errors && typeof errors === 'object') {
    const first = Object.values(errors).flat()[0];
    if (typeof first === 'string') return inertText(first);
  }
  return typeof title === 'string' ? inertText(title) : '';
}

export function failureText({ kind, status, base, retryAfter, said }: FailureFacts): string {
  const quoted = said ? ` The server said: “${said.slice(0, 300)}”` : '';
  switch (kind) {
    case 'identity':
      return `Admin access refused (HTTP ${status}): either the admin token is wrong or out of date, or admin access is off at the handler. ${HOW_TO_ENABLE_ADMIN}`;
    case 'offline':
      return 'This browser is offline: the usage figures load again once it is back online.';
    case 'unreachable':
      return `The signing handler at ${base} cannot be reached: check that the server is running and that the endpoint attribute is its base path (e.g. /chatbot).`;
    case 'timeout':
      return `The chatbot API took too long to answer${status ? ` (HTTP ${status})` : ''}. Try again in a moment, or a shorter range.`;
    case 'rate-limited':
      return `Too many requests (HTTP 429): the chatbot's quota or the handler's limit is reached.${retryAfter ? ` Try again in ${retryAfter} s.` : ' Try again later.'}`;
    case 'server':
      if (status >= 200 && status < 300) {
        return `The answer from ${base} is not the signing handler's: check that the endpoint attribute is the handler's base path (e.g. /chatbot).`;
      }
      return status === 502
        ? "The handler cannot get an answer from the chatbot API (HTTP 502): it is down, or the handler's upstream settings (CHATBOT_API_BASE_URL, key, secret, chatbot id) are wrong; the server log says which."
        : `The handler failed (HTTP ${status}); its log says why. Try again in a moment.`;
    default:
      if (status === 404) {
        return `There are no admin routes at ${base} (HTTP 404): check that the endpoint attribute is the handler's base path (e.g. /chatbot).${quoted}`;
      }
      return `The request was refused (HTTP ${status}).${quoted}`;
  }
}
