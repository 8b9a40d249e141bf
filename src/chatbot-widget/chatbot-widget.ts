import { LitElement, html, nothing, type PropertyValues } from 'lit';
import { withOverrides, type WidgetStrings } from '../ui/strings.js';
import { emit } from '../ui/emit.js';
import { chatIcon, closeIcon } from './icons.js';
import { PanelLoader } from './panel-loader.js';
import { shellStyles } from './shell.styles.js';
import { suggestionsFromAttribute } from './suggestions-attribute.js';
import { WidgetLanguage } from './widget-language.js';
import type { ChatPanel, PanelHost } from './panel/chat-panel.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../shared/page-size.js';

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
 * @csspart message-bot - Added to a message of the assistant (and of a sender the widget does not know, named for screen readers).
 * @csspart message-agent - Added to a person's reply (an agent of the site): named, no feedback buttons.
 * @csspart message-system - Added to a notice in the conversation: no copy or feedback buttons.
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
 * @csspart code-block - Each code block of a bot message: scrolls sideways (and takes focus) when wider than the panel.
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
   * Lit's reactive properties: the attributes and properties below, as each is read and reflected.
   * The element's own state lives in its controllers, which ask for an update when it changes.
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
    credentials: {},
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
  pageSize: number = DEFAULT_PAGE_SIZE;
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
  /**
   * What the widget sends with each call to the handler: `same-origin` (the page's cookies for a
   * handler on the page's origin) or `include` (also a handler's on another origin, which must list
   * the page in `allowedOrigins`). For a handler whose `identify` reads the site's login cookie.
   */
  credentials: 'same-origin' | 'include' = 'same-origin';

  /** The language of the texts, loaded on first use. */
  readonly #language = new WidgetLanguage(this);
  /** The panel's code, loaded on first open or when the page is idle, and what stands in for it meanwhile. */
  readonly #loader = new PanelLoader(this, () => this.#language.whole());
  /**
   * Whether the floating panel rises into view when shown: once the visitor has opened it. A page
   * loaded with it open shows it at once, its conversation (a snapshot's) in that first frame.
   */
  #rises = false;

  /** @internal The panel, once its code has loaded (the browser tests read its conversation). */
  get panel(): ChatPanel | undefined {
    return this.#loader.panel;
  }

  /** The texts in use: the language's, with the host's `strings` over them (text values only). */
  get text(): WidgetStrings {
    // Only string overrides count: `strings` may come from the host's CMS or JSON, and a value
    // that is not text (an object, null) must neither render as markup nor break the widget.
    // Whole once the panel is here (it waits for a whole language); before, the launcher's texts
    // are all that is drawn.
    return withOverrides(this.#language.shown.strings as WidgetStrings, this.strings);
  }

  /** @internal The tag dates and numbers are formatted with (`en-GB` beside English texts). */
  get formatTag() {
    return this.#language.formatTag;
  }

  /** @internal The direction of the language shown. */
  get textDirection() {
    return this.#language.shown.dir;
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
    return (await this.#loader.load()).send(text, file);
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
    return (await this.#loader.load()).downloadTranscript(sessionId);
  }

  /** Forgets the visitor's identity, cached history and unsent messages for this endpoint. */
  async reset(): Promise<void> {
    await (await this.#loader.load()).reset();
  }

  /** @internal Moves focus to the launcher (the panel closed while focus was in it). */
  focusLauncher() {
    this.renderRoot.querySelector<HTMLElement>('[part="launcher"]')?.focus();
  }

  /**
   * `updateComplete` also waits for the panel's code when it is on its way, so `await
   * el.updateComplete` after opening finds the panel drawn.
   */
  protected override async getUpdateComplete(): Promise<boolean> {
    let complete = await super.getUpdateComplete();
    const { loading } = this.#loader;
    if (loading && !this.panel) {
      await loading.catch(() => undefined);
      complete = await super.getUpdateComplete();
    }
    return complete;
  }

  protected override willUpdate(changed: PropertyValues<this>) {
    if (changed.has('open') && this.open && this.hasUpdated) this.#rises = true;
    if (changed.has('pageSize')) this.pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(this.pageSize) || DEFAULT_PAGE_SIZE));
  }

  protected override updated(changed: PropertyValues<this>) {
    if (changed.has('open') && this.open !== Boolean(changed.get('open'))) {
      emit(this, this.open ? 'chatbot-open' : 'chatbot-close', {});
      if (!this.open && this.mode === 'floating' && this.matches(':focus-within')) this.focusLauncher();
    }
  }

  protected override render() {
    const t = this.text;
    const floating = this.mode !== 'inline';
    // Replies are counted by the panel's code: until it is here, there is no badge.
    const badge = floating && !this.open ? this.panel?.unreadBadge : undefined;
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
      <div part="panel" id="panel" lang=${this.#language.shown.code} class=${floating ? (this.#rises ? 'floating rises' : 'floating') : 'inline'} ?hidden=${!this.isShown}
        role=${floating ? 'dialog' : 'region'} aria-modal=${floating ? 'true' : nothing} aria-labelledby="heading">
        ${this.#loader.render(t)}
      </div>
    `;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'chatbot-widget': ChatbotWidget;
  }
}
