/**
 * Events of `<chatbot-widget>`. All bubble and cross shadow roots (`composed`), so a host can
 * listen on the element or on any ancestor:
 *
 * @example
 * widget.addEventListener('chatbot-reply', (event) => console.log(event.detail.text));
 */

/** `chatbot-open`: the panel was shown. */
export type ChatbotOpenDetail = Record<string, never>;
/** `chatbot-close`: the panel was hidden. */
export type ChatbotCloseDetail = Record<string, never>;

/** `chatbot-send`: a visitor's message is about to be queued. Cancelable: `preventDefault()` drops it. */
export interface ChatbotSendDetail {
  text: string;
  /** The attachment URL, when there is one. */
  file?: string;
  /** Local id of the message until the server has confirmed it. */
  localId: string;
}

/** `chatbot-reply`: the assistant answered a message. */
export interface ChatbotReplyDetail {
  /** The reply text (Markdown). */
  text: string;
  /** Local id of the visitor message it answers. */
  localId: string;
}

/**
 * What kind of failure a `chatbot-error` reports. `offline`: no answer and the browser has no
 * connection (`navigator.onLine` false). `unreachable`: no answer although the browser is online:
 * the handler is down, `endpoint` is wrong, or the page's origin is not in the handler's
 * `allowedOrigins` (the browser then withholds the answer). `signed-out`: the handler speaks for
 * the site's own login (`identify`) and the page's request is not signed in.
 */
export type ChatbotErrorKind = 'offline' | 'unreachable' | 'timeout' | 'rate-limited' | 'server' | 'rejected' | 'identity' | 'signed-out';

/** `chatbot-error`: a request failed; `message` is the text shown in the `error` part. */
export interface ChatbotErrorDetail {
  kind: ChatbotErrorKind;
  message: string;
  /** HTTP status, 0 when no answer arrived. */
  status: number;
  /** Seconds to wait before trying again, on `rate-limited`. */
  retryAfter?: number;
  /** Local id of the message whose send failed, when the failure was a send. */
  localId?: string;
}

/** `chatbot-feedback`: the visitor rated a bot message with thumbs up or down. */
export interface ChatbotFeedbackDetail {
  /** Id of the rated bot message. */
  messageId: string;
  value: 'up' | 'down';
}

/** `chatbot-copy`: the visitor copied a bot message's text. */
export interface ChatbotCopyDetail {
  /** Id of the copied bot message. */
  messageId: string;
}

/** Every event of `<chatbot-widget>`, by name, with its `detail`. */
export interface ChatbotEventMap {
  'chatbot-open': CustomEvent<ChatbotOpenDetail>;
  'chatbot-close': CustomEvent<ChatbotCloseDetail>;
  'chatbot-send': CustomEvent<ChatbotSendDetail>;
  'chatbot-reply': CustomEvent<ChatbotReplyDetail>;
  'chatbot-error': CustomEvent<ChatbotErrorDetail>;
  'chatbot-feedback': CustomEvent<ChatbotFeedbackDetail>;
  'chatbot-copy': CustomEvent<ChatbotCopyDetail>;
}

declare global {
  interface GlobalEventHandlersEventMap extends ChatbotEventMap {}
}
