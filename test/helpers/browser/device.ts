/**
 * The page of another device (devices.mjs, device.html): a `<chatbot-widget>` driven through
 * `window.device`, as its visitor would use it.
 */
import '../../../src/browser/index.js';
import type { ChatbotWidget } from '../../../src/browser/index.js';

let widget: ChatbotWidget | undefined;

function shown(): ChatbotWidget {
  if (!widget) throw new Error('no widget mounted on this device');
  return widget;
}

const device = {
  /** An inline widget on `endpoint`. */
  async mount(endpoint: string) {
    widget = document.createElement('chatbot-widget');
    widget.setAttribute('endpoint', endpoint);
    widget.setAttribute('mode', 'inline');
    document.body.append(widget);
    await widget.updateComplete;
  },
  /** Sends `text`; resolves with the reply's text once it arrived. */
  async send(text: string): Promise<string> {
    const el = shown();
    const reply = new Promise<string>((resolve) =>
      el.addEventListener('chatbot-reply', (event) => resolve((event as CustomEvent<{ text: string }>).detail.text), { once: true }),
    );
    await el.send(text);
    return reply;
  },
  /** The texts of the message bubbles shown. */
  bubbles(): string[] {
    return [...shown().shadowRoot!.querySelectorAll('[part~="message"] .bubble')].map((bubble) =>
      bubble.textContent!.replace(/^\s*(You|Assistant):/, '').trim(),
    );
  },
};

declare global {
  interface Window {
    device: typeof device;
  }
}
window.device = device;
