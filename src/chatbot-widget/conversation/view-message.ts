/** The bubbles the element renders, built from server messages and from the outbox. */
import type { Message } from '../../shared/types.js';
import type { OutboxEntry } from './outbox.js';
import { senderKind, unknownSender, type SenderKind } from '../sender-kind.js';

/** One bubble of the message list. */
export interface ViewMessage {
  /** Server id, or the local id until the server copy is known. */
  key: string;
  sender: SenderKind;
  /** A sender the widget does not know (drawn as the assistant's), as upstream names it. */
  unknownSender?: string;
  text: string;
  url?: string;
  createdAt: string;
  state: 'sent' | 'pending' | 'failed';
  /** A reply whose server id cannot be learned (the handler named nothing it stored): no thumbs until its server copy shows. */
  unratable?: boolean;
  /** The outbox entry behind a pending or failed bubble. */
  entry?: OutboxEntry;
}

const views = new WeakMap<Message, ViewMessage>();

/** The bubble of a server message (memoized: the list is rebuilt on every render). */
export function toView(message: Message): ViewMessage {
  let view = views.get(message);
  if (!view) {
    view = {
      key: message.id,
      sender: senderKind(message.senderType),
      text: message.text,
      url: message.url,
      createdAt: message.createdAt,
      state: 'sent',
    };
    const unknown = unknownSender(message.senderType);
    if (unknown) view.unknownSender = unknown;
    views.set(message, view);
  }
  return view;
}
