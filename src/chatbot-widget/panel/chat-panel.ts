/**
 * The panel of `<chatbot-widget>`: everything behind the launcher. Its code (the conversation's
 * controllers, IndexedDB, Markdown, the history pane) is a chunk of its own, loaded on first open
 * or when the page is idle, so the script a page includes only defines the element and draws
 * the launcher (docs/embedding.md, "How it loads").
 */
import { html, nothing, type PropertyValues } from 'lit';
import { repeat } from 'lit/directives/repeat.js';
import { ChatController } from '../controllers/chat-controller.js';
import { afterNextPaint } from '../../ui/after-paint.js';
import { emit } from '../../ui/emit.js';
import { endpointBase } from '../../ui/endpoint-base.js';
import { keepSnapshot } from '../controllers/first-paint-record.js';
import { inertText } from '../../ui/inert-text.js';
import { hasLoneSurrogate } from '../../shared/well-formed.js';
import { format, formatCount, plural } from '../../ui/format-text.js';
import type { WidgetStrings } from '../../ui/strings.js';
import { closeIcon } from '../icons.js';
import { historyIcon } from './icons.js';
import { Announcer } from './announcer.js';
import { ScrollableCode } from './code-blocks.js';
import { Composer } from './composer.js';
import { CopyButtons } from './copy-button.js';
import { describeFailure } from './error-text.js';
import { FeedbackButtons } from './feedback.js';
import { FocusTrap } from './focus-trap.js';
import { renderGreeting, renderSuggestions } from './greeting.js';
import { renderHistoryPane } from './history-pane.js';
import { HistorySearch } from './history-search.js';
import { renderMessage, type MessageViewContext } from './message-view.js';
import type { PanelHost } from './panel-host.js';
import { panelStyles } from './panel.styles.js';
import { snapshotOf } from './take-snapshot.js';
import { dayWindow, QuotaClock, quotaExhausted } from './quota.js';
import { TimeFormat } from './time-format.js';
import { downloadIcon, downloadTranscript } from './transcript-download.js';
import type { SearchHit } from '../search/search-index.js';
import { MessageWindow } from './windowing.js';

export { panelStyles };
export type { PanelHost };

/** The launcher's unread badge, as the element draws it (the panel counts the replies). */
export interface UnreadBadge {
  /** The number on the badge. */
  shown: string;
  /** What the launcher's description announces. */
  announced: string;
}

/** The `quota-notice` shows when this many sends or fewer are left of the day's budget. */
const QUOTA_NOTICE_AT = 3;

export class ChatPanel {
  readonly chat: ChatController;
  readonly #window: MessageWindow;
  readonly #time: TimeFormat;
  readonly #composer: Composer;
  readonly #codeBlocks: ScrollableCode;
  readonly #announcer: Announcer;
  readonly #copy: CopyButtons;
  readonly #feedback: FeedbackButtons;
  readonly #quotaClock: QuotaClock;
  readonly #search: HistorySearch;
  #historyOpen = false;
  /** A search result being opened: its message is shown, scrolled to and focused once rendered. */
  #revealing: { key: string; shown: boolean } | undefined;
  #connectedEndpoint: string | undefined;
  #sessionObserver: IntersectionObserver | undefined;

