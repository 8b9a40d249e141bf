import type { ReactiveController, ReactiveControllerHost } from 'lit';

const FOCUSABLE = 'button:not([disabled]), textarea:not([disabled]), input:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

export interface FocusTrapOptions {
  /** Whether the trap holds now (a floating panel that is open: a modal dialog). */
  active(): boolean;
  /** The element focus stays in. */
  container(): HTMLElement | undefined;
  /** Escape was pressed while the trap holds. */
  onEscape(): void;
  /** An element that counts as focusable even while not laid out yet (the message field on opening). */
  alwaysFocusable?(): HTMLElement | undefined;
}

/**
 * Keeps keyboard focus inside a modal dialog in a shadow root: Tab from the last focusable
 * element goes to the first, Shift+Tab from the first to the last, and Escape is handed to the
 * dialog (which closes the innermost thing open).
 */
export class FocusTrap implements ReactiveController {
  readonly #host: ReactiveControllerHost & HTMLElement;
  readonly #options: FocusTrapOptions;
  constructor(host: ReactiveControllerHost & HTMLElement, options: FocusTrapOptions) {
    this.#host = host;
    this.#options = options;

    host.addController(this);
  }

  hostConnected() {
    this.#host.addEventListener('keydown', this.#onKeydown);
  }

  hostDisconnected() {
    this.#host.removeEventListener('keydown', this.#onKeydown);
  }

  readonly #onKeydown = (event: KeyboardEvent) => {
    if (!this.#options.active()) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      this.#options.onEscape();
      return;
    }
    const container = this.#options.container();
    if (event.key !== 'Tab' || !container) return;
    const always = this.#options.alwaysFocusable?.();
    // Laid out and not inert (the conversation under the open history pane is).
    const focusable = [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
      (el) => (el.offsetParent !== null || el === always) && !el.closest('[inert]'),
    );
    if (!focusable.length) return;
    const first = focusable[0]!;
    const last = focusable[focusable.length - 1]!;
    const active = this.#host.shadowRoot?.activeElement ?? null;
    if (event.shiftKey && (active === first || !container.contains(active))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (active === last || !container.contains(active))) {
      event.preventDefault();
      first.focus();
    }
  };
}
