/**
 * The visitor's thumbs up or down on bot messages, remembered in the widget's storage so a
 * reload (and every other tab, on the `changed` note) shows the choice. Namespaced like the
 * cache, by endpoint and visitor; one record per rated message, so two tabs rating different
 * messages at once never overwrite each other. `reset()` forgets them with the rest.
 */
import type { ChatbotFeedbackDetail } from '../../ui/events.js';
import type { KeyValueStorage } from './storage.js';

/** A rating, as `chatbot-feedback` reports it. */
export type FeedbackValue = ChatbotFeedbackDetail['value'];

interface FeedbackRecord {
  messageId: string;
  value: FeedbackValue;
}

const prefixOf = (base: string) => `feedback|${base}|`;
const isValue = (value: unknown): value is FeedbackValue => value === 'up' || value === 'down';

export class FeedbackStore {
  #values = new Map<string, FeedbackValue>();
  #namespace = '';

  readonly #storage: KeyValueStorage;
  constructor(storage: KeyValueStorage) {
    this.#storage = storage;
  }

  /** Scopes the ratings to one endpoint and one visitor; forgets what another visitor rated. */
  use(base: string, userId: string) {
    const namespace = `${prefixOf(base)}${userId}|`;
    if (namespace !== this.#namespace) this.#values = new Map();
    this.#namespace = namespace;
  }

  /** The visitor's rating of a message, if any. */
  get(messageId: string): FeedbackValue | undefined {
    return this.#values.get(messageId);
  }

  /** Reads the stored ratings (another tab may have changed them). Records of another shape are left out. */
  async load() {
    const namespace = this.#namespace;
    if (!namespace) return;
    const records = await this.#storage.list<FeedbackRecord>(namespace);
    if (namespace !== this.#namespace) return;
    this.#values = new Map(
      records.filter((r) => r && typeof r.messageId === 'string' && isValue(r.value)).map((r) => [r.messageId, r.value]),
    );
  }

  /** Rates a message, or clears its rating (`undefined`), here and in storage. */
  async set(messageId: string, value: FeedbackValue | undefined) {
    const key = `${this.#namespace}${messageId}`;
    if (value) {
      this.#values.set(messageId, value);
      await this.#storage.set(key, { messageId, value } satisfies FeedbackRecord);
    } else {
      this.#values.delete(messageId);
      await this.#storage.delete(key);
    }
  }

  /** Forgets every rating of an endpoint, for every visitor. */
  async clearEndpoint(base: string) {
    this.#values = new Map();
    await this.#storage.deletePrefix(prefixOf(base));
  }
}
