/**
 * The panel's polite status line for short confirmations ("Copied", "Thanks for your
 * feedback"). Screen readers announce a live region when its text changes, so the same text
 * twice in a row (two copies) is announced again by emptying the region first; the text goes
 * away after a while, so a reader's later visit to the region does not find a stale message.
 */
import { html, type ReactiveController, type ReactiveControllerHost, type TemplateResult } from 'lit';

/** How long an announcement stays in the region. */
const ANNOUNCEMENT_MS = 4_000;
/** The empty region's time on screen before the next text, so the change is noticed. */
const RESET_MS = 50;

export class Announcer implements ReactiveController {
  text = '';
  #timer: ReturnType<typeof setTimeout> | undefined;

  readonly #host: ReactiveControllerHost;
  constructor(host: ReactiveControllerHost) {
    this.#host = host;

    host.addController(this);
  }

  hostDisconnected() {
    clearTimeout(this.#timer);
    this.text = '';
  }

  /** Announces `text` politely. */
  say(text: string) {
    clearTimeout(this.#timer);
    this.text = '';
    this.#host.requestUpdate();
    this.#timer = setTimeout(() => {
      this.text = text;
      this.#host.requestUpdate();
      this.#timer = setTimeout(() => {
        this.text = '';
        this.#host.requestUpdate();
      }, ANNOUNCEMENT_MS);
    }, RESET_MS);
  }

  /** The live region; render it always, so it exists before its first text. */
  render(): TemplateResult {
    return html`<div class="sr-only" role="status" data-announcer>${this.text}</div>`;
  }
}
