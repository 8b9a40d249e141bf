import type { ChatbotEventMap } from './events.js';

/** The `detail` of a `<chatbot-widget>` event, by name. */
export type ChatbotEventDetail<K extends keyof ChatbotEventMap> = ChatbotEventMap[K] extends CustomEvent<infer D> ? D : never;

/**
 * Fires one of the widget's events the way all of them fire: bubbling and composed (a page can
 * listen on the element or any ancestor, across shadow roots), with a typed `detail`.
 * Returns false when a listener cancelled a cancelable event.
 */
export function emit<K extends keyof ChatbotEventMap>(
  target: EventTarget,
  type: K,
  detail: ChatbotEventDetail<K>,
  options: { cancelable?: boolean } = {},
): boolean {
  return target.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true, cancelable: options.cancelable ?? false }));
}
