/**
 * `chatbot-widget`: registers `<chatbot-widget>` and `<chatbot-usage>` and exports their classes
 * and types. `<chatbot-usage>`'s view (chart, lists, their styles) is a module of its own, loaded
 * when the first such element connects. No language's texts are exported, English's neither: an
 * export is a static import, which would put them in every app's first chunk; each language is a
 * chunk of the app's bundle, fetched only by a page that shows it (docs/languages.md).
 *
 * @example
 * import 'chatbot-widget';
 * document.body.append(Object.assign(document.createElement('chatbot-widget'), { endpoint: '/chatbot' }));
 */
// Both elements, registered as this module loads: an app's bundler splits what it needs.
import { registerChatbotWidget } from '../chatbot-widget/register.js';
import { registerChatbotUsage } from '../chatbot-usage/register-usage.js';

export { ChatbotWidget } from '../chatbot-widget/chatbot-widget.js';
export { registerChatbotWidget } from '../chatbot-widget/register.js';
export { ChatbotUsage } from '../chatbot-usage/chatbot-usage.js';
export { registerChatbotUsage } from '../chatbot-usage/register-usage.js';
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
} from '../ui/events.js';
export type { ChatbotUsageErrorDetail, ChatbotUsageEventMap } from '../chatbot-usage/usage-events.js';
export type { WidgetStrings } from '../ui/strings.js';

registerChatbotWidget();
registerChatbotUsage();