  readonly #host: PanelHost;
  constructor(host: PanelHost) {
    this.#host = host;

    this.chat = new ChatController(host, (failure, localId) => {
      this.#copy.failed = false; // the error line says the newest thing that went wrong
      const detail = describeFailure(host.text, failure, localId, (resetAt) => this.#quotaText(host.text, 0, resetAt));
      emit(host, 'chatbot-error', detail);
      return detail;
    });
    this.#window = new MessageWindow(
      host,
      () => this.chat.conversation,
      () => host.pageSize,
    );
    this.#time = new TimeFormat(() => host.formatTag);
    this.#composer = new Composer(
      host,
      (text, file) => void this.send(text, file),
      () => (quotaExhausted(this.chat.quota) ? this.#quotaText(host.text, 0, this.chat.quota.resetAt) : undefined),
    );
    this.#announcer = new Announcer(host);
    this.#copy = new CopyButtons(host, this.#announcer, (messageId) => emit(host, 'chatbot-copy', { messageId }));
    this.#feedback = new FeedbackButtons(host, this.chat, this.#announcer);
    this.#quotaClock = new QuotaClock(host);
    this.#codeBlocks = new ScrollableCode(() => host.text.codeBlock);
    this.#search = new HistorySearch(host, () => this.chat.cachedConversations());
    this.chat.conversation.onReplies = (count) => {
      if (!this.#seen) void this.chat.unread.add(count);
    };
    // The first paint fills the panel the element has drawn, measured while its layout is still
    // the last frame's (before the panel's styles join), so measuring costs nothing.
    const panel = this.#part('panel');
    if (panel) this.#window.measured(panel.clientHeight, panel.clientWidth);
    this.#listen(true);
    new FocusTrap(host, {
      active: () => host.mode === 'floating' && host.open,
      container: () => this.#part('panel'),
      alwaysFocusable: () => this.#composer.input,
      onEscape: () => {
        if (this.#historyOpen) {
          // Back to the button that opened the pane (the disclosure pattern): focus on a row of
          // the pane would fall to the page's body once the pane hides, out of the widget.
          this.#part('history-button')?.focus();
          this.#historyOpen = false;
          host.requestUpdate();
        } else {
          host.hide();
          void host.updateComplete.then(() => host.focusLauncher());
        }
      },
    });
  }

  /**
   * The launcher's unread badge: bot replies no tab has shown yet, as the badge shows their number
   * (up to 99, then 99+, in the language's digits) and as it is announced; undefined when none are.
   */
  get unreadBadge(): UnreadBadge | undefined {
    const count = this.chat.unread.count;
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
    if (!this.#seen) void this.chat.unread.add();
  };

  /**
   * Back to a tab showing the panel: what arrived meanwhile is seen now. Hidden (another tab, or
   * the page going: a reload, a link): the panel as shown is the next load's first paint.
   */
  readonly #onVisibility = () => {
    if (this.#seen) void this.chat.unread.clear();
    else if (document.hidden) this.#keepSnapshot();
  };

  /**
   * Keeps the panel as shown for the next load to paint before its code is here
   * (panel-snapshot.ts), if that code draws the same first: the current conversation at its end,
   * as its first-paint record holds it, nothing unsent or awaiting its reply, nothing open or said
   * over it. Otherwise the record keeps no snapshot.
   */
  #keepSnapshot() {
    const { chat } = this;
    const list = this.#list;
    const panel = this.#part('panel');
    const plain =
      this.#host.isShown &&
      !this.#historyOpen &&
      !chat.conversation.viewing &&
      this.#window.following &&
      !chat.sender.entries.length &&
      !chat.sender.typing &&
      !this.#part('error') &&
      !this.#part('quota-notice');
    // What is not in view is left out: what is hidden (the history pane, its search results), and
    // the bubbles scrolled out of view above (the first paint lays out what it shows).
    const seen = (node: Node) =>
      !(node as HTMLElement).hidden &&
      (node.parentNode !== list || (node as HTMLElement).offsetTop + (node as HTMLElement).offsetHeight > list!.scrollTop);
    keepSnapshot(endpointBase(this.#host.endpoint), chat.conversation.current, plain && panel ? snapshotOf(panel, seen) : undefined);
  }

  #listen(on: boolean) {
    const method = on ? 'addEventListener' : 'removeEventListener';
    this.#host[method]('chatbot-reply', this.#onReply);
    document[method]('visibilitychange', this.#onVisibility);
  }

  #part(name: string) {
    return this.#host.renderRoot.querySelector<HTMLElement>(`[part="${name}"]`) ?? undefined;
  }

  get #list() {
    return this.#part('messages');
  }

  /** Queues a message as the visitor (see `ChatbotWidget.send`). */
  async send(text: string, file?: string): Promise<string | undefined> {
    // A send from the page's script is refused as the composer refuses it: said in the `error` part.
    if (hasLoneSurrogate(text)) return void this.#composer.refuse(this.#host.text.brokenCharacter);
    await this.#connectIfNeeded();
    this.#window.follow();
    return this.chat.send(text, file);
  }

  /** Saves a conversation as Markdown (see `ChatbotWidget.downloadTranscript`). */
  async downloadTranscript(sessionId?: string): Promise<void> {
    await this.#connectIfNeeded();
    return downloadTranscript(this.chat, this.#host, sessionId);
  }

  /** Forgets the visitor (see `ChatbotWidget.reset`). */
  async reset(): Promise<void> {
    this.#composer.clear();
    this.#historyOpen = false;
    this.#window.follow();
    await this.chat.reset();
  }

  /** The element was attached again: the conversation reconnects on the next update. */
  connected() {
    this.#connectedEndpoint = undefined;
    this.#listen(true);
  }

  disconnected() {
    this.#listen(false);
    this.#sessionObserver?.disconnect();
    this.#codeBlocks.disconnect();
    this.#connectedEndpoint = undefined;
  }

  #connectIfNeeded() {
    const host = this.#host;
    if (this.#connectedEndpoint === host.endpoint) return Promise.resolve();
    this.#connectedEndpoint = host.endpoint;
    this.#window.follow();
    this.#window.narrowNextPaint();
    const connecting = this.chat.connect(host.endpoint, host.isShown);
    // Shown with nothing to draw yet, the formatters are built while IndexedDB reads the cache.
    // Bubbles from the first-paint record are drawn in this very task: its render builds the one
    // shape they need, the other waits for an idle moment.
    this.#time.prepare(host.isShown && this.chat.conversation.messages.length === 0);
    return connecting;
  }

  /** The element's `willUpdate`: connects, and remembers what the visitor is looking at. */
  willUpdate(changed: PropertyValues) {
    const host = this.#host;
    // Lit keeps updating a detached element when asked (a late async continuation, a property
    // set by the page): only an attached one may connect, or a removed widget would come back to
    // life and write its stale view over what other tabs and elements stored since.
    if (host.isConnected && (changed.has('endpoint') || this.#connectedEndpoint === undefined)) void this.#connectIfNeeded();
    // Closed, the panel stays drawn (hidden) so that opening only lays it out and paints it: it
    // waits with the newest bubbles, as few as fill the panel.
    if (changed.has('open') && !host.open && changed.get('open')) {
      this.chat.history.stopPrefetch();
      this.#window.follow();
      this.#window.narrowNextPaint();
    }
    if (host.isShown) this.#window.rememberAnchor(this.#list);
    const revealing = this.#revealing;
    if (revealing && !revealing.shown && this.chat.conversation.messages.some((m) => m.key === revealing.key)) {
      this.#window.reveal(revealing.key);
      revealing.shown = true;
    }
  }

  /** The element's `updated`: scroll position, observers, code blocks, the wider window. */
  updated(changed: PropertyValues) {
    const host = this.#host;
    if (changed.has('mode') && host.mode === 'inline' && changed.get('mode') !== undefined) void this.chat.conversation.revalidate();
    // Hidden, nothing is measured: every measure would lay out the page for a panel not seen.
    if (!host.isShown) return;
    const list = this.#list;
    this.#window.restoreScroll(list);
    // Laid out by now (restoring the scroll position measured it): what the next first paint fills.
    if (list) this.#window.measured(list.clientHeight, list.clientWidth);
    this.#focusRevealed(list);
    this.#observeSessions();
    this.#codeBlocks.update(
      list,
      this.#window.rendered.map((m) => m.key),
    );
    this.#window.widenAfterPaint();
    // Another tab counted a reply this one shows: it is seen.
    if (this.chat.unread.count > 0 && this.#seen) void this.chat.unread.clear();
  }

  /**
   * The panel was shown: fresh messages, the newest in view, focus in the field (floating).
   * `built`: the panel was built for this opening (created open, or opened before its code was
   * here): the field takes focus once the first frame is painted, as focusing lays out the page.
   */
  opened(built = false) {
    // A panel not connected yet refreshes when it connects (shown). Otherwise the refresh is
    // asked once the opened panel is on screen: building the request would delay that frame.
    if (this.#connectedEndpoint !== undefined) void afterNextPaint().then(() => this.chat.conversation.revalidate());
    void this.chat.unread.clear();
    this.#window.follow();
    if (this.#host.mode === 'floating')
      void (built ? afterNextPaint() : this.#host.updateComplete).then(() => this.#composer.input?.focus());
  }

  /** Infinite scroll of the history pane: the last row coming into view loads the next page. */
  #observeSessions() {
    const sentinel = this.#host.renderRoot.querySelector('.sessions-end');
    this.#sessionObserver?.disconnect();
    if (!sentinel || !this.#historyOpen) return;
    this.#sessionObserver ??= new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void this.chat.history.loadMore();
    });
    this.#sessionObserver.observe(sentinel);
  }

  readonly #toggleHistory = () => {
    this.#historyOpen = !this.#historyOpen;
    if (this.#historyOpen) {
      void this.chat.history.loadMore(true);
      this.#search.preload();
      this.chat.history.prefetch(
        (id) => id === this.chat.conversation.current?.sessionId || id === this.chat.conversation.viewing,
        this.#search.refresh,
      );
    }
    this.#host.requestUpdate();
  };

  #openSession(sessionId: string) {
    this.#historyOpen = false;
    this.#revealing = undefined;
    this.#window.follow();
    void this.chat.conversation.viewSession(sessionId);
    this.#host.requestUpdate();
    void this.#host.updateComplete.then(() => this.#list?.focus());
  }

  /** Opens a search result: its conversation, at its message (see {@link focusRevealed}). */
  #openHit(hit: SearchHit) {
    this.#historyOpen = false;
    this.#revealing = { key: hit.messageId, shown: false };
    void this.chat.conversation.viewSession(hit.sessionId);
    this.#host.requestUpdate();
  }

  /** The result's message is rendered: scrolled into view, marked `data-found` and focused. */
  #focusRevealed(list: HTMLElement | undefined) {
    if (!list || !this.#revealing?.shown) return;
    const message = list.querySelector<HTMLElement>(`[data-key="${CSS.escape(this.#revealing.key)}"]`);
    if (!message) return;
    this.#revealing = undefined;
    for (const previous of list.querySelectorAll('[data-found]')) previous.removeAttribute('data-found');
    message.setAttribute('data-found', '');
    message.tabIndex = -1;
    message.scrollIntoView({ block: 'center' });
    message.focus({ preventScroll: true });
  }

  readonly #backToChat = () => {
    this.#revealing = undefined;
    this.#window.follow();
    void this.chat.conversation.viewSession(undefined);
  };

  readonly #onScroll = () => {
    const list = this.#list;
    if (list) this.#window.onScroll(list);
  };

