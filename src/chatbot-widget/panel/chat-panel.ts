/**
 * The panel of `<chatbot-widget>`: everything behind the launcher. Its code (the conversation's
 * controllers, IndexedDB, Markdown) is a chunk of its own, loaded on first open
 * or when the page is idle, so the script a page includes only defines the element and draws
 * the launcher (docs/embedding.md, "How it loads"). The history pane and the transcript's
 * download are lazier chunks still, fetched when the page is idle after the panel opens
 * (idle-preload.ts).
 *
 * Building it adds the panel's reactive controllers to the element, each working in the
 * element's own lifecycle (Lit calls a controller added to a connected element at once): the
 * conversation, its link to the endpoint, the message list, the quota's clock, the launcher's
 * badge, focus, the announcer and the snapshot policy; the history pane's joins with its code
 * (history-pane-state.ts). What is left here is what ties them together: the element's methods
 * the panel answers, and the panel's regions drawn in order.
 */
import { html, nothing } from 'lit';
import { ChatController } from '../conversation/chat-controller.js';
import { emit } from '../../ui/emit.js';
import { hasLoneSurrogate } from '../../shared/well-formed.js';
import type { WidgetStrings } from '../../ui/strings.js';
import { Announcer } from './announcer.js';
import { Composer } from './composer.js';
import { ConversationLink } from './conversation-link.js';
import { CopyButtons } from './copy-button.js';
import { describeFailure } from './error-text.js';
import { FeedbackButtons } from './feedback.js';
import { renderSuggestions } from './greeting.js';
import { HistoryPaneState } from './history-pane-state.js';
import { IdlePreload } from './idle-preload.js';
import { LauncherBadge, type UnreadBadge } from './launcher-badge.js';
import { MessageList } from './message-list.js';
import { renderMessageList, type MessageListView } from './message-list-view.js';
import { PanelFocus } from './panel-focus.js';
import { renderPanelHeader } from './panel-header.js';
import type { PanelHost } from './panel-host.js';
import { panelStyles } from './panel.styles.js';
import { QuotaClock, quotaExhausted } from './quota.js';
import { QUOTA_NOTICE_ID, quotaText, renderQuotaNotice, type QuotaWords } from './quota-notice.js';
import { SnapshotPolicy } from './snapshot-policy.js';
import { TimeFormat } from './time-format.js';

export { panelStyles };
export type { PanelHost, UnreadBadge };

export class ChatPanel {
  readonly chat: ChatController;
  readonly #time: TimeFormat;
  readonly #link: ConversationLink;
  readonly #messages: MessageList;
  readonly #history: HistoryPaneState;
  readonly #badge: LauncherBadge;
  readonly #composer: Composer;
  readonly #announcer: Announcer;
  readonly #copy: CopyButtons;
  readonly #feedback: FeedbackButtons;

