import { html, nothing } from 'lit';
import { MAX_MESSAGE_CHARS } from '../../shared/limits.js';
import { hasLoneSurrogate } from '../../shared/well-formed.js';
import { safeHref } from '../../ui/markdown/render.js';
import { format, formatCount } from '../../ui/format-text.js';
import type { WidgetStrings } from '../../ui/strings.js';
import { clipIcon } from './icons.js';
import type { PanelHost } from './panel-host.js';

/** A text's length in code points, as upstream counts a message's. */
const length = (text: string) => [...text].length;
/** From this share of the longest message on, a counter under the field says how much is used. */
const COUNTER_FROM = 0.9;
/** The counter's id: it describes the field. */
const COUNT_ID = 'message-count';

/**
 * The form at the bottom of the panel: the message field (Enter sends, Shift+Enter breaks the
 * line), the Send button and, with the `attachments` attribute, the field for an attachment's URL.
 * While no send is possible (the day's quota spent) the field says until when, and neither Send
 * nor Enter sends; what was typed stays for later.
 *
 * The field takes text of any length, so nothing pasted is cut off unseen: near the longest
 * message a counter shows how much is used, and past it the field is marked invalid, says so
 * (the rating comment's words, which name no field) and sends nothing until it is short enough.
 */
export class Composer {
  #draft = '';
  #attachmentOpen = false;
  #attachment = '';
  /**
   * Why the composer did not send (a broken character in the message, an attachment URL that is
   * not a link), shown in the `error` part until the visitor edits or sends.
   */
  refusal = '';

  readonly #host: PanelHost;
  readonly #send: (text: string, file?: string) => void;
  /** Why no send is possible now (`strings.quotaExhausted` with its time), or undefined. */
  readonly #blocked: () => string | undefined;
  constructor(host: PanelHost, send: (text: string, file?: string) => void, blocked: () => string | undefined) {
    this.#host = host;
    this.#send = send;
    this.#blocked = blocked;
  }

  get input() {
    return this.#host.renderRoot.querySelector<HTMLTextAreaElement>('[part="input"]') ?? undefined;
  }

  /** Forgets what was typed (the visitor was reset). */
  clear() {
    this.#draft = '';
    this.#attachment = '';
    this.refusal = '';
    this.#attachmentOpen = false;
  }

  get #tooLong() {
    return length(this.#draft.trim()) > MAX_MESSAGE_CHARS;
  }

  readonly #onSubmit = (event: Event) => {
    event.preventDefault();
    const text = this.#draft.trim();
    if (!text || this.#blocked() || this.#tooLong) return;
    // Refused here, before it is cleared or queued, so the visitor can fix the text they wrote.
    if (hasLoneSurrogate(text)) return this.refuse(this.#host.text.brokenCharacter);
    let file: string | undefined;
    if (this.#host.attachments && this.#attachment.trim()) {
      file = safeHref(this.#attachment.trim(), undefined);
      if (!file || !/^https?:/.test(file)) return this.refuse(this.#host.text.attachmentInvalid);
    }
    const input = this.input;
    this.clear();
    if (input) input.value = '';
    this.#host.requestUpdate();
    this.#send(text, file);
    input?.focus();
  };

  /** Says why nothing was sent, in the `error` part; what was typed stays. */
  refuse(reason: string) {
    this.refusal = reason;
    this.#host.requestUpdate();
  }

  readonly #onKeydown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.#onSubmit(event);
    }
  };

  readonly #onInput = (event: Event) => {
    this.#draft = (event.target as HTMLTextAreaElement).value;
    this.refusal = '';
    this.#host.requestUpdate();
  };

  readonly #onAttachmentInput = (event: Event) => {
    this.#attachment = (event.target as HTMLInputElement).value;
  };

  readonly #toggleAttachment = () => {
    this.#attachmentOpen = !this.#attachmentOpen;
    this.#host.requestUpdate();
  };

  /**
   * The counter near and past the longest message, and past it the alert, there (empty) from the
   * counter's first showing so that its words are read out when they come.
   */
  #renderCount(t: WidgetStrings, count: number, over: boolean, counted: boolean) {
    const max = formatCount(MAX_MESSAGE_CHARS, this.#host.formatTag);
    return html`<p class="message-count" ?hidden=${!counted}>
      <span id=${COUNT_ID} ?data-over=${over}>${format(t.feedbackCommentCount, { count: formatCount(count, this.#host.formatTag), max })}</span>
      <span data-over role="alert">${over ? format(t.feedbackCommentTooLong, { max }) : ''}</span>
    </p>`;
  }

  /** `describedBy`: the id of what says why sending is blocked, read with the field. */
  render(t: WidgetStrings, describedBy?: string) {
    const attachments = this.#host.attachments;
    const blocked = this.#blocked();
    const count = length(this.#draft.trim());
    const over = count > MAX_MESSAGE_CHARS;
    const counted = count >= MAX_MESSAGE_CHARS * COUNTER_FROM;
    const described = [blocked && describedBy, counted && COUNT_ID].filter(Boolean).join(' ');
    return html`<form @submit=${this.#onSubmit}>
      ${
        attachments && this.#attachmentOpen
          ? html`<div class="attachment">
            <label class="sr-only" for="attachment">${t.attachmentLabel}</label>
            <input id="attachment" part="attachment-input" type="url" inputmode="url" .value=${this.#attachment}
              placeholder=${t.attachmentPlaceholder} @input=${this.#onAttachmentInput} />
          </div>`
          : nothing
      }
      <div class="row">
        ${
          attachments
            ? html`<button part="attach-button" class="icon-button" type="button" aria-label=${t.attach}
              aria-pressed=${this.#attachmentOpen ? 'true' : 'false'} @click=${this.#toggleAttachment}>${clipIcon}</button>`
            : nothing
        }
        <textarea part="input" rows="1" aria-label=${t.inputLabel} aria-invalid=${over ? 'true' : nothing}
          aria-describedby=${described || nothing}
          placeholder=${blocked ?? (this.#host.placeholder || t.placeholder)} .value=${this.#draft}
          @input=${this.#onInput} @keydown=${this.#onKeydown}></textarea>
        <button part="send-button" type="submit" ?disabled=${!this.#draft.trim() || !!blocked || over}>${t.send}</button>
      </div>
      ${this.#renderCount(t, count, over, counted)}
    </form>`;
  }
}
