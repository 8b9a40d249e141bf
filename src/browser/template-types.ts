/**
 * The types framework templates check `<chatbot-widget>` against: its attributes as written in
 * markup, its properties, and its event handlers. The React, Vue and Svelte entries
 * (`chatbot-widget/react`, `/vue`, `/svelte`) declare the element to their template compilers with
 * these (docs/frameworks.md).
 */
import type { ChatbotWidget } from '../chatbot-widget/chatbot-widget.js';
import type { ChatbotEventMap } from '../ui/events.js';
import type { ChatbotUsage } from '../chatbot-usage/chatbot-usage.js';

/** The attributes of `<chatbot-widget>` as written in markup (kebab-case), with their types. */
export interface ChatbotWidgetAttributes {
  endpoint?: string;
  heading?: string;
  open?: boolean;
  mode?: ChatbotWidget['mode'];
  side?: ChatbotWidget['side'];
  'user-name'?: string;
  placeholder?: string;
  theme?: ChatbotWidget['theme'];
  'page-size'?: number | `${number}`;
  lang?: string;
  attachments?: boolean;
  greeting?: string;
  /** A JSON array of strings: `suggestions='["Pricing?", "Opening hours?"]'`. */
  suggestions?: string;
  /** `same-origin` (default) or `include`: what each call to the handler carries (cookies for its `identify`). */
  credentials?: ChatbotWidget['credentials'];
}

/** Every property of `<chatbot-widget>` a template may set, including `strings` (no attribute). */
export type ChatbotWidgetProperties = Partial<
  Pick<
    ChatbotWidget,
    | 'endpoint'
    | 'heading'
    | 'open'
    | 'mode'
    | 'side'
    | 'userName'
    | 'placeholder'
    | 'theme'
    | 'pageSize'
    | 'lang'
    | 'strings'
    | 'attachments'
    | 'greeting'
    | 'suggestions'
    | 'credentials'
  >
>;

/** The attributes of `<chatbot-usage>` as written in markup. */
export interface ChatbotUsageAttributes {
  endpoint?: string;
  'admin-token'?: string;
  from?: string;
  to?: string;
  theme?: ChatbotUsage['theme'];
}

/** Every property of `<chatbot-usage>` a template may set. */
export type ChatbotUsageProperties = Partial<Pick<ChatbotUsage, 'endpoint' | 'adminToken' | 'from' | 'to' | 'theme'>>;

/** `chatbot-reply` → `ChatbotReply`. */
type Pascal<Name extends string> = Name extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${Pascal<Tail>}` : Capitalize<Name>;

/** `chatbot-reply` → `onChatbotReply`: the name of an event's handler prop. */
export type EventPropName<Name extends string> = `on${Pascal<Name>}`;

/** Handler props named `onChatbotOpen`, `onChatbotReply`, … (React components, Vue templates). */
export type ChatbotEventProps<Events = ChatbotEventMap> = {
  [Name in keyof Events & string as EventPropName<Name>]?: (event: Events[Name]) => void;
};

/** Handler attributes named `onchatbot-open`, `onchatbot-reply`, … (Svelte 5 event attributes). */
export type ChatbotEventAttributes<Events = ChatbotEventMap> = {
  [Name in keyof Events & string as `on${Name}`]?: (event: Events[Name]) => void;
};
