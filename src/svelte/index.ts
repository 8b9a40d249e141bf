/**
 * `chatbot-widget/svelte`: registers `<chatbot-widget>` and declares it to Svelte's type-checker
 * (`svelte-check`) in `svelte/elements`: its attributes, the `strings` property, and
 * `onchatbot-…` event attributes (Svelte 5) with their `detail` types.
 *
 * @example
 * <script lang="ts">import 'chatbot-widget/svelte';</script>
 * <chatbot-widget endpoint="/chatbot" strings={{ heading: 'Help' }} onchatbot-reply={(e) => console.log(e.detail.text)}></chatbot-widget>
 */
import type { HTMLAttributes } from 'svelte/elements';
import type { ChatbotWidget } from '../chatbot-widget/chatbot-widget.js';
import type { ChatbotUsage } from '../chatbot-usage/chatbot-usage.js';
import type { ChatbotUsageEventMap } from '../chatbot-usage/usage-events.js';
import type {
  ChatbotEventAttributes,
  ChatbotUsageAttributes,
  ChatbotWidgetAttributes,
  ChatbotWidgetProperties,
} from '../browser/template-types.js';
export * from '../browser/index.js';

declare module 'svelte/elements' {
  export interface SvelteHTMLElements {
    'chatbot-widget': HTMLAttributes<ChatbotWidget> &
      ChatbotWidgetAttributes &
      Pick<ChatbotWidgetProperties, 'strings'> &
      ChatbotEventAttributes;
    'chatbot-usage': HTMLAttributes<ChatbotUsage> & ChatbotUsageAttributes & ChatbotEventAttributes<ChatbotUsageEventMap>;
  }
}
