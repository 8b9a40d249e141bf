/**
 * The standalone file, dist/chatbot-widget.js (`<script type="module" src="…/chatbot-widget.js">`):
 * registers `<chatbot-widget>` and `<chatbot-usage>` and exports their classes. The package entry
 * (index.ts) is this and the types.
 */
import { registerChatbotWidget } from '../chatbot-widget/register.js';
import { registerChatbotUsage } from '../chatbot-usage/register.js';

export { ChatbotWidget } from '../chatbot-widget/chatbot-widget.js';
export { registerChatbotWidget } from '../chatbot-widget/register.js';
export { ChatbotUsage } from '../chatbot-usage/chatbot-usage.js';
export { registerChatbotUsage } from '../chatbot-usage/register.js';

registerChatbotWidget();
registerChatbotUsage();
