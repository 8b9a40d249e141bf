/**
 * Fetches the panel's lazier chunks (the history pane, the transcript's download) when the page
 * is idle after the panel is first shown: a visitor who never uses them does not wait for them
 * on the first open, and they are there once the connection goes (and from the HTTP cache, as
 * chunks are named by content hash). A chunk that cannot be fetched now is fetched again on its
 * first use, which says so if it fails again.
 */
import type { ReactiveController } from 'lit';
import { whenIdle } from '../../ui/when-idle.js';
import type { PanelHost } from './panel-host.js';

/** How long a shown panel waits for the page to be idle before it fetches its lazier chunks anyway. */
const IDLE_PRELOAD_TIMEOUT_MS = 2_000;

export class IdlePreload implements ReactiveController {
  /** Cancels the idle-time fetch while it is scheduled; undefined before it is and once it ran. */
  #cancel: (() => void) | undefined;
  #done = false;

  readonly #host: PanelHost;
  readonly #loads: readonly (() => Promise<unknown>)[];
  constructor(host: PanelHost, loads: readonly (() => Promise<unknown>)[]) {
    this.#host = host;
    this.#loads = loads;
    host.addController(this);
  }

  hostUpdated() {
    if (this.#done || this.#cancel || !this.#host.isShown) return;
    this.#cancel = whenIdle(() => {
      this.#cancel = undefined;
      this.#done = true;
      for (const load of this.#loads) load().catch(() => undefined);
    }, IDLE_PRELOAD_TIMEOUT_MS);
  }

  hostDisconnected() {
    this.#cancel?.();
    this.#cancel = undefined;
  }
}
