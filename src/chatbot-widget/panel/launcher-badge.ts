/**
 * The launcher's unread badge as a Lit reactive controller: a bot reply that arrives while the
 * visitor cannot see the conversation in this tab is counted (in every tab of the site); the
 * count clears once they can, on opening the panel, coming back to the tab, or when another tab
 * counted a reply this one shows.
 */
import type { ReactiveController } from 'lit';
import type { ChatController } from '../conversation/chat-controller.js';
import { formatCount, plural } from '../../ui/format-text.js';
import type { PanelHost } from './panel-host.js';

/** The launcher's unread badge, as the element draws it. */
export interface UnreadBadge {
  /** The number on the badge. */
  shown: string;
  /** What the launcher's description announces. */
  announced: string;
}

export class LauncherBadge implements ReactiveController {
  /** Whether the panel was open at the last update (opening it clears the count). */
  #open = false;

  readonly #host: PanelHost;
  readonly #chat: ChatController;
  constructor(host: PanelHost, chat: ChatController) {
    this.#host = host;
    this.#chat = chat;

    host.addController(this);
  }

  /**
   * Bot replies no tab has shown yet, as the badge shows their number (up to 99, then 99+, in the
   * language's digits) and as it is announced; undefined when none are.
   */
  get badge(): UnreadBadge | undefined {
    const count = this.#chat.unread.count;
    if (!count) return undefined;
    const { text, formatTag } = this.#host;
    return {
      shown: `${formatCount(Math.min(count, 99), formatTag)}${count > 99 ? '+' : ''}`,
      announced: plural(text, 'unreadBadge', count, formatTag),
    };
  }

  /** Whether the visitor can see the conversation in this tab now. */
  get #seen() {
    return this.#host.isShown && document.visibilityState === 'visible';
  }

  /** A reply arrived: unread unless the visitor is looking. */
  readonly #onReply = () => {
    if (!this.#seen) void this.#chat.unread.add();
  };

  /** Back to a tab showing the panel: what arrived meanwhile is seen now. */
  readonly #onVisibility = () => {
    if (this.#seen) void this.#chat.unread.clear();
  };

  hostConnected() {
    // Replies a refresh brought (an agent's answer given meanwhile, say) count as they arrive too.
    this.#chat.conversation.onReplies = (count) => {
      if (!this.#seen) void this.#chat.unread.add(count);
    };
    this.#host.addEventListener('chatbot-reply', this.#onReply);
    document.addEventListener('visibilitychange', this.#onVisibility);
  }

  hostDisconnected() {
    this.#host.removeEventListener('chatbot-reply', this.#onReply);
    document.removeEventListener('visibilitychange', this.#onVisibility);
  }

  hostUpdated() {
    const opened = this.#host.open && !this.#open;
    this.#open = this.#host.open;
    // Opened: cleared even at a count of 0 here, as this tab's count may be behind the stored one.
    // Shown: another tab counted a reply this one shows.
    if (opened || (this.#chat.unread.count > 0 && this.#seen)) void this.#chat.unread.clear();
  }
}
