/**
 * The standalone file, dist/chatbot-widget.js (`<script type="module" src="…/chatbot-widget.js">`):
 * registers `<chatbot-widget>` and `<chatbot-usage>` and exports the widget's class.
 * `<chatbot-usage>` is the site owner's element, so its class and registration are a chunk of
 * their own, fetched as this file runs rather than carried in every visitor's first load; the
 * element upgrades when they arrive (`customElements.whenDefined('chatbot-usage')` waits for it).
 * The package entry (index.ts) registers both at once and exports both classes.
 */
import { registerChatbotWidget } from '../chatbot-widget/register.js';

export { ChatbotWidget } from '../chatbot-widget/chatbot-widget.js';
export { registerChatbotWidget } from '../chatbot-widget/register.js';

registerChatbotWidget();
import('../chatbot-usage/register-usage.js')
  .then(({ registerChatbotUsage }) => registerChatbotUsage())
  .catch((error: unknown) => console.error('<chatbot-usage> could not be defined: its code did not load.', error));
