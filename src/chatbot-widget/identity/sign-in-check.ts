/**
 * With the site's login, whoever is signed in may change while the tab is out of view: they sign
 * out, or another user signs in, in another tab or on another page of the site. When the tab
 * comes back into view, this Lit reactive controller asks `/visitor` who is signed in now;
 * identity/visitor.ts tells the conversation of a change, which starts it over for that user.
 *
 * A tab shown again while its connection is still starting asks once the start is done: the
 * start's own `/visitor` answer may predate the change.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { Connection } from './connection.js';

export class SignInCheck implements ReactiveController {
  /** The connection checked for; none while the widget has no endpoint or is removed. */
  #connection: Connection | undefined;
  /** The connection's first read of identity and storage is done. */
  #started = false;
  /** Shown again while the connection was starting: ask once it has. */
  #askWhenStarted = false;

  constructor(host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected() {
    document.addEventListener('visibilitychange', this.#onVisible);
  }

  hostDisconnected() {
    document.removeEventListener('visibilitychange', this.#onVisible);
  }

  /** A connection begins (or none, when it ended): a check waits until it has {@link started}. */
  use(connection: Connection | undefined) {
    this.#connection = connection;
    this.#started = false;
    this.#askWhenStarted = false;
  }

  /** The connection's start is done: a check asked for meanwhile is made now. */
  started(connection: Connection) {
    if (connection !== this.#connection) return;
    this.#started = true;
    if (this.#askWhenStarted) {
      this.#askWhenStarted = false;
      this.#ask(connection);
    }
  }

  readonly #onVisible = () => {
    const connection = this.#connection;
    if (document.visibilityState !== 'visible' || !connection) return;
    if (this.#started) this.#ask(connection);
    else this.#askWhenStarted = true;
  };

  #ask(connection: Connection) {
    // A check that cannot reach the handler changes nothing: the next showing of the tab asks
    // again, and so does a call the handler refuses as nobody's.
    connection.visitor.recheck(connection.signal).catch(() => undefined);
  }
}
