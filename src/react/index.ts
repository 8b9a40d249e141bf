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
import { ChatbotUsage as ChatbotUsageElement, ChatbotWidget as ChatbotWidgetElement } from '../browser/index.js';
import type { ChatbotEventMap } from '../ui/events.js';
import type { ChatbotUsageEventMap } from '../chatbot-usage/usage-events.js';
import type { EventPropName } from '../browser/template-types.js';
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
  // The class the tag is defined with: another copy of the package (the standalone file) may have
  // defined it first, and only a defined class has its reactive properties' accessors, which tell
  // the component to set a prop as a property rather than as an attribute.
  const defined = (customElements.get(tagName) as { new (): Element } | undefined) ?? elementClass;
  return createComponent({ react: React, tagName, elementClass: defined, events: eventProps, displayName });
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
export type * from '../ui/events.js';
