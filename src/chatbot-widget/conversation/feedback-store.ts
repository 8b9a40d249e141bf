/**
 * The visitor's thumbs up or down on bot messages, remembered in the widget's storage so a
 * reload (and every other tab, on the `changed` note) shows the choice. Namespaced like the
 * cache, by endpoint and visitor; one record per rated message, so two tabs rating different
 * messages at once never overwrite each other. `reset()` forgets them with the rest.
 *
 * Each record is also the message's place in the outbox of ratings (outbox-ratings.ts): it holds
 * the visitor's latest choice (a rating, with a comment after a thumbs down, or `null` once taken
 * back) until the handler has it. A new choice replaces the record, so only the latest is ever
 * waiting, whichever tab made it and across reloads.
 */
import { isFeedbackValue } from '../../shared/limits.js';
import type { ChatbotFeedbackDetail } from '../../ui/events.js';
import { keyPart, type KeyValueStorage } from '../io/storage.js';

/** A rating, as `chatbot-feedback` reports it. */
export type FeedbackValue = ChatbotFeedbackDetail['value'];

export interface RatingRecord {
  messageId: string;
  /** The latest choice; `null`: the rating was taken back. */
  value: FeedbackValue | null;
  /** What the visitor wrote after a thumbs down. */
  comment?: string;
  /**
   * Names this choice (random): the outbox marks a record delivered only while it still holds the
   * choice it sent, so a newer one made meanwhile, in any tab, is sent after it.
   */
  choice?: string;
  /**
   * The user id that made this choice: with the site's login it is sent only while `/visitor`
   * names that user (outbox-ratings.ts). Absent in a record kept before writers were noted.
   */
  writer?: string;
  /** The handler has this choice, or refused it for good: nothing left to send. */
  delivered?: boolean;
}

const prefixOf = (base: string) => `feedback|${base}|`;
/** The storage key of a message's rating record, in a visitor's namespace (see {@link FeedbackStore.namespace}). */
export const ratingKey = (namespace: string, messageId: string) => namespace + keyPart(messageId);
/** Records of another shape (IndexedDB returns whatever was put there) are left out. */
export const isRecord = (r: unknown): r is RatingRecord => {
  const record = r as Partial<RatingRecord> | undefined;
  return !!record && typeof record.messageId === 'string' && (record.value === null || isFeedbackValue(record.value));
};

export class FeedbackStore {
  #values = new Map<string, FeedbackValue>();
  #namespace = '';
  #userId = '';
  /** The last read found choices the handler does not have yet. */
  waiting = false;

  readonly #storage: KeyValueStorage;
  constructor(storage: KeyValueStorage) {
    this.#storage = storage;
  }

  /** The storage keys of the visitor's ratings start with this (one key per message after it). */
  get namespace() {
    return this.#namespace;
  }

  /**
   * Scopes the ratings to one endpoint and one visitor; forgets what another visitor rated. No
   * user id (identity not known yet): no namespace, so nothing is read or written under anyone's.
   */
  use(base: string, userId: string) {
    const namespace = userId ? `${prefixOf(base)}${keyPart(userId)}|` : '';
    if (namespace !== this.#namespace) this.#values = new Map();
    this.#namespace = namespace;
    this.#userId = userId;
  }

  /** The user whose ratings these are. */
  get userId() {
    return this.#userId;
  }

  /** The visitor's rating of a message, if any. */
  get(messageId: string): FeedbackValue | undefined {
    return this.#values.get(messageId);
  }

  /** Reads the stored ratings (another tab may have changed them). */
  async load() {
    const namespace = this.#namespace;
    if (!namespace) return;
    const records = (await this.#storage.list<RatingRecord>(namespace)).filter(isRecord);
    if (namespace !== this.#namespace) return;
    this.#values = new Map(records.flatMap((r) => (r.value ? [[r.messageId, r.value] as const] : [])));
    this.waiting = records.some((r) => !r.delivered);
  }

  /**
   * Rates a message, or takes its rating back (`undefined`), here and in storage, as the choice
   * the outbox sends next. `comment`: the visitor's words with a thumbs down.
   */
  async set(messageId: string, value: FeedbackValue | undefined, comment?: string) {
    if (value) this.#values.set(messageId, value);
    else this.#values.delete(messageId);
    const choice = Math.random().toString(36).slice(2);
    const record: RatingRecord = {
      messageId,
      value: value ?? null,
      ...(comment ? { comment } : {}),
      choice,
      ...(this.#userId ? { writer: this.#userId } : {}),
      delivered: false,
    };
    if (!this.#namespace) return;
    this.waiting = true;
    await this.#storage.set(ratingKey(this.#namespace, messageId), record);
  }

  /**
   * Moves a rating given on a reply under its temporary id to its server id, once known (only
   * then can the handler take it). Resolves to whether there was one to move.
   */
  async carry(temporaryId: string, messageId: string): Promise<boolean> {
    const namespace = this.#namespace;
    if (!namespace) return false;
    const record = await this.#storage.get<RatingRecord>(ratingKey(namespace, temporaryId));
    if (!isRecord(record)) return false;
    const value = this.#values.get(temporaryId);
    this.#values.delete(temporaryId);
    if (value) this.#values.set(messageId, value);
    this.waiting = true;
    await this.#storage.set(ratingKey(namespace, messageId), { ...record, messageId });
    await this.#storage.delete(ratingKey(namespace, temporaryId));
    return true;
  }

  /** Forgets every rating of an endpoint, for every visitor. */
  async clearEndpoint(base: string) {
    this.#values = new Map();
    this.waiting = false;
    await this.#storage.deletePrefix(prefixOf(base));
  }
}
