/**
 * The comment box a thumbs down opens under its message: what was missing or wrong, in the
 * visitor's words, sent with the rating. Optional: Skip (or Escape) closes it, and the thumbs
 * down stands as given. At most {@link MAX_FEEDBACK_COMMENT_CHARS} characters; a counter under the
 * field (which describes it) says how many are used, and past the limit the field is marked
 * invalid, says so, and Send waits until it is short enough.
 *
 * A chunk of its own, loaded on the first thumbs down (most visitors never give one), with its
 * styles, which join the element's when the box is first drawn.
 */
import { css, html, type CSSResult, type TemplateResult } from 'lit';
import { MAX_FEEDBACK_COMMENT_CHARS } from '../../shared/limits.js';
import { format, formatCount } from '../../ui/format-text.js';
import type { WidgetStrings } from '../../ui/strings.js';
import type { ChatController } from '../conversation/chat-controller.js';
import type { Announcer } from './announcer.js';
import type { PanelHost } from './panel-host.js';

/** The box's field, focused when it opens. */
export const COMMENT_FIELD_ID = 'feedback-comment';

const commentStyles: CSSResult = css`
  .meta:has(.feedback-comment) {
    flex-wrap: wrap;
  }
  form.feedback-comment {
    flex-basis: 100%;
    padding: 8px 0 0;
    border: 0;
    font-size: 1.25em;
    color: var(--_text);
  }
  .feedback-comment textarea {
    min-block-size: 3.5em;
    max-block-size: 10em;
    field-sizing: content;
    resize: block;
    padding: 6px 8px;
    border: 1px solid var(--_border);
    border-radius: 8px;
    background: var(--_bg);
  }
  .feedback-comment textarea:focus-visible {
    outline-offset: -1px;
    border-color: var(--_focus);
  }
  .feedback-comment textarea[aria-invalid='true'] {
    border-color: var(--_error-text);
  }
  .feedback-comment .counter[data-over] {
    color: var(--_error-text);
    font-weight: 600;
  }
  .feedback-comment .row {
    align-items: center;
    justify-content: flex-end;
    flex-wrap: wrap;
  }
  #feedback-comment-count {
    margin-inline-end: auto;
  }
  .feedback-comment [type='submit'] {
    padding: 4px 12px;
    border: 0;
    border-radius: 8px;
    background: var(--_accent);
    color: var(--_on-accent);
    font-weight: 600;
    cursor: pointer;
  }
  .feedback-comment [type='submit']:disabled {
    cursor: not-allowed;
    opacity: 0.55;
  }
`;

/** Characters as upstream and the handler count them: Unicode code points. */
const length = (text: string) => [...text].length;

/**
 * One comment being written under a message: drawn and focused at once, sent with the thumbs
 * down (Send), or left unwritten (Skip, Escape); then it closes and focus goes back to the thumbs
 * down it came from.
 */
export class FeedbackComment {
  text = '';

  readonly messageId: string;
  readonly #host: PanelHost;
  readonly #chat: Pick<ChatController, 'ratings'>;
  readonly #announcer: Announcer;
  readonly #closed: () => void;
  constructor(host: PanelHost, messageId: string, chat: Pick<ChatController, 'ratings'>, announcer: Announcer, closed: () => void) {
    this.#host = host;
    this.messageId = messageId;
    this.#chat = chat;
    this.#announcer = announcer;
    this.#closed = closed;

    host.requestUpdate();
    void host.updateComplete.then(() => host.renderRoot.querySelector<HTMLElement>(`#${COMMENT_FIELD_ID}`)?.focus());
  }

  get #tooLong() {
    return length(this.text) > MAX_FEEDBACK_COMMENT_CHARS;
  }

  readonly #onInput = (event: Event) => {
    this.text = (event.target as HTMLTextAreaElement).value;
    this.#host.requestUpdate();
  };

  readonly #onSubmit = (event: Event) => {
    event.preventDefault();
    if (this.#tooLong) return;
    // A broken character (half of an emoji) would have the whole rating refused: it goes as U+FFFD.
    void this.#chat.ratings.rate(this.messageId, 'down', this.text.trim().replace(/\p{Cs}/gu, '\uFFFD'));
    this.#announcer.say(this.#host.text.feedbackThanks);
    this.#close();
  };

  /** Escape closes the box, not the panel around it. */
  readonly #onKeydown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    event.preventDefault();
    this.#close();
  };

  readonly #close = () => {
    const host = this.#host;
    this.#closed();
    host.requestUpdate();
    void host.updateComplete.then(() =>
      host.renderRoot.querySelector<HTMLElement>(`[data-key="${CSS.escape(this.messageId)}"] [part~='feedback-down']`)?.focus(),
    );
  };

  /** The box, under its message's thumbs; its styles join the element's the first time. */
  render(t: WidgetStrings): TemplateResult {
    const root = this.#host.renderRoot as ShadowRoot;
    const sheet = commentStyles.styleSheet;
    if (sheet && !root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    const over = this.#tooLong;
    const max = formatCount(MAX_FEEDBACK_COMMENT_CHARS, this.#host.formatTag);
    // The counter describes the field (read with it, not at every key); past the limit, an alert says so once.
    return html`<form class="feedback-comment" @submit=${this.#onSubmit} @keydown=${this.#onKeydown}>
      <label for=${COMMENT_FIELD_ID}>${t.feedbackCommentLabel}</label>
      <textarea id=${COMMENT_FIELD_ID} rows="2" .value=${this.text} aria-invalid=${over ? 'true' : 'false'}
        aria-describedby="feedback-comment-count feedback-comment-limit" @input=${this.#onInput}></textarea>
      <div class="row">
        <span id="feedback-comment-count" class="counter" ?data-over=${over}>${format(t.feedbackCommentCount, {
          count: formatCount(length(this.text), this.#host.formatTag),
          max,
        })}</span>
        <span id="feedback-comment-limit" class="counter" data-over role="alert">${over ? format(t.feedbackCommentTooLong, { max }) : ''}</span>
        <button class="link-button" type="button" @click=${this.#close}>${t.feedbackCommentSkip}</button>
        <button type="submit" ?disabled=${over}>${t.send}</button>
      </div>
    </form>`;
  }
}
