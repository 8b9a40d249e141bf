/**
 * `chatbot-widget`: registers `<chatbot-widget>` and exports its class, event types and texts.
 *
 * @example
 * import 'chatbot-widget';
 * document.body.append(Object.assign(document.createElement('chatbot-widget'), { endpoint: '/chatbot' }));
 */
import { registerChatbotWidget } from './chatbot-widget/register.js';

export { ChatbotWidget } from './chatbot-widget/chatbot-widget.js';
export { registerChatbotWidget } from './chatbot-widget/register.js';
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
export { defaultStrings, type WidgetStrings } from './strings.js';
export { de } from './locales/de.js';

registerChatbotWidget();
