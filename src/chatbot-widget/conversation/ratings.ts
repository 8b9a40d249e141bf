/**
 * The visitor's ratings of replies: remembered at once (and the other tabs told), moved to a
 * reply's server id once it is known, and delivered to the handler by the ratings outbox, whose
 * code loads with the first rating there is to send.
 */
import type { Connection } from '../identity/connection.js';
import type { ControllerContext } from './controller-context.js';
import type { FeedbackStore, FeedbackValue } from './feedback-store.js';
import type { RatingsOutbox } from './outbox-ratings.js';
import type { KeyValueStorage } from '../io/storage.js';

export class Ratings {
  /** The outbox's code on the way (or loaded); undefined before the first rating to send and after a failed load. */
  #outbox: Promise<RatingsOutbox> | undefined;

  readonly #feedback: FeedbackStore;
  readonly #storage: KeyValueStorage;
  readonly #context: ControllerContext;
  readonly #connection: () => Connection | undefined;
  constructor(feedback: FeedbackStore, storage: KeyValueStorage, context: ControllerContext, connection: () => Connection | undefined) {
    this.#feedback = feedback;
    this.#storage = storage;
    this.#context = context;
    this.#connection = connection;
  }

  /**
   * Rates a bot message (or takes the rating back: `undefined`; `comment`: the visitor's words
   * with a thumbs down), remembered here and in the other tabs, and sent to the handler.
   */
  async rate(messageId: string, value: FeedbackValue | undefined, comment?: string) {
    const rating = this.#feedback.set(messageId, value, comment);
    this.#context.host.requestUpdate();
    await rating;
    this.#context.changed();
    this.deliver();
  }

  /** A reply rated under its temporary id is known by its server id: the rating moves there and is sent. */
  async carry(temporaryId: string, messageId: string) {
    if (!(await this.#feedback.carry(temporaryId, messageId))) return;
    this.#context.host.requestUpdate();
    this.#context.changed();
    this.deliver();
  }

  /** Sends the waiting ratings to the handler, loading the outbox's code first if need be. */
  deliver() {
    const connection = this.#connection();
    if (!connection) return;
    this.#outbox ??= import('./outbox-ratings.js').then(
      ({ RatingsOutbox }) => new RatingsOutbox(this.#feedback, this.#storage),
      (error: unknown) => {
        this.#outbox = undefined; // tried again on the next occasion (back online, the next rating)
        throw error;
      },
    );
    this.#outbox.then(
      (outbox) => outbox.deliver(connection),
      () => undefined,
    );
  }
}
