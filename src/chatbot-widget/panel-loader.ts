/**
 * The panel's code, loaded when it is needed, as a Lit reactive controller: at once for a shown
 * widget, else when the page is idle (so the outbox resumes and a first open is instant), again
 * after a failure when asked. Until it is here, the panel's place shows a stand-in: the panel as
 * the visitor last saw it (panel-snapshot.ts), or a loading line, or what went wrong and a way to
 * try again.
 */
import { adoptStyles, html, nothing, type CSSResultOrNative, type LitElement, type ReactiveController } from 'lit';
import type { WidgetStrings } from '../ui/strings.js';
import { whenIdle } from '../ui/when-idle.js';
import { conversationStyles } from './conversation.styles.js';
import { readSnapshot } from './panel-snapshot.js';
import type { ChatPanel, PanelHost } from './panel/chat-panel.js';

/** How long a closed widget waits for the page to be idle before it loads the panel's code anyway. */
const IDLE_LOAD_TIMEOUT_MS = 4_000;

export class PanelLoader implements ReactiveController {
  /** The panel, once its code has loaded. */
  panel: ChatPanel | undefined;
  /** The panel's code could not be fetched (offline on first open). */
  failed = false;
  /** Its code on the way (or loaded); undefined before the first attempt and after a failed one. */
  loading: Promise<ChatPanel> | undefined;
  /** The panel as the visitor last saw it, shown while its code loads. */
  #snapshot: Node[] | undefined;
  /** Cancels the idle-time load of the panel's code, while it is scheduled. */
  #cancelIdleLoad: (() => void) | undefined;

  readonly #host: PanelHost & LitElement;
  /** Loads the whole language the panel speaks (it waits for it). */
  readonly #wholeLanguage: () => Promise<void>;
  constructor(host: PanelHost & LitElement, wholeLanguage: () => Promise<void>) {
    this.#host = host;
    this.#wholeLanguage = wholeLanguage;

    host.addController(this);
  }

  /** Attached again: the panel's code is scheduled on the next update. */
  hostConnected() {
    this.#host.requestUpdate();
  }

  hostDisconnected() {
    this.#stopIdleLoad();
  }

  hostUpdate() {
    const host = this.#host;
    // A reload of the element shown: the panel as the visitor last saw it is drawn in this first
    // render until the panel's code draws it, with the styles of its conversation, which ship in
    // the first load (nothing of the snapshot's record styles anything).
    if (!host.hasUpdated && host.isShown) {
      this.#snapshot = readSnapshot(host.endpoint);
      if (this.#snapshot) this.#adoptStyles([conversationStyles]);
    }
    if (host.isConnected) this.#schedule();
  }

  hostUpdated() {
    // A snapshot shows the end of the conversation, as the panel does.
    if (this.#snapshot) this.#host.renderRoot.querySelector('[part=messages]')?.scrollTo(0, 1e9);
  }

  /**
   * Loads the panel's code and a whole language (once; again after a failure) and builds the
   * panel. Its styles join the element's then, so a page that never opens the chat never parses them.
   */
  load(): Promise<ChatPanel> {
    this.loading ??= Promise.all([
      // Its two exports taken by name: the build then gives the panel's chunk no namespace object
      // of the module (the lazier chunks import from that chunk too).
      import('./panel/chat-panel.js').then(({ ChatPanel, panelStyles }) => ({ ChatPanel, panelStyles })),
      this.#wholeLanguage(),
    ]).then(
      ([{ ChatPanel, panelStyles }]) => {
        if (this.panel) return this.panel;
        // Built before its styles join, while the element's layout is still clean: it measures the panel.
        const panel = new ChatPanel(this.#host);
        this.#adoptStyles(panelStyles);
        this.panel = panel;
        this.#snapshot = undefined;
        this.failed = false;
        this.#host.requestUpdate();
        return panel;
      },
      (error: unknown) => {
        this.loading = undefined;
        // Drawn once: the update it asks for schedules one more try, and a failure after that
        // asks for no further update, or the element would try again and again without end
        // (Retry, or the next change of the element, tries again).
        const saidAlready = this.failed;
        this.failed = true;
        // What went wrong is said in the panel's place: no snapshot stands in for a panel that
        // is not coming.
        if (this.#snapshot) {
          this.#snapshot = undefined;
          this.#adoptStyles([]);
        }
        if (!saidAlready) this.#host.requestUpdate();
        throw error;
      },
    );
    return this.loading;
  }

  /** The panel's styles join the element's: its code's, a snapshot's, or (none) the element's own only. */
  #adoptStyles(styles: CSSResultOrNative[]) {
    const host = this.#host;
    adoptStyles(host.renderRoot as ShadowRoot, [...(host.constructor as typeof LitElement).elementStyles, ...styles]);
  }

  /** Loads the panel when the page is idle (closed), or right away (shown). */
  #schedule() {
    if (this.loading) return;
    if (this.#host.isShown) {
      this.#stopIdleLoad();
      this.load().catch(() => undefined);
    } else {
      this.#cancelIdleLoad ??= whenIdle(() => {
        this.#cancelIdleLoad = undefined;
        if (this.#host.isConnected) this.load().catch(() => undefined);
      }, IDLE_LOAD_TIMEOUT_MS);
    }
  }

  #stopIdleLoad() {
    this.#cancelIdleLoad?.();
    this.#cancelIdleLoad = undefined;
  }

  /**
   * The panel's contents: its own once its code is here (drawn even while closed, hidden, so that
   * opening only lays out and paints what is there). Before, shown: the snapshot, or a status line
   * or what went wrong and a way to try again, which is the `heading` meanwhile (the dialog's name
   * until the panel draws its title).
   */
  render(t: WidgetStrings) {
    if (this.panel) return this.panel.render();
    if (!this.#host.isShown) return nothing;
    if (this.#snapshot) return html`<div class="snapshot" inert>${this.#snapshot}</div>`;
    return this.failed
      ? html`<p id="heading" role="alert" class="loading">${t.errorUnreachable}
          <button type="button" @click=${() => void this.load().catch(() => undefined)}>${t.retry}</button></p>`
      : html`<p id="heading" role="status" class="loading">${t.loadingChat}</p>`;
  }
}
