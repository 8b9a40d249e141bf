/**
 * `<chatbot-widget>` in JSX for React 18 and 19: in the `react` module's JSX namespace (what the
 * automatic runtime, `jsx: "react-jsx"`, reads) and in the global one (what React 18's classic
 * runtime reads). Attributes are typed (a wrong value fails to compile); for events and for
 * properties under React 18, use the `ChatbotWidget` component of `chatbot-widget/react`.
 */
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { ChatbotWidget } from '../chatbot-widget/chatbot-widget.js';
import type { ChatbotUsage } from '../chatbot-usage/chatbot-usage.js';
import type { ChatbotUsageAttributes, ChatbotWidgetAttributes, ChatbotWidgetProperties } from '../browser/template-types.js';

/** The props of `<chatbot-widget>` in JSX. */
export type ChatbotWidgetJsxProps = DetailedHTMLProps<HTMLAttributes<ChatbotWidget>, ChatbotWidget> &
  ChatbotWidgetAttributes &
  Pick<ChatbotWidgetProperties, 'strings'>;

/** The props of `<chatbot-usage>` in JSX. */
export type ChatbotUsageJsxProps = DetailedHTMLProps<HTMLAttributes<ChatbotUsage>, ChatbotUsage> & ChatbotUsageAttributes;

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'chatbot-widget': ChatbotWidgetJsxProps;
      'chatbot-usage': ChatbotUsageJsxProps;
    }
  }
}

declare global {
  namespace JSX {
    interface IntrinsicElements {
      'chatbot-widget': ChatbotWidgetJsxProps;
      'chatbot-usage': ChatbotUsageJsxProps;
    }
  }
}
