/**
 * The outbox of ratings: every thumbs up or down (and every rating taken back) reaches the
 * handler, `POST {base}/feedback`, so the site owner sees it, even when it was given offline.
 *
 * The waiting choices are the feedback records not yet marked delivered (feedback-store.ts): one
 * per message, always the visitor's latest. They are sent in the background, never holding up
 * the thumbs, one sender at a time across the tabs of the browser (Web Locks), each record read
 * again just before it goes, and marked delivered only if no newer choice replaced it meanwhile,
 * so a stale value is never the last one sent. The handler keeps one rating per visitor and
 * message, so sending a choice twice changes nothing.
 *
 * A failure the network or a busy server caused leaves the choice waiting: it goes again when the
 * browser is back online, on the next rating, on the next load of the widget, or after a pause
 * (the handler's `Retry-After` on a 429). A refusal (400, 404: not one of the visitor's own bot
 * messages) is final: the choice is not sent again.
 */
import { isAbort, type Connection } from '../identity/connection.js';
import { isRecord, ratingKey, type FeedbackStore, type RatingRecord } from './feedback-store.js';
import type { KeyValueStorage } from '../io/storage.js';
import { isTemporaryReplyId } from './outbox-sender.js';
import { RequestFailure } from '../io/transport.js';
import type { ChatbotErrorKind } from '../../ui/events.js';

/** Failures that say nothing about the rating itself: it is sent again later. */
const PASSING_FAILURES: ReadonlySet<ChatbotErrorKind> = new Set<ChatbotErrorKind>([
  'offline',
  'unreachable',
  'timeout',
  'rate-limited',
  'server',
  'identity',
]);
/** A record waiting in the outbox, with the storage key it was read under. */
interface WaitingRating {
  key: string;
  record: RatingRecord;
}

/** Pauses before trying again after failures in a row, when the browser says nothing about its connection. */
const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000];

export class RatingsOutbox {
  /** The connection sent for; a new one (another visitor, endpoint or reset) starts afresh. */
  #connection: Connection | undefined;
  #running = false;
  /** A delivery was asked for while one ran: it runs once more, for what changed meanwhile. */
  #again = false;
  #failures = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  readonly #store: FeedbackStore;
  readonly #storage: KeyValueStorage;
  constructor(store: FeedbackStore, storage: KeyValueStorage) {
    this.#store = store;
    this.#storage = storage;
  }

  /** Sends every waiting choice for the connection, in the background; work for an ended connection stops. */
  deliver(connection: Connection) {
    if (connection !== this.#connection) {
      this.#connection = connection;
      this.#failures = 0;
      this.#running = false;
    }
    clearTimeout(this.#timer);
    if (connection.signal.aborted) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    void (async () => {
      try {
        do {
          this.#again = false;
          await this.#withLock(connection, () => this.#sendWaiting(connection));
        } while (this.#again && !connection.signal.aborted);
      } catch (error) {
        if (!isAbort(error)) throw error;
      } finally {
        if (connection === this.#connection) this.#running = false;
      }
    })();
  }

  /** Across tabs one sender at a time per endpoint; without Web Locks, one per tab. */
  async #withLock(connection: Connection, action: () => Promise<void>) {
    const locks = navigator.locks as LockManager | undefined;
    if (!locks) return action();
    await locks.request(`chatbot-widget-ratings|${connection.visitor.base}`, { signal: connection.signal }, action);
  }

  async #sendWaiting(connection: Connection) {
    const { visitor, signal } = connection;
    for (const listed of await this.#waiting()) {
      // Another tab may have sent it, or the visitor changed their mind, since the list was read.
      const waiting = await this.#current(listed);
      if (signal.aborted) return;
      if (!waiting) continue;
      const { messageId, value, comment } = waiting.record;
      try {
        if (!(await this.#writerSignedIn(connection, waiting.record))) return;
        await visitor.request('POST', '/feedback', { body: { messageId, value, ...(comment ? { comment } : {}) }, signal });
      } catch (error) {
        if (signal.aborted || isAbort(error)) return;
        // Nobody signed in: the choice waits for its writer, whose sign-in starts a new delivery.
        if (error instanceof RequestFailure && error.kind === 'signed-out') return;
        if (!(error instanceof RequestFailure) || PASSING_FAILURES.has(error.kind)) return this.#later(connection, error);
        // Refused for good: sending it again would be refused again.
      }
      this.#failures = 0;
      await this.#delivered(waiting);
    }
  }

  /**
   * With the site's login the page's cookies say who rates, and they may have changed since the
   * choice was made: `/visitor` is asked before each one goes, and only a choice made by the user
   * it names is sent (another answer starts the widget over for that user; the choice waits for
   * its writer).
   */
  async #writerSignedIn({ visitor, signal }: Connection, record: RatingRecord): Promise<boolean> {
    if (!visitor.siteLogin) return true;
    const writer = record.writer ?? this.#store.userId;
    const now = await visitor.confirmed(signal);
    return !!now && now.userId === writer;
  }

  /** The visitor's choices the handler does not have yet, read from storage (any tab may have made them). */
  async #waiting(): Promise<WaitingRating[]> {
    const namespace = this.#store.namespace;
    if (!namespace) return [];
    const records = (await this.#storage.list<RatingRecord>(namespace)).filter(isRecord);
    // A rating of a reply still under its temporary id waits until its server id is known.
    return records
      .filter((r) => !r.delivered && !isTemporaryReplyId(r.messageId))
      .map((record) => ({ key: ratingKey(namespace, record.messageId), record }));
  }

  /** The message's record as stored now, if it is still waiting. */
  async #current({ key }: WaitingRating): Promise<WaitingRating | undefined> {
    const record = await this.#storage.get<RatingRecord>(key);
    return isRecord(record) && !record.delivered ? { key, record } : undefined;
  }

  /**
   * Marks a choice delivered, unless a newer one replaced it meanwhile (that one is still to send).
   * A rating taken back leaves nothing to remember once the handler has it: its record is deleted.
   */
  async #delivered({ key, record }: WaitingRating) {
    const same = (stored: RatingRecord | undefined) => !!stored && stored.choice === record.choice;
    if (record.value === null) return this.#storage.deleteIf<RatingRecord>(key, same);
    await this.#storage.update<RatingRecord | undefined>(key, (stored) => (same(stored) ? { ...stored!, delivered: true } : stored));
  }

  /** Tries again after a pause; offline, when the browser is back online (see the controller's `online` listener). */
  #later(connection: Connection, error: unknown) {
    if (error instanceof RequestFailure && error.kind === 'offline') return;
    const wait =
      error instanceof RequestFailure && error.retryAfter
        ? error.retryAfter * 1000
        : RETRY_DELAYS_MS[Math.min(this.#failures, RETRY_DELAYS_MS.length - 1)]!;
    this.#failures++;
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.deliver(connection), wait);
  }
}
