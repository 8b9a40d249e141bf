import { ChatbotWidget } from './chatbot-widget.js';

/**
 * Defines the widget under `tagName` (default `chatbot-widget`) and returns the class defined.
 * Calling it for a name already defined returns that name's class (a page may load both the
 * standalone file and the package). A constructor can be defined under one name only, so a name
 * after the first gets its own subclass of `ChatbotWidget`.
 *
 * @example
 * registerChatbotWidget('support-chat'); // then <support-chat endpoint="/chatbot"></support-chat>
 */
export function registerChatbotWidget(tagName = 'chatbot-widget'): CustomElementConstructor {
  const existing = customElements.get(tagName);
  if (existing) return existing;
  try {
    customElements.define(tagName, ChatbotWidget);
  } catch (error) {
    if ((error as DOMException).name !== 'NotSupportedError') throw error;
    customElements.define(tagName, class extends ChatbotWidget {});
  }
  return customElements.get(tagName)!;
}
