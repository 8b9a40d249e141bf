/**
 * A code block wider than its bubble scrolls sideways; keyboard users can only scroll what can
 * take focus, so such a block gets `tabindex="0"` and a name (and loses them when it fits).
 * It looks again when the rendered bubbles change (not on every keystroke) and when the list
 * changes width (the panel resized, the viewport turned).
 */
export class ScrollableCode {
  #observer: ResizeObserver | undefined;
  #watched: HTMLElement | undefined;
  /** What {@link mark} last looked at. */
  #signature = '';

  /** @param label the accessible name of a scrollable block (read on each look: the language may change). */
  readonly #label: () => string;
  constructor(label: () => string) {
    this.#label = label;
  }

  /** After an update: watches `list` for width changes and marks its code blocks if its bubbles changed. */
  update(list: HTMLElement | undefined, renderedKeys: readonly string[]) {
    this.#watch(list);
    const signature = `${this.#label()}|${renderedKeys.join('|')}`;
    if (signature === this.#signature) return;
    this.#signature = signature;
    this.#mark();
  }

  disconnect() {
    this.#observer?.disconnect();
    this.#watched = undefined;
  }

  #watch(list: HTMLElement | undefined) {
    if (list === this.#watched) return;
    this.#observer?.disconnect();
    this.#watched = list;
    if (!list || typeof ResizeObserver === 'undefined') return;
    let width = -1;
    this.#observer ??= new ResizeObserver((entries) => {
      const next = entries[entries.length - 1]!.contentRect.width;
      if (next !== width) {
        width = next;
        this.#mark();
      }
    });
    this.#observer.observe(list);
  }

  #mark() {
    const list = this.#watched;
    if (!list) return;
    const label = this.#label();
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
}
