// Longer than a file should be (about 490 lines): the element still forwards its lifecycle to the
// panel and holds language loading and the snapshot beside its public API. Those jobs are to
// become reactive controllers of their own (docs/architecture.md); until then they stay here
// together, where each is read beside the lifecycle step that calls it.
import { LitElement, adoptStyles, html, nothing, type CSSResultOrNative, type PropertyValues } from 'lit';
import { withOverrides, type WidgetStrings } from '../ui/strings.js';
import { launcherStrings } from '../ui/locales/en-launcher.js';
import type { LoadedLocale, LocaleCode, WidgetLocale } from '../ui/locales/index.js';
import { emit } from '../ui/emit.js';
import { readSnapshot } from './panel-snapshot.js';
import { whenIdle } from '../ui/when-idle.js';
import { chatIcon, closeIcon } from './icons.js';
import { conversationStyles } from './conversation.styles.js';
import { shellStyles } from './shell.styles.js';
import { suggestionsFromAttribute } from './suggestions-attribute.js';
import type { ChatPanel, PanelHost } from './panel/chat-panel.js';

/** A language as the widget holds it: whole once loaded, the launcher's English texts before. */
type ShownLocale = Omit<LoadedLocale, 'strings'> & { strings: Partial<WidgetStrings> };

/** What the widget shows until a language has loaded: the launcher's English texts, from the first load. */
const LAUNCHER_ENGLISH: ShownLocale = { code: 'en', dir: 'ltr', strings: launcherStrings };

/**
 * How long a closed widget waits for the page to be idle before it loads the panel's code
 * anyway (so the outbox resumes and a first open is instant).
 */
