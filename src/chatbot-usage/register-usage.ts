import { ChatbotUsage } from './chatbot-usage.js';

/**
 * Defines `<chatbot-usage>` once, so loading the module twice (bundle and package) is harmless.
 * Another tag name gets its own subclass: one constructor can be defined only once.
 */
export function registerChatbotUsage(tagName = 'chatbot-usage') {
  if (customElements.get(tagName)) return;
  customElements.define(tagName, tagName === 'chatbot-usage' ? ChatbotUsage : class extends ChatbotUsage {});
}
