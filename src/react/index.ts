/**
 * `chatbot-widget/react`: the widget as a React component (made with `@lit/react`), for React 18
 * and 19. Every attribute and property is a prop, set as a property (so `strings` works under
 * React 18 too, which sets only attributes on a plain custom element), and every event has an
 * `onChatbot…` prop typed with its `detail`. Importing it also registers the element and declares
 * `<chatbot-widget>` to JSX (./jsx.ts).
 *
 * @example
 * import { ChatbotWidget } from 'chatbot-widget/react';
 * <ChatbotWidget endpoint="/chatbot" strings={{ heading: 'Help' }} onChatbotReply={(e) => console.log(e.detail.text)} />
 */
import React from 'react';
import { createComponent, type EventName } from '@lit/react';
import { ChatbotWidget as ChatbotWidgetElement } from '../widget/index.js';
import type { ChatbotEventMap } from '../widget/events.js';
import type { EventPropName } from '../widget/template-types.js';
import './jsx.js';

type EventProps<Events> = { [Name in keyof Events & string as EventPropName<Name>]: EventName<Events[Name] & Event> };

/** The `@lit/react` events option for every event in `Events`: prop name to event name. */
function eventProps<Events>(names: ReadonlyArray<keyof Events & string>): EventProps<Events> {
  const propName = (name: string) => `on${name.replace(/(^|-)([a-z])/g, (_, _dash: string, letter: string) => letter.toUpperCase())}`;
  return Object.fromEntries(names.map((name) => [propName(name), name])) as unknown as EventProps<Events>;
}

/** Every event of the widget; the type below fails to compile when ChatbotEventMap gains one. */
const WIDGET_EVENTS = ['chatbot-open', 'chatbot-close', 'chatbot-send', 'chatbot-reply', 'chatbot-error', 'chatbot-feedback', 'chatbot-copy'] as const;
type Unlisted = Exclude<keyof ChatbotEventMap, (typeof WIDGET_EVENTS)[number]>;
const allListed: [Unlisted] extends [never] ? true : Unlisted = true;
void allListed;

/** A React component for one element class of this package. */
function wrap<Element extends HTMLElement, Events>(tagName: string, elementClass: { new (): Element }, events: ReadonlyArray<keyof Events & string>, displayName: string) {
  return createComponent({ react: React, tagName, elementClass, events: eventProps<Events>(events), displayName });
}

/** `<chatbot-widget>` as a React component: `<ChatbotWidget endpoint="/chatbot" onChatbotReply={…} />`. */
export const ChatbotWidget = wrap<ChatbotWidgetElement, ChatbotEventMap>('chatbot-widget', ChatbotWidgetElement, WIDGET_EVENTS, 'ChatbotWidget');

export type { ChatbotWidgetElement };
export type * from '../widget/events.js';
