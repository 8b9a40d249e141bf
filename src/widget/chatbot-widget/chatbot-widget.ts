import { MAX_MESSAGE_CHARS } from '../../shared/limits.js';
import { LitElement, html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, query, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { ChatbotErrorDetail, ChatbotErrorKind } from '../events.js';
import { ChatController, type ViewMessage } from '../controllers/chat-controller.js';
import type { RequestFailure } from '../controllers/transport.js';
import { renderMarkdown, safeHref } from '../markdown.js';
import { inertText } from '../inert-text.js';
import { afterNextPaint } from '../after-paint.js';
import { defaultStrings, format, plural, withOverrides, type WidgetStrings } from '../strings.js';
import { chooseLocale, loadLocale, type LoadedLocale } from '../locales/index.js';
import { styles } from './chatbot-widget.styles.js';

/** What the widget shows until (and unless) another language has loaded. */
const ENGLISH: LoadedLocale = { code: 'en', dir: 'ltr', strings: defaultStrings };

/** Bubbles rendered when the list follows the newest message; more appear on scrolling up. */
const WINDOW = 40;
/**
 * Bubbles of the first paint after connecting or opening: enough to fill a tall panel, fewer to
 * lay out; the window widens to {@link WINDOW} right after that frame (above the fold).
 */
const FIRST_WINDOW = 16;
/** Bubbles added per scroll step. */
const STEP = 30;
/**
 * The `quota-notice` shows when this many sends or fewer are left in a window that ends more than
 * a minute from now (a day's budget; a minute's comes back before a notice would help).
 */
const QUOTA_NOTICE_AT = 3;
/** At most this many bubbles are in the DOM, however long the conversation. */
const MAX_RENDERED = 150;
/** Distance from an edge (px) at which scrolling reveals more. */
const EDGE = 120;

const FOCUSABLE = 'button:not([disabled]), textarea:not([disabled]), input:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

const chatIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1.1-4.4A8 8 0 1 1 21 12z" /></svg>`;
const closeIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18" /></svg>`;
const historyIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 12a9 9 0 1 0 3-6.7L3 8" /><path d="M3 3v5h5M12 7v5l3 2" /></svg>`;
const clipIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M21 11l-8.5 8.5a5 5 0 0 1-7-7L14 4a3.5 3.5 0 0 1 5 5l-8.5 8.5a2 2 0 0 1-3-3L15 7" /></svg>`;

/**
 * A chat window for visitors of a site, backed by the signing handler (docs/api.md describes the
 * upstream it reaches through that handler).
 *
 * @tagname chatbot-widget
 * @summary A chat window for the visitors of a site.
 *
 * @example
 * <script type="module" src="/chatbot-widget.js"></script>
 * <chatbot-widget endpoint="/chatbot" heading="Ask the docs"></chatbot-widget>
 *
 * @fires {CustomEvent<ChatbotOpenDetail>} chatbot-open - The panel was shown.
 * @fires {CustomEvent<ChatbotCloseDetail>} chatbot-close - The panel was hidden.
 * @fires {CustomEvent<ChatbotSendDetail>} chatbot-send - A visitor's message is about to be queued; cancelable (`preventDefault()` drops it).
 * @fires {CustomEvent<ChatbotReplyDetail>} chatbot-reply - The assistant answered a message.
 * @fires {CustomEvent<ChatbotErrorDetail>} chatbot-error - A request failed; `detail.message` is the text shown in the `error` part.
 * @fires {CustomEvent<ChatbotFeedbackDetail>} chatbot-feedback - The visitor rated a bot message: `{ messageId, value: 'up' | 'down' }`.
 * @fires {CustomEvent<ChatbotCopyDetail>} chatbot-copy - The visitor copied a bot message: `{ messageId }`.
 *
 * @csspart launcher - The floating button that opens the panel.
 * @csspart panel - The chat window.
 * @csspart header - The panel's title bar.
 * @csspart close-button - Closes the floating panel.
 * @csspart history-button - Shows or hides the history pane.
 * @csspart history - The list of the visitor's sessions.
 * @csspart session - One session in the history.
 * @csspart messages - The message list (a live region).
 * @csspart message - One message.
 * @csspart message-user - Added to a message the visitor sent.
 * @csspart message-bot - Added to a message of the assistant.
 * @csspart message-pending - Added to a visitor's message not yet confirmed by the server.
 * @csspart message-failed - Added to a visitor's message whose send failed.
 * @csspart typing - The typing indicator.
 * @csspart load-older - The button that loads older messages.
 * @csspart input - The message field.
 * @csspart send-button - The Send button.
 * @csspart attach-button - Shows the field for an attachment's URL (with the `attachments` attribute).
 * @csspart attachment-input - The field for an attachment's URL.
 * @csspart error - The error text.
 * @csspart retry-button - Sends a failed message again.
 * @csspart quota-notice - Says how many sends are left today, when few are.
 *
 * @cssprop [--chatbot-accent=#1d4ed8] - Launcher, Send button and links in the header.
 * @cssprop [--chatbot-on-accent=#ffffff] - Text and icons on the accent colour.
 * @cssprop [--chatbot-background=#ffffff] - Panel background.
 * @cssprop [--chatbot-surface=#f3f4f6] - Header, history and input area background.
 * @cssprop [--chatbot-text=#111827] - Text colour.
 * @cssprop [--chatbot-muted=#4b5563] - Secondary text (times, states).
 * @cssprop [--chatbot-border=#d1d5db] - Borders and separators.
 * @cssprop [--chatbot-focus=var(--chatbot-accent)] - Focus ring (keep 3:1 contrast against the background).
 * @cssprop [--chatbot-user-background=#1d4ed8] - Bubble of the visitor's messages.
 * @cssprop [--chatbot-user-text=#ffffff] - Text of the visitor's messages.
 * @cssprop [--chatbot-user-link=#ffffff] - Links in the visitor's messages.
 * @cssprop [--chatbot-bot-background=#f3f4f6] - Bubble of the assistant's messages.
 * @cssprop [--chatbot-bot-text=#111827] - Text of the assistant's messages.
 * @cssprop [--chatbot-link=#1d4ed8] - Links in the assistant's messages.
 * @cssprop [--chatbot-code-background=#e5e7eb] - Code blocks and inline code.
 * @cssprop [--chatbot-error-background=#fef2f2] - Background of the error line.
 * @cssprop [--chatbot-error-text=#991b1b] - Text of the error line.
 * @cssprop [--chatbot-radius=14px] - Corner radius of panel and bubbles.
 * @cssprop [--chatbot-font=system-ui] - Font family.
 * @cssprop [--chatbot-font-size=15px] - Base font size.
 * @cssprop [--chatbot-width=380px] - Floating panel width.
 * @cssprop [--chatbot-height=600px] - Floating panel height.
 * @cssprop [--chatbot-offset=20px] - Distance of the launcher and floating panel from the viewport's edges.
 * @cssprop [--chatbot-launcher-size=56px] - Diameter of the launcher.
 * @cssprop [--chatbot-z-index=2147483000] - Stacking order of the launcher and floating panel.
 */
export class ChatbotWidget extends LitElement {
  static override styles = styles;

  /** URL of the signing handler's base path, e.g. `/chatbot`. */
  @property() endpoint = '';
  /** Title in the panel header (defaults to `strings.heading`). */
  @property() heading = '';
  /** Whether the panel is shown. */
  @property({ type: Boolean, reflect: true }) open = false;
  /** `floating` (launcher in a corner) or `inline` (fills its container). */
  @property({ reflect: true }) mode: 'floating' | 'inline' = 'floating';
  /** Corner of the floating launcher: `end` (default), `start`, `right` or `left`. */
  @property({ reflect: true }) side: 'end' | 'start' | 'right' | 'left' = 'end';
  /** Display name sent with each message. */
  @property({ attribute: 'user-name' }) userName = '';
  /** Placeholder of the message field (defaults to `strings.placeholder`). */
  @property() placeholder = '';
  /** `light`, `dark` or `auto` (follows the system). */
  @property({ reflect: true }) theme: 'light' | 'dark' | 'auto' = 'light';
  /** Messages and sessions per page fetched from the server (1–100). */
  @property({ type: Number, attribute: 'page-size' }) pageSize = 20;
  /**
   * Language of the widget's texts, as a BCP 47 tag (`de`, `pt-BR`, `ar`). Default: the page's
   * `<html lang>`, then English. Each language loads on first use; see docs/languages.md.
   */
  @property() override lang = '';
  /** The language shown (English until the chosen one has loaded). */
  @state() private language: LoadedLocale = ENGLISH;
  /** The tag dates and numbers are formatted with (`en-GB` beside English texts). */
  private formatTag = 'en';
  /** Whether this element set its own `dir` (for a right-to-left language the page did not lay out). */
  private dirFromLanguage = false;
  /** Overrides for any user-visible text (see `WidgetStrings`). */
  @property({ attribute: false }) strings: Partial<WidgetStrings> = {};
  /** Lets visitors attach a file by URL (`message.file`). */
  @property({ type: Boolean }) attachments = false;

  @state() private historyOpen = false;
  @state() private draft = '';
  @state() private attachmentOpen = false;
  @state() private attachment = '';
  @state() private attachmentError = '';

  @query('[part="messages"]') private list?: HTMLElement;
  @query('[part="input"]') private input?: HTMLTextAreaElement;
  @query('[part="launcher"]') private launcher?: HTMLButtonElement;
  @query('[part="panel"]') private panel?: HTMLElement;

  private readonly chat = new ChatController(this);
  /** Key of the oldest rendered bubble; undefined: the newest {@link WINDOW}. */
  private firstKey: string | undefined;
  /** Key of the newest rendered bubble; undefined: follow the newest message. */
  private lastKey: string | undefined;
  private stickToBottom = true;
  private anchor: { key: string; offset: number } | undefined;
  private rendered: ViewMessage[] = [];
  private connectedEndpoint: string | undefined;
  private sessionObserver: IntersectionObserver | undefined;
  private widthObserver: ResizeObserver | undefined;
  private widthWatched: HTMLElement | undefined;
  /** What {@link markScrollableCode} last looked at. */
  private codeSignature = '';
  /** The next paint shows only the newest {@link FIRST_WINDOW} bubbles. */
  private narrowWindow = true;
  private widening: Promise<void> | undefined;

  /** The texts in use: the language's, with the host's `strings` over them (text values only). */
  get text(): WidgetStrings {
    // Only string overrides count: `strings` may come from the host's CMS or JSON, and a value
    // that is not text (an object, null) must neither render as markup nor break the widget.
    return withOverrides(this.language.strings, this.strings);
  }

  /** Picks the language for `lang` and the page, and loads it; English stays until it arrives. */
  private chooseLanguage() {
    const { code, formatTag } = chooseLocale(this.lang, document.documentElement.lang);
    this.formatTag = formatTag;
    if (code === this.language.code) return;
    loadLocale(code).then(
      (loaded) => {
        // A later `lang` may have asked for another language while this one was on its way.
        if (chooseLocale(this.lang, document.documentElement.lang).code === loaded.code) this.language = loaded;
      },
      // Its chunk could not be fetched (offline on first use): English stays, the next change tries again.
      () => undefined,
    );
  }

  /** Lays the widget out right to left for such a language, unless the page set `dir` itself. */
  private applyDirection() {
    const rtl = this.language.dir === 'rtl';
    if (rtl && !this.hasAttribute('dir')) {
      this.setAttribute('dir', 'rtl');
      this.dirFromLanguage = true;
    } else if (!rtl && this.dirFromLanguage) {
      this.removeAttribute('dir');
      this.dirFromLanguage = false;
    }
  }

  /** Shows the panel. */
  show() {
    this.open = true;
  }

  /** Hides the panel. */
  hide() {
    this.open = false;
  }

  /** Shows the panel when hidden, hides it when shown. */
  toggle() {
    this.open = !this.open;
  }

  /**
   * Sends a message as the visitor (as if typed). Resolves to the message's local id once it is
   * queued in the outbox, or undefined when the text is empty or a `chatbot-send` listener
   * cancelled it; the reply arrives as a `chatbot-reply` event.
   */
  async send(text: string, file?: string): Promise<string | undefined> {
    await this.connectIfNeeded();
    this.stickToBottom = true;
    this.lastKey = undefined;
    return this.chat.send(text, file);
  }

  /** Forgets the visitor's identity, cached history and unsent messages for this endpoint. */
  async reset(): Promise<void> {
    this.draft = '';
    this.historyOpen = false;
    this.firstKey = this.lastKey = undefined;
    await this.chat.reset();
  }

  /** @internal Describes a failure in the visitor's words and fires `chatbot-error`. */
  reportError(failure: RequestFailure, localId?: string): ChatbotErrorDetail {
    const t = this.text;
    const fixed: Partial<Record<ChatbotErrorKind, string>> = {
      offline: t.errorOffline,
      unreachable: t.errorUnreachable,
      timeout: t.errorTimeout,
      server: t.errorServer,
      identity: t.errorIdentity,
    };
    const message =
      failure.kind === 'rate-limited'
        ? format(t.errorRateLimited, { seconds: failure.retryAfter ?? 1 })
        : (fixed[failure.kind] ??
          (failure.status === 413 ? t.errorTooLong : format(t.errorRejected, { detail: failure.detail || String(failure.status) })));
    const detail: ChatbotErrorDetail = {
      kind: failure.kind,
      message,
      status: failure.status,
      ...(failure.retryAfter ? { retryAfter: failure.retryAfter } : {}),
      ...(localId ? { localId } : {}),
    };
    this.dispatchEvent(new CustomEvent('chatbot-error', { detail, bubbles: true, composed: true }));
    return detail;
  }

  override connectedCallback() {
    super.connectedCallback();
    this.addEventListener('keydown', this.onKeydown);
    // (Re)attached: the conversation reconnects on the next update.
    this.connectedEndpoint = undefined;
    this.requestUpdate();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.removeEventListener('keydown', this.onKeydown);
    this.sessionObserver?.disconnect();
    this.widthObserver?.disconnect();
    this.widthWatched = undefined;
    this.connectedEndpoint = undefined;
  }

  private connectIfNeeded() {
    if (this.connectedEndpoint === this.endpoint) return Promise.resolve();
    this.connectedEndpoint = this.endpoint;
    this.firstKey = this.lastKey = undefined;
    this.narrowWindow = true;
    const connecting = this.chat.connect(this.endpoint, this.isShown);
    this.prepareFormatters();
    return connecting;
  }

  /**
   * Builds the time formatters the bubbles need (an `Intl.DateTimeFormat` costs milliseconds to
   * create). Shown: right now, while IndexedDB opens and reads the cache away from this thread,
   * so the first paint does not pay for them; closed: when the page is idle.
   */
  private prepareFormatters() {
    const prepare = () => {
      const now = new Date().toISOString();
      this.formatTime(now);
      this.formatTime(now, true);
    };
    if (this.isShown) prepare();
    else if (typeof requestIdleCallback === 'function') requestIdleCallback(prepare, { timeout: 2_000 });
    else setTimeout(prepare, 200);
  }

  private get isShown() {
    return this.open || this.mode === 'inline';
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    // Lit keeps updating a detached element when asked (a late async continuation, a property
    // set by the page): only an attached one may connect, or a removed widget would come back to
    // life and write its stale view over what other tabs and elements stored since.
    if (this.isConnected && (changed.has('endpoint') || this.connectedEndpoint === undefined)) void this.connectIfNeeded();
    if (changed.has('lang') || !this.hasUpdated) this.chooseLanguage();
    if ((changed as Map<PropertyKey, unknown>).has('language')) this.applyDirection();
    if (changed.has('pageSize')) this.pageSize = Math.min(100, Math.max(1, Math.floor(this.pageSize) || 20));
    if (changed.has('open') && this.open && !changed.get('open')) this.narrowWindow = true;
    // Remember what the visitor is looking at, to keep it in place when bubbles come and go.
    const list = this.list;
    this.anchor = undefined;
    if (list && !this.stickToBottom) {
      for (const el of list.querySelectorAll<HTMLElement>('[data-key]')) {
        if (el.offsetTop + el.offsetHeight > list.scrollTop) {
          this.anchor = { key: el.dataset.key!, offset: el.offsetTop - list.scrollTop };
          break;
        }
      }
    }
  }

  protected override updated(changed: PropertyValues<this>) {
    if (changed.has('open') && this.open !== Boolean(changed.get('open'))) {
      this.dispatchEvent(new CustomEvent(this.open ? 'chatbot-open' : 'chatbot-close', { detail: {}, bubbles: true, composed: true }));
      if (this.open) {
        void this.chat.conversation.revalidate();
        this.stickToBottom = true;
        if (this.mode === 'floating') void this.updateComplete.then(() => this.input?.focus());
      } else if (this.mode === 'floating' && this.matches(':focus-within')) {
        this.launcher?.focus();
      }
    }
    if (changed.has('mode') && this.mode === 'inline' && changed.get('mode') !== undefined) void this.chat.conversation.revalidate();
    const list = this.list;
    if (list) {
      if (this.stickToBottom) list.scrollTop = list.scrollHeight;
      else if (this.anchor) {
        const el = list.querySelector<HTMLElement>(`[data-key="${CSS.escape(this.anchor.key)}"]`);
        if (el) list.scrollTop = el.offsetTop - this.anchor.offset;
      }
    }
    this.observeSessions();
    this.watchListWidth(list);
    this.markScrollableCode(false);
    this.widenAfterPaint();
  }

  /** Once the first bubbles are on screen, renders the full window above them. */
  private widenAfterPaint() {
    if (!this.narrowWindow || this.widening || !this.rendered.length) return;
    this.widening = afterNextPaint().then(() => {
      this.widening = undefined;
      this.narrowWindow = false;
      this.requestUpdate();
    });
  }

  /** Re-checks the code blocks when the list changes width (the panel resized, the viewport turned). */
  private watchListWidth(list: HTMLElement | undefined) {
    if (list === this.widthWatched) return;
    this.widthObserver?.disconnect();
    this.widthWatched = list;
    if (!list || typeof ResizeObserver === 'undefined') return;
    let width = -1;
    this.widthObserver ??= new ResizeObserver((entries) => {
      const next = entries[entries.length - 1]!.contentRect.width;
      if (next !== width) {
        width = next;
        this.markScrollableCode(true);
      }
    });
    this.widthObserver.observe(list);
  }

  /**
   * A code block wider than its bubble scrolls sideways; keyboard users can only scroll what can
   * take focus, so such a block gets `tabindex="0"` and a name (and loses them when it fits).
   * Runs when the rendered bubbles or the list's width change, not on every keystroke.
   */
  private markScrollableCode(force: boolean) {
    const list = this.list;
    if (!list) return;
    const label = this.text.codeBlock;
    const signature = `${label}|${this.rendered.map((m) => m.key).join('|')}`;
    if (!force && signature === this.codeSignature) return;
    this.codeSignature = signature;
    for (const pre of list.querySelectorAll<HTMLElement>('.bubble pre')) {
      if (pre.scrollWidth > pre.clientWidth + 1) {
        pre.tabIndex = 0;
        pre.setAttribute('role', 'region');
        pre.setAttribute('aria-label', label);
      } else {
        pre.removeAttribute('tabindex');
        pre.removeAttribute('role');
        pre.removeAttribute('aria-label');
      }
    }
  }

  /** Infinite scroll of the history pane: the last row coming into view loads the next page. */
  private observeSessions() {
    const sentinel = this.renderRoot.querySelector('.sessions-end');
    this.sessionObserver?.disconnect();
    if (!sentinel || !this.historyOpen) return;
    this.sessionObserver ??= new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) void this.chat.history.loadMore();
    });
    this.sessionObserver.observe(sentinel);
  }

  private readonly onKeydown = (event: KeyboardEvent) => {
    if (this.mode !== 'floating' || !this.open) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      if (this.historyOpen) this.historyOpen = false;
      else {
        this.hide();
        void this.updateComplete.then(() => this.launcher?.focus());
      }
      return;
    }
    if (event.key !== 'Tab' || !this.panel) return;
    // Keep focus inside the floating panel (it is a modal dialog).
    const focusable = [...this.panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (el) => el.offsetParent !== null || el === this.input,
    );
    if (!focusable.length) return;
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    const active = this.shadowRoot?.activeElement;
    if (event.shiftKey && (active === first || !this.panel.contains(active ?? null))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !this.panel.contains(active ?? null))) {
      event.preventDefault();
      first.focus();
    }
  };

  private onScroll = () => {
    const list = this.list;
    if (!list) return;
    const messages = this.chat.conversation.messages;
    const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 4;
    const first = this.rendered[0];
    const last = this.rendered[this.rendered.length - 1];
    const firstIndex = first ? messages.findIndex((m) => m.key === first.key) : 0;
    const lastIndex = last ? messages.findIndex((m) => m.key === last.key) : messages.length - 1;
    this.stickToBottom = atBottom && lastIndex >= messages.length - 1;
    if (list.scrollTop < EDGE) {
      if (firstIndex > 0) {
        const start = Math.max(0, firstIndex - STEP);
        this.firstKey = messages[start]?.key;
        if (lastIndex - start + 1 > MAX_RENDERED) this.lastKey = messages[start + MAX_RENDERED - 1]?.key;
        this.stickToBottom = false;
        this.requestUpdate();
      } else if (this.chat.conversation.hasOlder && !this.chat.conversation.loadingOlder) {
        void this.loadOlder();
      }
    } else if (list.scrollHeight - list.scrollTop - list.clientHeight < EDGE && this.lastKey) {
      const end = Math.min(messages.length - 1, lastIndex + STEP);
      this.lastKey = end >= messages.length - 1 ? undefined : messages[end]?.key;
      if (end - firstIndex + 1 > MAX_RENDERED) this.firstKey = messages[end - MAX_RENDERED + 1]?.key;
      this.requestUpdate();
    }
  };

  private async loadOlder() {
    this.stickToBottom = false;
    const before = this.chat.conversation.messages.length;
    const first = this.rendered[0];
    const last = this.rendered[this.rendered.length - 1];
    await this.chat.conversation.loadOlder();
    const messages = this.chat.conversation.messages;
    if (messages.length > before) {
      // Reveal what arrived above the oldest bubble: a page from the server, or a step of the
      // cached history if that is what came in (it may be thousands of messages).
      const firstIndex = first
        ? Math.max(
            0,
            messages.findIndex((m) => m.key === first.key),
          )
        : messages.length;
      const lastIndex = last ? messages.findIndex((m) => m.key === last.key) : messages.length - 1;
      const start = Math.max(0, firstIndex - Math.max(STEP, this.pageSize));
      this.firstKey = messages[start]?.key;
      if (lastIndex - start + 1 > MAX_RENDERED) this.lastKey = messages[start + MAX_RENDERED - 1]?.key;
      this.requestUpdate();
    }
  }

  /** The bounded slice of messages to render. */
  private window(messages: ViewMessage[]): ViewMessage[] {
    let end = messages.length;
    if (this.lastKey) {
      const i = messages.findIndex((m) => m.key === this.lastKey);
      if (i >= 0) end = i + 1;
      else this.lastKey = undefined;
    }
    let start = Math.max(0, end - (this.narrowWindow ? FIRST_WINDOW : WINDOW));
    if (this.firstKey) {
      const i = messages.findIndex((m) => m.key === this.firstKey);
      if (i >= 0 && i < end) start = Math.min(start, i);
      else this.firstKey = undefined;
    }
    if (end - start > MAX_RENDERED) start = end - MAX_RENDERED;
    return messages.slice(start, end);
  }

  private onSubmit(event: Event) {
    event.preventDefault();
    const text = this.draft.trim();
    if (!text) return;
    let file: string | undefined;
    if (this.attachments && this.attachment.trim()) {
      file = safeHref(this.attachment.trim(), undefined);
      if (!file || !/^https?:/.test(file)) {
        this.attachmentError = this.text.attachmentInvalid;
        return;
      }
    }
    this.attachmentError = '';
    this.draft = '';
    this.attachment = '';
    this.attachmentOpen = false;
    if (this.input) this.input.value = '';
    void this.send(text, file);
    this.input?.focus();
  }

  private onInputKeydown(event: KeyboardEvent) {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.onSubmit(event);
    }
  }

  private toggleHistory() {
    this.historyOpen = !this.historyOpen;
    if (this.historyOpen) void this.chat.history.loadMore(true);
  }

  private openSession(sessionId: string) {
    this.historyOpen = false;
    this.firstKey = this.lastKey = undefined;
    this.stickToBottom = true;
    void this.chat.conversation.viewSession(sessionId);
    void this.updateComplete.then(() => this.list?.focus());
  }

  private backToChat() {
    this.firstKey = this.lastKey = undefined;
    this.stickToBottom = true;
    void this.chat.conversation.viewSession(undefined);
  }

  /** Date formatters by locale and shape: building one costs far more than using it. */
  private formatters = new Map<string, Intl.DateTimeFormat>();

  private formatTime(iso: string, withDate = false) {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return '';
    const today = new Date();
    const full =
      withDate || date.getDate() !== today.getDate() || date.getMonth() !== today.getMonth() || date.getFullYear() !== today.getFullYear();
    const key = `${this.formatTag}|${full}`;
    let formatter = this.formatters.get(key);
    if (!formatter) {
      try {
        formatter = new Intl.DateTimeFormat(this.formatTag, { ...(full ? { dateStyle: 'medium' } : {}), timeStyle: 'short' });
      } catch {
        formatter = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
      }
      this.formatters.set(key, formatter);
    }
    return formatter.format(date);
  }

  /** "3 messages left today; more at 00:00", or at zero when sending is possible again. */
  private quotaText(t: WidgetStrings, remaining: number, resetAt: number): string {
    const time = this.formatTime(new Date(resetAt).toISOString());
    return remaining <= 0 ? format(t.quotaExhausted, { time }) : plural(t, 'quotaLeft', remaining, this.formatTag, { time });
  }

  private renderMessage(message: ViewMessage, t: WidgetStrings): TemplateResult {
    const parts = ['message', `message-${message.sender}`];
    if (message.state !== 'sent') parts.push(`message-${message.state}`);
    const waiting = message.entry?.retryAt && message.entry.retryAt > Date.now();
    const url = message.url ? safeHref(message.url) : undefined;
    return html`<div part=${parts.join(' ')} data-key=${message.key}>
      <div class="bubble">
        <span class="sr-only">${message.sender === 'user' ? t.you : t.bot}:</span>
        ${message.sender === 'bot' ? renderMarkdown(message.text) : html`<span class="plain">${inertText(message.text)}</span>`}
        ${url ? html`<div><a href=${url} target="_blank" rel="noopener noreferrer">${t.attachment}</a></div>` : nothing}
      </div>
      <div class="meta">
        <time datetime=${message.createdAt}>${this.formatTime(message.createdAt)}</time>
        ${message.state === 'pending' ? html`<span>${t.pending}</span>` : nothing}
        ${
          message.state === 'failed'
            ? html`<span>${t.failed}</span>
              <button part="retry-button" type="button" ?disabled=${!!waiting}
                @click=${() => void this.chat.retry(message.key)}>${t.retry}</button>`
            : nothing
        }
      </div>
    </div>`;
  }

  private renderHistory(t: WidgetStrings) {
    const c = this.chat.history;
    const shown = this.chat.conversation;
    return html`<section part="history" aria-labelledby="history-heading" ?hidden=${!this.historyOpen}>
      <h3 id="history-heading">${t.historyHeading}</h3>
      ${c.sessions.length === 0 && !c.loading ? html`<p class="note">${t.historyEmpty}</p>` : nothing}
      <ul>
        ${repeat(
          c.sessions,
          (s) => s.id,
          (s) => html`<li>
            <button part="session" type="button" data-session=${s.id}
              aria-current=${(shown.viewing ?? shown.current?.sessionId) === s.id ? 'true' : 'false'}
              @click=${() => this.openSession(s.id)}>
              <span class="date">${this.formatTime(s.lastMessageAt, true)} · ${plural(t, 'sessionMessages', s.messageCount, this.formatTag)}</span>
              <span class="line">${inertText(c.firstLines.get(s.id)) || '…'}</span>
            </button>
          </li>`,
        )}
      </ul>
      ${c.loading ? html`<p class="note" role="status">${t.loading}</p>` : nothing}
      <div class="sessions-end"></div>
    </section>`;
  }

  protected override render() {
    const t = this.text;
    const c = this.chat.conversation;
    const chat = this.chat;
    const floating = this.mode !== 'inline';
    const shown = this.isShown;
    const heading = inertText(this.heading) || t.heading;
    const messages = shown ? c.messages : [];
    const visible = shown ? this.window(messages) : [];
    this.rendered = visible;
    const atTop = visible.length === 0 || visible[0]!.key === messages[0]?.key;
    const viewed = c.viewing ? this.chat.history.sessions.find((s) => s.id === c.viewing) : undefined;
    return html`
      ${
        floating
          ? html`<button part="launcher" type="button" aria-expanded=${this.open ? 'true' : 'false'} aria-controls="panel"
            aria-label=${this.open ? t.closeChat : t.openChat} @click=${this.toggle}>${this.open ? closeIcon : chatIcon}</button>`
          : nothing
      }
      <div part="panel" id="panel" lang=${this.language.code} class=${floating ? 'floating' : 'inline'} ?hidden=${!shown}
        role=${floating ? 'dialog' : 'region'} aria-modal=${floating ? 'true' : nothing} aria-labelledby="heading">
        ${
          shown
            ? html`<div part="header">
                <button part="history-button" class="icon-button" type="button" aria-pressed=${this.historyOpen ? 'true' : 'false'}
                  aria-label=${this.historyOpen ? t.hideHistory : t.showHistory} @click=${this.toggleHistory}>${historyIcon}</button>
                <h2 id="heading">${heading}</h2>
                ${
                  floating
                    ? html`<button part="close-button" class="icon-button" type="button" aria-label=${t.closeChat} @click=${this.hide}>${closeIcon}</button>`
                    : nothing
                }
              </div>
              <div class="body">
                ${this.renderHistory(t)}
                <div class="chat">
                  ${
                    c.viewing
                      ? html`<div class="viewing"><span>${viewed ? this.formatTime(viewed.createdAt, true) : ''}</span>
                        <button class="link-button" type="button" @click=${this.backToChat}>${t.backToChat}</button></div>`
                      : nothing
                  }
                  <div part="messages" role="log" aria-live="polite" aria-relevant="additions" aria-label=${t.messagesLabel}
                    tabindex="0" @scroll=${this.onScroll}>
                    ${
                      atTop && c.hasOlder
                        ? html`<button part="load-older" class="link-button" type="button" ?disabled=${c.loadingOlder}
                          @click=${() => void this.loadOlder()}>${c.loadingOlder ? t.loading : t.loadOlder}</button>`
                        : nothing
                    }
                    ${messages.length === 0 && chat.ready && !c.viewing ? html`<p class="empty">${t.emptyConversation}</p>` : nothing}
                    ${repeat(
                      visible,
                      (m) => m.key,
                      (m) => this.renderMessage(m, t),
                    )}
                    ${
                      chat.sender.typing && !c.viewing
                        ? html`<div part="typing" role="status"><span class="sr-only">${t.typing}</span><span aria-hidden="true"></span><span aria-hidden="true"></span><span aria-hidden="true"></span></div>`
                        : nothing
                    }
                  </div>
                  ${
                    chat.quota && chat.quota.remaining <= QUOTA_NOTICE_AT && chat.quota.resetAt - Date.now() > 60_000
                      ? html`<p part="quota-notice" class="note" role="status">${this.quotaText(t, chat.quota.remaining, chat.quota.resetAt)}</p>`
                      : nothing
                  }
                  ${
                    chat.error || this.attachmentError
                      ? html`<div part="error" role="alert"><span>${this.attachmentError || chat.error?.message}</span>
                        <button type="button" @click=${() => {
                          this.attachmentError = '';
                          chat.dismissError();
                        }}>${t.dismiss}</button></div>`
                      : nothing
                  }
                  <form @submit=${this.onSubmit}>
                    ${
                      this.attachments && this.attachmentOpen
                        ? html`<div class="attachment">
                          <label class="sr-only" for="attachment">${t.attachmentLabel}</label>
                          <input id="attachment" part="attachment-input" type="url" inputmode="url" .value=${this.attachment}
                            placeholder=${t.attachmentPlaceholder} @input=${(e: Event) => (this.attachment = (e.target as HTMLInputElement).value)} />
                        </div>`
                        : nothing
                    }
                    <div class="row">
                      ${
                        this.attachments
                          ? html`<button part="attach-button" class="icon-button" type="button" aria-label=${t.attach}
                            aria-pressed=${this.attachmentOpen ? 'true' : 'false'}
                            @click=${() => (this.attachmentOpen = !this.attachmentOpen)}>${clipIcon}</button>`
                          : nothing
                      }
                      <textarea part="input" rows="1" maxlength=${MAX_MESSAGE_CHARS} aria-label=${t.inputLabel}
                        placeholder=${this.placeholder || t.placeholder} .value=${this.draft}
                        @input=${(e: Event) => (this.draft = (e.target as HTMLTextAreaElement).value)}
                        @keydown=${this.onInputKeydown}></textarea>
                      <button part="send-button" type="submit" ?disabled=${!this.draft.trim()}>${t.send}</button>
                    </div>
                  </form>
                </div>
              </div>`
            : nothing
        }
      </div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'chatbot-widget': ChatbotWidget;
  }
}
