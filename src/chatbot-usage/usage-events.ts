/**
 * The event of `<chatbot-usage>`: `chatbot-error`, the same name and kinds as the chat widget's, so
 * one listener on `document` hears both. It bubbles and crosses shadow roots (`composed`).
 *
 * @example
 * usage.addEventListener('chatbot-error', (event) => report(event.detail.message));
 */
import type { ChatbotErrorDetail } from '../ui/events.js';

/**
 * `chatbot-error` of `<chatbot-usage>`: one event per failed load (a first view that needs several
 * admin routes fails once, not once a route). `message` is the line shown in the `error` part,
 * written for the site owner: what happened and what to change. `kind` is `identity` when the
 * admin token is missing or refused (403: wrong, out of date, or admin access off at the
 * handler), `rejected` for a range the form or upstream refuses, `rate-limited` for a quota,
 * `server` / `timeout` when the handler cannot get an answer from upstream, `unreachable` /
 * `offline` when the handler itself cannot be reached.
 */
export interface ChatbotUsageErrorDetail extends ChatbotErrorDetail {
  /** The admin route that failed, e.g. `admin/messages/count-by-month`; '' for a refused range. */
  route: string;
}

export interface ChatbotUsageEventMap {
  'chatbot-error': CustomEvent<ChatbotUsageErrorDetail>;
}
