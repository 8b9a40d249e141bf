/**
 * Where keyboard focus goes in the panel, as a Lit reactive controller: into the message field
 * when the floating panel opens; kept inside it while it is open (a modal dialog, focus-trap.ts);
 * and on Escape, out of the innermost thing open: the history pane, else the panel itself, back
 * to the launcher.
 */
import type { ReactiveController } from 'lit';
import { afterNextPaint } from '../../ui/after-paint.js';
import type { Composer } from './composer.js';
import { FocusTrap } from './focus-trap.js';
import type { HistoryPaneState } from './history-pane-state.js';
import { partOf, type PanelHost } from './panel-host.js';

export class PanelFocus implements ReactiveController {
  /** Whether the panel was open at the last update. */
  #open = false;
  /** No update has followed the panel's building yet: an opening now is one the panel was built for. */
  #built = true;

  readonly #host: PanelHost;
  readonly #composer: Composer;
  constructor(host: PanelHost, composer: Composer, history: HistoryPaneState) {
    this.#host = host;
    this.#composer = composer;

    new FocusTrap(host, {
      active: () => host.mode === 'floating' && host.open,
      container: () => partOf(host, 'panel'),
      alwaysFocusable: () => composer.input,
      onEscape: () => {
        if (history.open) history.closeToButton();
        else {
          host.hide();
          void host.updateComplete.then(() => host.focusLauncher());
        }
      },
    });
    host.addController(this);
  }

  hostUpdated() {
    const host = this.#host;
    const opened = host.open && !this.#open;
    const built = this.#built;
    this.#open = host.open;
    this.#built = false;
    // Built for this opening (created open, or opened before its code was here), the field takes
    // focus once the first frame is painted, as focusing lays out the page.
    if (opened && host.mode === 'floating') void (built ? afterNextPaint() : host.updateComplete).then(() => this.#composer.input?.focus());
  }
}