  readonly #loadOlder = () => void this.#window.loadOlder();

  /** The header's download button: nothing to save yet is no error worth showing the visitor. */
  readonly #onDownload = () => void this.downloadTranscript().catch(() => undefined);

  readonly #dismissError = () => {
    this.#copy.failed = false;
    this.#composer.refusal = '';
    this.chat.dismissError();
  };

  /** "3 messages left today; more at 00:00", or at zero when sending is possible again. */
  #quotaText(t: WidgetStrings, remaining: number, resetAt: number): string {
    const time = this.#time.format(new Date(resetAt).toISOString());
    return remaining <= 0 ? format(t.quotaExhausted, { time }) : plural(t, 'quotaLeft', remaining, this.#host.formatTag, { time });
  }

  /** The panel's contents (the element draws the panel itself, and the launcher). */
  render() {
    const host = this.#host;
    const t = host.text;
    const chat = this.chat;
    const c = chat.conversation;
    const floating = host.mode !== 'inline';
    const messages = c.messages;
    const visible = this.#window.slice(messages);
    const atTop = visible.length === 0 || visible[0]!.key === messages[0]?.key;
    const viewed = c.viewing ? chat.history.sessions.find((s) => s.id === c.viewing) : undefined;
    const messageContext: MessageViewContext = {
      dir: host.textDirection,
      t,
      time: this.#time,
      retry: (key) => void chat.retry(key),
      copy: this.#copy,
      feedback: this.#feedback,
    };
    const empty = messages.length === 0 && chat.ready && !c.viewing;
    const exhausted = quotaExhausted(chat.quota);
    this.#quotaClock.watch(chat.quota);
    const error = (this.#copy.failed && t.copyFailed) || this.#composer.refusal || chat.error?.message;
    return html`<div part="header">
        <button part="history-button" class="icon-button" type="button" aria-pressed=${this.#historyOpen ? 'true' : 'false'}
          aria-label=${this.#historyOpen ? t.hideHistory : t.showHistory} @click=${this.#toggleHistory}>${historyIcon}</button>
        <h2 id="heading">${inertText(host.heading) || t.heading}</h2>
        <button part="download-button" class="icon-button" type="button" aria-label=${t.downloadTranscript}
          ?disabled=${!messages.length} @click=${this.#onDownload}>${downloadIcon}</button>
        ${
          floating
            ? html`<button part="close-button" class="icon-button" type="button" aria-label=${t.closeChat} @click=${() => host.hide()}>${closeIcon}</button>`
            : nothing
        }
      </div>
      <div class="body">
        ${renderHistoryPane({
          t,
          time: this.#time,
          formatTag: host.formatTag,
          history: chat.history,
          open: this.#historyOpen,
          shownSessionId: c.viewing ?? c.current?.sessionId,
          openSession: (id) => this.#openSession(id),
          search: this.#search,
          openHit: (hit) => this.#openHit(hit),
        })}
        <div class="chat">
          ${
            c.viewing
              ? html`<div class="viewing"><span>${viewed ? this.#time.format(viewed.createdAt, true) : ''}</span>
                <button class="link-button" type="button" @click=${this.#backToChat}>${t.backToChat}</button></div>`
              : nothing
          }
          <div part="messages" role="log" aria-live="polite" aria-relevant="additions" aria-label=${t.messagesLabel}
            tabindex="0" @scroll=${this.#onScroll}>
            ${
              atTop && c.hasOlder
                ? html`<button part="load-older" class="link-button" type="button" ?disabled=${c.loadingOlder}
                  @click=${this.#loadOlder}>${c.loadingOlder ? t.loading : t.loadOlder}</button>`
                : nothing
            }
            ${empty ? (inertText(host.greeting).trim() ? renderGreeting(host.greeting, t) : html`<p class="empty">${t.emptyConversation}</p>`) : nothing}
            ${repeat(
              visible,
              (m) => m.key,
              (m) => renderMessage(m, messageContext),
            )}
            ${
              chat.sender.typing && !c.viewing
                ? html`<div part="typing" role="status"><span class="sr-only">${t.typing}</span><span aria-hidden="true"></span><span aria-hidden="true"></span><span aria-hidden="true"></span></div>`
                : nothing
            }
          </div>
          ${empty ? renderSuggestions(host.suggestions, t, exhausted, (text) => void this.send(text)) : nothing}
          ${
            dayWindow(chat.quota) && chat.quota.remaining <= QUOTA_NOTICE_AT
              ? html`<p part="quota-notice" id="quota-notice" class="note" role="status">${this.#quotaText(t, chat.quota.remaining, chat.quota.resetAt)}</p>`
              : nothing
          }
          ${
            error
              ? html`<div part="error" role="alert"><span>${error}</span>
                <button type="button" @click=${this.#dismissError}>${t.dismiss}</button></div>`
              : nothing
          }
          ${this.#announcer.render()}
          ${this.#composer.render(t, 'quota-notice')}
        </div>
      </div>`;
  }
}
