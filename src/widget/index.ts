/**
 * `chatbot-widget`: registers `<chatbot-widget>` and `<chatbot-usage>` and exports their classes,
 * event types and texts. `<chatbot-usage>`'s view (chart, lists, their styles) is a module of
 * its own, loaded when the first such element connects.
 *
 * @example
 * import 'chatbot-widget';
 * document.body.append(Object.assign(document.createElement('chatbot-widget'), { endpoint: '/chatbot' }));
 */
// The elements, registered and exported, as the standalone file has them.
export { ChatbotWidget, registerChatbotWidget, ChatbotUsage, registerChatbotUsage } from './standalone.js';
export type {
  ChatbotOpenDetail,
  ChatbotCloseDetail,
  ChatbotSendDetail,
  ChatbotReplyDetail,
  ChatbotErrorDetail,
  ChatbotErrorKind,
  ChatbotFeedbackDetail,
  ChatbotCopyDetail,
  ChatbotEventMap,
} from './events.js';
export type { ChatbotUsageErrorDetail, ChatbotUsageEventMap } from './chatbot-usage/usage-events.js';
export type { WidgetStrings } from './strings.js';
/** The English texts: the default language. */
export { strings as defaultStrings } from './locales/en.js';