const IDLE_LOAD_TIMEOUT_MS = 4_000;

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
 * @fires {CustomEvent<ChatbotFeedbackDetail>} chatbot-feedback - The visitor rated a bot message: `{ messageId, value: 'up' | 'down' }`; the rating also goes to the handler (`POST {endpoint}/feedback`).
 * @fires {CustomEvent<ChatbotCopyDetail>} chatbot-copy - The visitor copied a bot message: `{ messageId }`.
 *
 * @csspart launcher - The floating button that opens the panel.
 * @csspart panel - The chat window.
 * @csspart header - The panel's title bar.
 * @csspart close-button - Closes the floating panel.
 * @csspart history-button - Shows or hides the history pane.
 * @csspart history - The list of the visitor's sessions.
 * @csspart session - One session in the history.
 * @csspart search-input - The history pane's search box (the visitor's messages, searched offline).
 * @csspart search-result - One message found (matched words in `<mark>`); opens its conversation there.
 * @csspart download-button - Saves the conversation shown as a Markdown file.
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
 * @csspart quota-notice - Says how many sends are left today, when few are (and, at none, until when).
 * @csspart greeting - The assistant's first words (the `greeting` attribute), while the conversation is empty.
 * @csspart suggestion - One suggested prompt (the `suggestions` attribute), while the conversation is empty.
 * @csspart copy-button - On each bot message: copies its text (the Markdown as written).
 * @csspart code-copy-button - On each code block of a bot message: copies the code.
 * @csspart feedback-up - On each bot message: rates it helpful (`aria-pressed="true"` while chosen).
 * @csspart feedback-down - On each bot message: rates it not helpful (`aria-pressed="true"` while chosen).
 * @csspart unread-badge - On the launcher: how many bot replies arrived unseen (the same in every tab).
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
 * @cssprop [--chatbot-badge-background=#b91c1c] - The unread badge on the launcher.
 * @cssprop [--chatbot-badge-text=#ffffff] - The unread badge's number.
 * @cssprop [--chatbot-radius=14px] - Corner radius of panel and bubbles.
 * @cssprop [--chatbot-font=system-ui] - Font family.
 * @cssprop [--chatbot-font-size=15px] - Base font size.
 * @cssprop [--chatbot-width=380px] - Floating panel width.
 * @cssprop [--chatbot-height=600px] - Floating panel height.
 * @cssprop [--chatbot-offset=20px] - Distance of the launcher and floating panel from the viewport's edges.
 * @cssprop [--chatbot-launcher-size=56px] - Diameter of the launcher.
 * @cssprop [--chatbot-z-index=2147483000] - Stacking order of the launcher and floating panel.
 */
export class ChatbotWidget extends LitElement implements PanelHost {
  /**
   * Lit's reactive properties: the attributes and properties below, as each is read and reflected,
   * and the element's own state (`state: true`), which redraws it too.
   */
  static override properties = {
    endpoint: {},
    heading: {},
    open: { type: Boolean, reflect: true },
    mode: { reflect: true },
    side: { reflect: true },
    userName: { attribute: 'user-name' },
    placeholder: {},
    theme: { reflect: true },
    pageSize: { type: Number, attribute: 'page-size' },
    lang: {},
    strings: { attribute: false },
    attachments: { type: Boolean },
    greeting: {},
    suggestions: { converter: suggestionsFromAttribute },
    language: { state: true },
    panel: { state: true },
    panelFailed: { state: true },
  };

  static override styles = shellStyles;

  /** URL of the signing handler's base path, e.g. `/chatbot`. */
  endpoint = '';
  /** Title in the panel header (defaults to `strings.heading`). */
  heading = '';
  /** Whether the panel is shown. */
  open = false;
  /** `floating` (launcher in a corner) or `inline` (fills its container). */
  mode: 'floating' | 'inline' = 'floating';
  /** Corner of the floating launcher: `end` (default), `start`, `right` or `left`. */
  side: 'end' | 'start' | 'right' | 'left' = 'end';
  /** Display name sent with each message. */
  userName = '';
  /** Placeholder of the message field (defaults to `strings.placeholder`). */
  placeholder = '';
  /** `light`, `dark` or `auto` (follows the system). */
  theme: 'light' | 'dark' | 'auto' = 'light';
  /** Messages and sessions per page fetched from the server (1–100). */
  pageSize = 20;
  /**
   * Language of the widget's texts, as a BCP 47 tag (`de`, `pt-BR`, `ar`). Default: the page's
   * `<html lang>`, then English. Each language loads on first use; see docs/languages.md.
   */
  override lang = '';
  /** Overrides for any user-visible text (see `WidgetStrings`). */
  strings: Partial<WidgetStrings> = {};
  /** Lets visitors attach a file by URL (`message.file`). */
  attachments = false;
  /**
   * The assistant's first words in a conversation with no messages yet: shown as its bubble (as
   * text), never sent nor stored.
   */
  greeting = '';
  /**
   * Prompts offered as buttons while the conversation is empty; pressing one sends it. The
   * attribute is a JSON array of strings: `suggestions='["Pricing?", "Opening hours?"]'`.
   */
  suggestions: string[] = [];

  /** The language shown: the launcher's English until the chosen language has loaded. */
  private language: ShownLocale = LAUNCHER_ENGLISH;
  /** @internal The tag dates and numbers are formatted with (`en-GB` beside English texts). */
  formatTag = 'en';
  /** Whether this element set its own `dir` (for a right-to-left language the page did not lay out). */
  #dirFromLanguage = false;

  /** The panel, once its code has loaded. */
  private panel: ChatPanel | undefined;
  /** Its code on the way (or loaded); undefined before the first attempt and after a failed one. */
  #panelLoading: Promise<ChatPanel> | undefined;
  /** The panel's code could not be fetched (offline on first open). */
  private panelFailed = false;
  /** The panel as the visitor last saw it (panel-snapshot.ts), shown while its code loads. */
  #snapshot: Node[] | undefined;
  /**
   * Whether the floating panel rises into view when shown: once the visitor has opened it. A page
   * loaded with it open shows it at once, its conversation (a snapshot's) in that first frame.
   */
  #rises = false;
  /** Cancels the idle-time load of the panel's code, while it is scheduled. */
  #cancelIdleLoad: (() => void) | undefined;

  /** The texts in use: the language's, with the host's `strings` over them (text values only). */
  get text(): WidgetStrings {
    // Only string overrides count: `strings` may come from the host's CMS or JSON, and a value
    // that is not text (an object, null) must neither render as markup nor break the widget.
    // Whole once the panel is here (it waits for a whole language); before, the launcher's texts
    // are all that is drawn.
    return withOverrides(this.language.strings as WidgetStrings, this.strings);
  }

  /** @internal The direction of the language shown. */
  get textDirection() {
    return this.language.dir;
  }

  /** @internal Open, or inline (always shown). */
  get isShown() {
    return this.open || this.mode === 'inline';
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
   * queued in the outbox, or undefined when the text is empty, holds a broken character (half of
   * an emoji: the panel says so, as for a typed message, and nothing is queued) or a
   * `chatbot-send` listener cancelled it; the reply arrives as a `chatbot-reply` event.
   */
  async send(text: string, file?: string): Promise<string | undefined> {
    return (await this.#loadPanel()).send(text, file);
  }

  /**
   * Saves a conversation as a Markdown file (`chat-YYYY-MM-DD.md`), from the cache, so offline
   * too. Default: the conversation shown. Rejects with an `Error` saying what to do when nothing
   * is cached for the session.
   *
   * @example
   * chat.downloadTranscript().catch((error) => console.warn(error.message));
   */
  async downloadTranscript(sessionId?: string): Promise<void> {
    return (await this.#loadPanel()).downloadTranscript(sessionId);
  }

  /** Forgets the visitor's identity, cached history and unsent messages for this endpoint. */
  async reset(): Promise<void> {
    await (await this.#loadPanel()).reset();
  }

  /** @internal Moves focus to the launcher (the panel closed while focus was in it). */
  focusLauncher() {
    this.renderRoot.querySelector<HTMLElement>('[part="launcher"]')?.focus();
  }

  /**
   * Loads the panel's code and a whole language (once; again after a failure) and builds the
   * panel. Its styles join the element's then, so a page that never opens the chat never parses them.
   */
  #loadPanel(): Promise<ChatPanel> {
    this.#panelLoading ??= Promise.all([import('./panel/chat-panel.js'), this.#wholeLanguage()]).then(
      ([{ ChatPanel, panelStyles }]) => {
        if (this.panel) return this.panel;
        // Built before its styles join, while the element's layout is still clean: it measures the panel.
        const panel = new ChatPanel(this);
        // Removed while its code loaded: it listens to the page only once attached again.
        if (!this.isConnected) panel.disconnected();
        this.#adoptPanelStyles(panelStyles);
        this.panel = panel;
        this.#snapshot = undefined;
        this.panelFailed = false;
        if (this.open) panel.opened(true);
        return panel;
      },
      (error: unknown) => {
        this.#panelLoading = undefined;
        this.panelFailed = true;
        // What went wrong is said in the panel's place: no snapshot stands in for a panel that
        // is not coming.
        if (this.#snapshot) {
          this.#snapshot = undefined;
          this.#adoptPanelStyles([]);
        }
        throw error;
      },
    );
    return this.#panelLoading;
  }

  /** The panel's styles join the element's: its code's, a snapshot's, or (none) the element's own only. */
  #adoptPanelStyles(styles: CSSResultOrNative[]) {
    adoptStyles(this.renderRoot as ShadowRoot, [...(this.constructor as typeof LitElement).elementStyles, ...styles]);
  }

  /**
   * A reload of the element shown: the panel as the visitor last saw it is drawn in this first
   * render until the panel's code draws it (panel-snapshot.ts), with the styles of its
   * conversation, which ship in the first load (nothing of the snapshot's record styles anything).
   */
  #showSnapshot() {
    const snapshot = readSnapshot(this.endpoint);
    if (!snapshot) return;
    this.#adoptPanelStyles([conversationStyles]);
    this.#snapshot = snapshot;
  }

  /**
   * The texts the panel needs, loaded with its code: the chosen language, or English if its chunk
   * cannot be fetched. The first load holds only the launcher's English, and a page in another
   * language never fetches the rest of English. Rejects when neither can be fetched (nor the
   * language table), as the panel's code would.
   */
  async #wholeLanguage(): Promise<void> {
    // Again if the page asked for another language while this one was on its way.
    while (this.language === LAUNCHER_ENGLISH) await this.#showLanguage((await this.#chosenLocale()).code);
  }

  /**
   * The language `lang` and the page ask for. The language table (locales/index.ts: which shipped
   * language a tag asks for, where each one's texts load from) is a chunk of its own, fetched
   * with the panel's code, so the launcher speaks English until then; this rejects when it cannot
   * be fetched. Dates and numbers are formatted with the chosen tag from then on.
   */
  async #chosenLocale(): Promise<WidgetLocale> {
    // Imported by name, so the chunk holds only what the element uses of the table.
    const { chooseLocale } = await import('../ui/locales/index.js');
    const chosen = chooseLocale(this.lang, document.documentElement.lang);
    this.formatTag = chosen.formatTag;
    return chosen;
  }

  /**
   * Loads a language and shows it, unless another was asked for while it was on its way. English
   * when its chunk cannot be fetched (offline on first use); rejects when neither can be.
   */
  async #showLanguage(code: LocaleCode): Promise<void> {
    const { loadLocale } = await import('../ui/locales/index.js');
    const loaded = await loadLocale(code).catch(() => loadLocale('en'));
    if ((await this.#chosenLocale()).code === code) this.language = loaded;
  }

  /** Loads the panel when the page is idle (closed), or right away (shown). */
  #schedulePanel() {
    if (this.#panelLoading) return;
    if (this.isShown) {
      this.#stopIdleLoad();
      this.#loadPanel().catch(() => undefined);
    } else {
      this.#cancelIdleLoad ??= whenIdle(() => {
        this.#cancelIdleLoad = undefined;
        if (this.isConnected) this.#loadPanel().catch(() => undefined);
      }, IDLE_LOAD_TIMEOUT_MS);
    }
  }

  #stopIdleLoad() {
    this.#cancelIdleLoad?.();
    this.#cancelIdleLoad = undefined;
  }

  /**
   * `updateComplete` also waits for the panel's code when it is on its way, so `await
   * el.updateComplete` after opening finds the panel drawn.
   */
  protected override async getUpdateComplete(): Promise<boolean> {
    let complete = await super.getUpdateComplete();
    if (this.#panelLoading && !this.panel) {
      await this.#panelLoading.catch(() => undefined);
      complete = await super.getUpdateComplete();
    }
    return complete;
  }

  /**
   * Picks the language again for a new `lang`, and loads it; the language shown stays until it
   * arrives.
   */
  async #chooseLanguage() {
    const { code } = await this.#chosenLocale();
    if (code !== this.language.code) await this.#showLanguage(code);
  }

  /** Lays the widget out right to left for such a language, unless the page set `dir` itself. */
  #applyDirection() {
    const rtl = this.language.dir === 'rtl';
    if (rtl && !this.hasAttribute('dir')) {
      this.setAttribute('dir', 'rtl');
      this.#dirFromLanguage = true;
    } else if (!rtl && this.#dirFromLanguage) {
      this.removeAttribute('dir');
      this.#dirFromLanguage = false;
    }
  }

  override connectedCallback() {
    super.connectedCallback();
    this.panel?.connected();
    this.requestUpdate();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.#stopIdleLoad();
    this.panel?.disconnected();
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    // The first language comes with the panel's code (wholeLanguage), or before it on a page in
    // another language. Neither it nor English could be fetched: the language shown stays; the
    // next change, or the panel's loading, tries again.
    if (!this.hasUpdated) {
      if (this.isShown) this.#showSnapshot();
      // A page in another language has its launcher spoken in it at once, not when the page is idle.
      else if (!/^(en\b|$)/i.test(this.lang || document.documentElement.lang)) this.#wholeLanguage().catch(() => undefined);
    } else if (changed.has('lang')) this.#chooseLanguage().catch(() => undefined);
    if ((changed as Map<PropertyKey, unknown>).has('language')) this.#applyDirection();
    if (changed.has('open') && this.open && this.hasUpdated) this.#rises = true;
    if (changed.has('pageSize')) this.pageSize = Math.min(100, Math.max(1, Math.floor(this.pageSize) || 20));
    if (this.isConnected) this.#schedulePanel();
    this.panel?.willUpdate(changed);
  }

  protected override updated(changed: PropertyValues<this>) {
    // A snapshot shows the end of the conversation, as the panel does.
    if (this.#snapshot) this.renderRoot.querySelector('[part=messages]')?.scrollTo(0, 1e9);
    if (changed.has('open') && this.open !== Boolean(changed.get('open'))) {
      emit(this, this.open ? 'chatbot-open' : 'chatbot-close', {});
      if (this.open) this.panel?.opened();
      else if (this.mode === 'floating' && this.matches(':focus-within')) this.focusLauncher();
    }
    this.panel?.updated(changed);
  }

  /**
   * The panel's place while its code loads: a status line, or what went wrong and a way to try
   * again. It is the `heading` meanwhile: the dialog's name until the panel draws its title.
   */
  #renderPanelPending(t: WidgetStrings) {
    return this.panelFailed
      ? html`<p id="heading" role="alert" class="loading">${t.errorUnreachable}
          <button type="button" @click=${() => void this.#loadPanel().catch(() => undefined)}>${t.retry}</button></p>`
      : html`<p id="heading" role="status" class="loading">${t.loadingChat}</p>`;
  }

  protected override render() {
    const t = this.text;
    const floating = this.mode !== 'inline';
    const shown = this.isShown;
    // Replies are counted by the panel's code: until it is here, there is no badge.
    const badge = floating && !this.open ? this.panel?.unreadBadge : undefined;
    // Until the panel's code is here, a snapshot stands in for it.
    const snapshot = this.#snapshot;
    // Once its code is here the panel is drawn even while closed (hidden, its newest bubbles
    // only): opening then lays out and paints what is there, in one frame.
    return html`
      ${
        floating
          ? html`<button part="launcher" type="button" aria-expanded=${this.open ? 'true' : 'false'} aria-controls="panel"
            aria-label=${this.open ? t.closeChat : t.openChat} aria-describedby=${badge ? 'unread' : nothing} @click=${this.toggle}>
            ${this.open ? closeIcon : chatIcon}
            ${badge ? html`<span part="unread-badge" aria-hidden="true">${badge.shown}</span>` : nothing}
          </button>`
          : nothing
      }
      <span id="unread" class="sr-only" role="status">${badge?.announced ?? ''}</span>
      <div part="panel" id="panel" lang=${this.language.code} class=${floating ? (this.#rises ? 'floating rises' : 'floating') : 'inline'} ?hidden=${!shown}
        role=${floating ? 'dialog' : 'region'} aria-modal=${floating ? 'true' : nothing} aria-labelledby="heading">
        ${
          this.panel
            ? this.panel.render()
            : shown
              ? snapshot
                ? html`<div class="snapshot" inert>${snapshot}</div>`
                : this.#renderPanelPending(t)
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
