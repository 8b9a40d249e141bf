/**
 * The message list (a live region): the button that loads older messages at its top, the
 * greeting or the empty line of a conversation with no messages, the bubbles of the slice drawn,
 * and the typing indicator (the bar above it while a past session is shown: viewing-bar.ts).
 */
import { html, nothing } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import type { ChatController } from '../conversation/chat-controller.js';
import { inertText } from '../../ui/inert-text.js';
import { renderGreeting } from './greeting.js';
import type { MessageList } from './message-list.js';
import { renderMessage, type MessageViewContext } from './message-view.js';

/** What the list draws from besides the conversation. */
export interface MessageListView {
  readonly chat: ChatController;
  readonly messages: MessageList;
  /** What each bubble needs (texts, times, copy and feedback buttons). */
  readonly bubble: MessageViewContext;
  /** The host's `greeting`, for an empty conversation. */
  readonly greeting: unknown;
  /** The conversation is empty and ready (no past session shown): the greeting or the empty line. */
  readonly empty: boolean;
}

export function renderMessageList(view: MessageListView) {
  const { chat, messages, bubble } = view;
  const { t } = bubble;
  const c = chat.conversation;
  const all = c.messages;
  const visible = messages.window.slice(all);
  const atTop = visible.length === 0 || visible[0]!.key === all[0]?.key;
  return html`<div part="messages" role="log" aria-live="polite" aria-relevant="additions" aria-label=${t.messagesLabel}
    tabindex="0" @scroll=${messages.onScroll}>
    ${
      atTop && c.hasOlder
        ? html`<button part="load-older" class="link-button" type="button" ?disabled=${c.loadingOlder}
          @click=${messages.loadOlder}>${c.loadingOlder ? t.loading : t.loadOlder}</button>`
        : nothing
    }
    ${view.empty ? (inertText(view.greeting).trim() ? renderGreeting(view.greeting, t) : html`<p class="empty">${t.emptyConversation}</p>`) : nothing}
    ${repeat(
      visible,
      (m) => m.key,
      (m) => renderMessage(m, bubble),
    )}
    ${
      chat.sender.typing && !c.viewing
        ? html`<div part="typing" role="status"><span class="sr-only">${t.typing}</span><span aria-hidden="true"></span><span aria-hidden="true"></span><span aria-hidden="true"></span></div>`
        : nothing
    }
  </div>`;
}
