import { LitElement, html } from 'lit';
import type { ChatbotUsageEventMap } from './usage-events.js';
import type { UsageView } from './usage-view.js';
import { hostStyles } from './chatbot-usage.styles.js';

/**
 * Usage figures of the chatbot for its site owner, from the signing handler's admin routes:
 * messages per UTC month as a bar chart (with distinct users and sessions per month, and the
 * same figures as a table), totals for the range, the busiest users, and from each user their
 * sessions and a session's messages (read-only, as plain text); and the visitors' feedback: thumbs
 * up and down per month, and the rated answers, not helpful first, each with the question before
 * it and the visitor's comment, opening its conversation. The figures export as CSV (with `up`
 * and `down` columns).
 *
 * The element itself is small: its view (chart, lists, styles) loads on first connection, so a
 * page that registers it but never shows it pays nearly nothing.
 *
 * @example
 * <script type="module" src="/chatbot-widget.js"></script>
 * <chatbot-usage endpoint="/chatbot" admin-token="…" from="2025-01-01" to="2026-01-01"></chatbot-usage>
 *
 * @tagname chatbot-usage
 *
 * @fires chatbot-error - an admin call failed or the range was refused; `detail.message` is the line shown in the `error` part
 *
 * @csspart chart - the bar chart of messages per month
 * @csspart bar - one month of the chart (messages, distinct users and sessions)
 * @csspart table - the same figures as a table (the "Table" view)
 * @csspart total - one total of the range (messages, from users, tokens, busiest month)
 * @csspart range - the form choosing `from` and `to`
 * @csspart export-button - downloads the figures shown as CSV
 * @csspart users - the list of the busiest users
 * @csspart user - one user (a button opening their sessions)
 * @csspart sessions - the list of a user's sessions
 * @csspart session - one session (a button opening its messages)
 * @csspart messages - the list of a session's messages
 * @csspart message - one message (a button showing its details)
 * @csspart message-detail - the details of the chosen message
 * @csspart feedback - the table of the visitors' thumbs up and down per month
 * @csspart feedback-item - one rated answer (a button opening its conversation): its rating, question, answer and comment
 * @csspart pager - Previous / Next of a list
 * @csspart error - the line saying what failed and what to do
 *
 * @cssprop --chatbot-accent - bars, buttons and focus ring
 * @cssprop --chatbot-on-accent - text on accent-coloured buttons
 * @cssprop --chatbot-background - background
 * @cssprop --chatbot-surface - background of panels and the table's header
 * @cssprop --chatbot-text - text colour
 * @cssprop --chatbot-muted - secondary text (month labels, notes)
 * @cssprop --chatbot-border - borders and the chart's grid
 * @cssprop --chatbot-error-background - background of the error line
 * @cssprop --chatbot-error-text - text of the error line
 * @cssprop --chatbot-focus - focus ring colour (default: the accent)
 * @cssprop --chatbot-font - font family
 * @cssprop --chatbot-font-size - base font size
 * @cssprop --chatbot-radius - corner radius
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface below only adds typed event-listener overloads
export class ChatbotUsage extends LitElement {
  /** Lit's reactive properties: the attributes and properties below, as each is read and reflected. */
  static override properties = {
    endpoint: {},
    adminToken: { attribute: 'admin-token' },
    from: {},
    to: {},
    theme: { reflect: true },
  };

  static override styles = hostStyles;

  /** URL of the signing handler's base path, e.g. `/chatbot`. */
  endpoint = '';
  /** The admin token, sent as `X-Admin-Token` on every admin call (what the handler's `authorizeAdmin` accepts). */
  adminToken = '';
  /** First day of the range (`YYYY-MM-DD`, UTC, inclusive); default: the first day of the month eleven months ago. */
  from = '';
  /** End of the range (`YYYY-MM-DD`, UTC, exclusive); default: the first day of next month. */
  to = '';
  /** `light`, `dark` or `auto` (follows the system). */
  theme: 'light' | 'dark' | 'auto' = 'light';

  #view: UsageView | undefined;
  #viewLoading: Promise<void> | undefined;

  override connectedCallback(): void {
    super.connectedCallback();
    this.#viewLoading ??= import('./usage-view.js').then(({ UsageView }) => {
      this.#view = new UsageView(this);
      this.requestUpdate();
    });
  }

  /**
   * Resolves once the figures of the current range are on screen, or their failure is shown.
   * Also after a change of `from`, `to`, `endpoint` or `admin-token`.
   */
  get settled(): Promise<void> {
    return (this.#viewLoading ?? Promise.resolve()).then(() => this.#view?.settled);
  }

  /** Loads the figures again (the range, the users, and whatever list is open). */
  async refresh(): Promise<void> {
    await this.#viewLoading;
    await this.#view?.reload();
  }

  protected override render() {
    return this.#view?.render() ?? html`<p class="loading" role="status">Loading usage…</p>`;
  }
}

// Typed listeners for the element's own event detail.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- only overloads of methods HTMLElement implements
export interface ChatbotUsage {
  addEventListener<K extends keyof ChatbotUsageEventMap>(
    type: K,
    listener: (this: ChatbotUsage, event: ChatbotUsageEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof ChatbotUsageEventMap>(
    type: K,
    listener: (this: ChatbotUsage, event: ChatbotUsageEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'chatbot-usage': ChatbotUsage;
  }
}
