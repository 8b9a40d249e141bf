/**
 * `chatbot-widget/vue`: registers `<chatbot-widget>` and declares it to Vue's template type-checker
 * (`vue-tsc`, Volar) through `GlobalComponents`: its properties (kebab-case in templates works too)
 * and `@chatbot-…` events with their `detail` types. Vue itself must be told the tag is a custom
 * element: `compilerOptions.isCustomElement` in the Vue plugin's template options (docs/frameworks.md).
 *
 * @example
 * import 'chatbot-widget/vue';
 * // <chatbot-widget endpoint="/chatbot" :strings="{ heading: 'Help' }" @chatbot-reply="onReply" />
 */
import type { DefineComponent } from 'vue';
import type { ChatbotUsageEventMap } from '../chatbot-usage/usage-events.js';
import type { ChatbotEventProps, ChatbotUsageProperties, ChatbotWidgetProperties } from '../browser/template-types.js';
export * from '../browser/index.js';

declare module 'vue' {
  interface GlobalComponents {
    'chatbot-widget': DefineComponent<ChatbotWidgetProperties & ChatbotEventProps>;
    'chatbot-usage': DefineComponent<ChatbotUsageProperties & ChatbotEventProps<ChatbotUsageEventMap>>;
  }
}
