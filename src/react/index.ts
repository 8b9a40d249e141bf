/**
 * `chatbot-widget/react`: the widget as a React component (made with `@lit/react`), for React 18
 * and 19. Every attribute and property is a prop, set as a property (so `strings` works under
 * React 18 too, which sets only attributes on a plain custom element), and every event has an
 * `onChatbot…` prop typed with its `detail`. Importing it also registers the element and declares
 * `<chatbot-widget>` and `<chatbot-usage>` to JSX (./jsx.ts).
 *
 * @example
 * import { ChatbotWidget } from 'chatbot-widget/react';
 * <ChatbotWidget endpoint="/chatbot" strings={{ heading: 'Help' }} onChatbotReply={(e) => console.log(e.detail.text)} />
 */
import React from 'react';
import { createComponent, type EventName } from '@lit/react';
import { ChatbotUsage as ChatbotUsageElement, ChatbotWidget as ChatbotWidgetElement } from '../widget/index.js';
import type { ChatbotEventMap } from '../widget/events.js';
import type { ChatbotUsageEventMap } from '../widget/chatbot-usage/usage-events.js';
import type { EventPropName } from '../widget/template-types.js';
import './jsx.js';

type EventProps<Events> = { [Name in keyof Events & string as EventPropName<Name>]: EventName<Events[Name] & Event> };

/**
 * A React component for one element class of this package. `events` names every event of the
 * element (a missing one fails to compile); each gets the prop `on` + its name in PascalCase.
 */
function wrap<Element extends HTMLElement, Events>(
  tagName: string,
  elementClass: { new (): Element },
  events: Record<keyof Events & string, true>,
  displayName: string,
) {
  const propName = (name: string) => `on${name.replace(/(^|-)([a-z])/g, (_, _dash: string, letter: string) => letter.toUpperCase())}`;
  const eventProps = Object.fromEntries(Object.keys(events).map((name) => [propName(name), name])) as unknown as EventProps<Events>;
  return createComponent({ react: React, tagName, elementClass, events: eventProps, displayName });
}

/** `<chatbot-widget>` as a React component: `<ChatbotWidget endpoint="/chatbot" onChatbotReply={…} />`. */
export const ChatbotWidget = wrap<ChatbotWidgetElement, ChatbotEventMap>(
  'chatbot-widget',
  ChatbotWidgetElement,
  {
    'chatbot-open': true,
    'chatbot-close': true,
    'chatbot-send': true,
    'chatbot-reply': true,
    'chatbot-error': true,
    'chatbot-feedback': true,
    'chatbot-copy': true,
  },
  'ChatbotWidget',
);

/** `<chatbot-usage>` as a React component: `<ChatbotUsage endpoint="/chatbot" adminToken={token} onChatbotError={…} />`. */
export const ChatbotUsage = wrap<ChatbotUsageElement, ChatbotUsageEventMap>(
  'chatbot-usage',
  ChatbotUsageElement,
  { 'chatbot-error': true },
  'ChatbotUsage',
);

export type { ChatbotWidgetElement, ChatbotUsageElement };
export type * from '../widget/events.js';
