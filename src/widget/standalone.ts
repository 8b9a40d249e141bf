/**
 * The standalone file, dist/chatbot-widget.js (`<script type="module" src="…/chatbot-widget.js">`):
 * registers `<chatbot-widget>` and `<chatbot-usage>` and exports their classes. Unlike the package
 * entry (index.ts) it does not export the English texts, which would pull them into the first
 * load; they are fetched with the panel's code on a page in English.
 */
import { registerChatbotWidget } from './chatbot-widget/register.js';
import { registerChatbotUsage } from './chatbot-usage/register.js';

export { ChatbotWidget } from './chatbot-widget/chatbot-widget.js';
export { registerChatbotWidget } from './chatbot-widget/register.js';
export { ChatbotUsage } from './chatbot-usage/chatbot-usage.js';
export { registerChatbotUsage } from './chatbot-usage/register.js';

registerChatbotWidget();
registerChatbotUsage();
