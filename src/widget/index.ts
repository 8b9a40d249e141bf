/**
 * `chatbot-widget`: registers `<chatbot-widget>` and `<chatbot-usage>` and exports their classes,
 * event types and texts. `<chatbot-usage>`'s view (chart, lists, their styles) is a module of
 * its own, loaded when the first such element connects.
 *
 * @example
 * import 'chatbot-widget';
 * document.body.append(Object.assign(document.createElement('chatbot-widget'), { endpoint: '/chatbot' }));
 */
import { registerChatbotWidget } from './chatbot-widget/register.js';
import { registerChatbotUsage } from './chatbot-usage/register.js';

export { ChatbotWidget } from './chatbot-widget/chatbot-widget.js';
export { registerChatbotWidget } from './chatbot-widget/register.js';
export { ChatbotUsage } from './chatbot-usage/chatbot-usage.js';
export { registerChatbotUsage } from './chatbot-usage/register.js';
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

registerChatbotWidget();
registerChatbotUsage();