  readonly #host: PanelHost;
  constructor(host: PanelHost) {
    this.#host = host;

    this.#time = new TimeFormat(() => host.formatTag);
    this.chat = new ChatController(host, (failure, localId) => {
      this.#copy.failed = false; // the error line says the newest thing that went wrong
      const detail = describeFailure(host.text, failure, localId, (resetAt) => quotaText(this.#quotaWords, 0, resetAt));
      emit(host, 'chatbot-error', detail);
      return detail;
    });
    // In the order they work in each update: the conversation connects first (and may take
    // the first-paint record's messages), then the list finds the slice to draw.
    this.#link = new ConversationLink(host, this.chat, this.#time, () => {
      this.#messages.window.follow();
      this.#messages.window.narrowNextPaint();
    });
    this.#messages = new MessageList(host, this.chat);
    this.#history = new HistoryPaneState(host, this.chat, this.#messages);
    this.#badge = new LauncherBadge(host, this.chat);
    new QuotaClock(host, () => this.chat.quota);
    this.#composer = new Composer(
      host,
      (text, file) => void this.send(text, file),
      () => (quotaExhausted(this.chat.quota) ? quotaText(this.#quotaWords, 0, this.chat.quota.resetAt) : undefined),
    );
    this.#announcer = new Announcer(host);
    this.#copy = new CopyButtons(host, this.#announcer, (messageId) => emit(host, 'chatbot-copy', { messageId }));
    this.#feedback = new FeedbackButtons(host, this.chat, this.#announcer);
    new PanelFocus(host, this.#composer, this.#history);
    new SnapshotPolicy(host, this.chat, this.#history, this.#messages);
    new IdlePreload(host, [() => this.#history.load(), () => import('./transcript-download.js')]);
  }

  /** The launcher's unread badge, undefined when no reply is unread. */
  get unreadBadge(): UnreadBadge | undefined {
    return this.#badge.badge;
  }

  get #quotaWords(): QuotaWords {
    return { t: this.#host.text, time: this.#time, formatTag: this.#host.formatTag };
  }

  /** Queues a message as the visitor (see `ChatbotWidget.send`). */
  async send(text: string, file?: string): Promise<string | undefined> {
    // A send from the page's script is refused as the composer refuses it: said in the `error` part.
    if (hasLoneSurrogate(text)) return void this.#composer.refuse(this.#host.text.brokenCharacter);
    await this.#link.connect();
    this.#messages.window.follow();
    return this.chat.send(text, file);
  }

  /** Saves a conversation as Markdown (see `ChatbotWidget.downloadTranscript`). */
  async downloadTranscript(sessionId?: string): Promise<void> {
    await this.#link.connect();
    const { downloadTranscript } = await import('./transcript-download.js');
    return downloadTranscript(this.chat, this.#host, sessionId);
  }

  /** Forgets the visitor (see `ChatbotWidget.reset`). */
  async reset(): Promise<void> {
    this.#composer.clear();
    this.#history.forget();
    this.#messages.window.follow();
    await this.chat.reset();
  }

  /** The header's download button: nothing to save yet is no error worth showing the visitor. */
  readonly #onDownload = () => void this.downloadTranscript().catch(() => undefined);

  readonly #dismissError = () => {
    this.#copy.failed = false;
    this.#composer.refusal = '';
    this.chat.dismissError();
  };

  /** The error line: the newest thing that went wrong (a copy, a refused send, a request), and its dismissal. */
  #renderError(t: WidgetStrings) {
    const error = (this.#copy.failed && t.copyFailed) || this.#composer.refusal || this.chat.error?.message;
    return error
      ? html`<div part="error" role="alert"><span>${error}</span>
        <button type="button" @click=${this.#dismissError}>${t.dismiss}</button></div>`
      : nothing;
  }

  /** The panel's contents (the element draws the panel itself, and the launcher). */
  render() {
    const host = this.#host;
    const t = host.text;
    const { chat } = this;
    const c = chat.conversation;
    // Signed out, the greeting and the prompts would invite a message that cannot be sent: the
    // panel shows only why (the sign-in line).
    const empty = c.messages.length === 0 && chat.ready && !c.viewing && !chat.signedOut;
    const list: MessageListView = {
      chat,
      messages: this.#messages,
      greeting: host.greeting,
      empty,
      bubble: {
        dir: host.textDirection,
        t,
        time: this.#time,
        retry: (key) => void chat.retry(key),
        copy: this.#copy,
        feedback: this.#feedback,
      },
    };
    return html`${renderPanelHeader({
      t,
      heading: host.heading,
      floating: host.mode !== 'inline',
      historyOpen: this.#history.open,
      downloadable: c.messages.length > 0,
      toggleHistory: this.#history.toggle,
      download: this.#onDownload,
      close: () => host.hide(),
    })}
      <div class="body">
        ${this.#history.render({
          t,
          time: this.#time,
          formatTag: host.formatTag,
          shownSessionId: c.viewing ?? c.current?.sessionId,
        })}
        <!-- Under the open history pane the conversation is inert: no focus, nothing read out. -->
        <div class="chat" ?inert=${this.#history.open}>
          ${this.#history.renderViewingBar({ t, time: this.#time })} ${renderMessageList(list)}
          ${empty ? renderSuggestions(host.suggestions, t, quotaExhausted(chat.quota), (text) => void this.send(text)) : nothing}
          ${renderQuotaNotice(this.#quotaWords, chat.quota)} ${this.#renderError(t)} ${this.#composer.render(t, QUOTA_NOTICE_ID)}
        </div>
        ${this.#announcer.render()}
      </div>`;
  }
}
