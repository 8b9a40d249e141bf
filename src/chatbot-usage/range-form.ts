/**
 * The form of `<chatbot-usage>` that chooses `from` and `to`. A range that is not one is refused
 * here, next to the field it names, and never sent: it is the person's input, not a failure, so
 * no `chatbot-error` fires for it. A good one is set on the element, which loads it (the same
 * range again loads it again).
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { UsageHost } from './usage-host.js';
import { checkRange } from './month-range.js';

export class RangeForm {
  #error: { field: 'from' | 'to'; message: string } | undefined;

  readonly #host: UsageHost;
  readonly #range: () => { from: string; to: string };
  readonly #reload: () => void;
  constructor(host: UsageHost, range: () => { from: string; to: string }, reload: () => void) {
    this.#host = host;
    this.#range = range;
    this.#reload = reload;
  }

  #submit(event: SubmitEvent): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const from = (form.elements.namedItem('from') as HTMLInputElement).value;
    const to = (form.elements.namedItem('to') as HTMLInputElement).value;
    const check = checkRange(from, to);
    if (!check.ok) {
      // Refused here, never sent: the owner fixes the field the message names.
      this.#error = { field: check.field, message: check.message };
      this.#host.requestUpdate();
      void this.#host.updateComplete.then(() => (form.elements.namedItem(check.field) as HTMLInputElement).focus());
      return;
    }
    this.#error = undefined;
    if (from === this.#range().from && to === this.#range().to) this.#reload();
    this.#host.from = from;
    this.#host.to = to;
  }

  /** The form, showing `range`. */
  render({ from, to }: { from: string; to: string }): TemplateResult {
    const invalid = (field: 'from' | 'to') => (this.#error?.field === field ? 'true' : 'false');
    return html`<form part="range" class="range" novalidate @submit=${(e: SubmitEvent) => this.#submit(e)}>
      <label>From <input type="date" name="from" .value=${from} required aria-invalid=${invalid('from')} aria-describedby="range-help range-error" /></label>
      <label>To <input type="date" name="to" .value=${to} required aria-invalid=${invalid('to')} aria-describedby="range-help range-error" /></label>
      <button type="submit" class="primary">Show</button>
      <p id="range-help" class="note">From the start of “From” to just before “To”, in UTC.</p>
      <p id="range-error" class="form-error" role="alert">${this.#error?.message ?? nothing}</p>
    </form>`;
  }
}
