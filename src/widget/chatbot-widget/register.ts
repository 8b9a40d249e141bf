import { ChatbotWidget } from './chatbot-widget.js';

/** Defines `<chatbot-widget>` once, so loading the module twice (bundle and package) is harmless. */
export function registerChatbotWidget(tagName = 'chatbot-widget') {
  if (!customElements.get(tagName)) customElements.define(tagName, ChatbotWidget);
}
