/**
 * Copying a bot message (its Markdown source) or one of its code blocks: the buttons, and what
 * a press does — the clipboard, the `chatbot-copy` event, a polite announcement, and a check
 * mark on the button for a moment so sighted visitors see it worked too. A copy that fails is
 * said where every visitor sees and hears it: the panel's error line.
 */
import { html, type ReactiveControllerHost, type TemplateResult } from 'lit';
import type { WidgetStrings } from '../../ui/strings.js';
import type { Announcer } from './announcer.js';
import { copyText } from './clipboard.js';

/** How long a button shows its check mark after copying. */
const DONE_MS = 2_000;

const copyIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true"><rect x="9" y="9" width="11" height="11" rx="2" /><path d="M5 15V6a2 2 0 0 1 2-2h9" /></svg>`;
const doneIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M5 12.5l4.5 4.5L19 7.5" /></svg>`;

/** The element the buttons are drawn in: the fallback's field goes into its shadow root. */
export interface CopyHost extends ReactiveControllerHost {
  readonly renderRoot: HTMLElement | DocumentFragment;
}

export class CopyButtons {
  /** A copy failed: the panel's error line says so until dismissed, a copy works, or a newer error comes. */
  failed = false;
  /** The button that copied last, while it shows its check mark (`message id` or `message id|n`). */
  #done: string | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  readonly #host: CopyHost;
  readonly #announcer: Announcer;
  readonly #onCopied: (messageId: string) => void;
  constructor(
    host: CopyHost,
    announcer: Announcer,
    /** Fires `chatbot-copy` for the message copied from. */
    onCopied: (messageId: string) => void,
  ) {
    this.#host = host;
    this.#announcer = announcer;
    this.#onCopied = onCopied;
  }

  /** Copies, then tells: the event and "Copied" on success, `copyFailed` when nothing could copy. */
  async copy(text: string, messageId: string, button: string, t: WidgetStrings) {
    const copied = await copyText(text, this.#host.renderRoot as ShadowRoot);
    this.failed = !copied;
    if (!copied) return this.#host.requestUpdate();
    clearTimeout(this.#timer);
    this.#done = button;
    this.#timer = setTimeout(() => {
      this.#done = undefined;
      this.#host.requestUpdate();
    }, DONE_MS);
    this.#announcer.say(t.copied);
    this.#onCopied(messageId);
  }

  /** The copy button of a bot message: copies its whole text as written (Markdown). */
  messageButton(messageId: string, text: string, t: WidgetStrings): TemplateResult {
    return this.#button('copy-button', t.copyMessage, messageId, () => void this.copy(text, messageId, messageId, t));
  }

  /**
   * Draws each code block of a bot message (part `code-block`) with its copy button (for `renderMarkdown`), in a bar
   * of its own above the code: beside the code it took a column from every line, over it it hid
   * the first line. Blocks are numbered in order, so each button's check mark is its own.
   */
  codeWrapper(messageId: string, t: WidgetStrings) {
    let n = 0;
    return (code: string) => {
      const id = `${messageId}|${n++}`;
      return html`<div class="code-block"><div class="code-bar">${this.#button('code-copy-button', t.copyCode, id, () => void this.copy(code, messageId, id, t))}</div><pre part="code-block"><code>${code}</code></pre></div>`;
    };
  }

  #button(part: string, label: string, id: string, onClick: () => void): TemplateResult {
    return html`<button part=${part} class="icon-button copy" type="button" aria-label=${label} @click=${onClick}>
      ${this.#done === id ? doneIcon : copyIcon}
    </button>`;
  }
}
