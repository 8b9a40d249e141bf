/**
 * What the device keeps at one endpoint for the identity shown: the cache of its conversations,
 * its ratings, its outbox and its unread count. Each is namespaced by endpoint and identity
 * (identity/visitor.ts names the namespaces), so that nothing kept for one user is read for
 * another; until an identity is known, nobody's is used.
 */
import { signedInNamespace, type Visitor } from '../identity/visitor.js';
import { FeedbackStore } from './feedback-store.js';
import { HistoryCache } from './history-cache.js';
import { Outbox } from './outbox.js';
import type { KeyValueStorage } from '../io/storage.js';
import { UnreadReplies } from './unread-replies.js';

export class VisitorRecords {
  readonly cache: HistoryCache;
  readonly outbox: Outbox;
  /** The visitor's ratings of bot messages. */
  readonly feedback: FeedbackStore;
  /** Bot replies no tab has shown yet (the launcher's badge). */
  readonly unread: UnreadReplies;

  constructor(storage: KeyValueStorage, onUnread: (shared: boolean) => void) {
    this.cache = new HistoryCache(storage);
    this.outbox = new Outbox(storage);
    this.feedback = new FeedbackStore(storage);
    this.unread = new UnreadReplies(storage, onUnread);
  }

  /** Nobody's: until the identity is known nothing is read or written under anyone's name. */
  none() {
    this.outbox.use('');
    this.cache.use('', '');
    this.feedback.use('', ''); // no user id: no namespace
    this.unread.use(undefined);
  }

  /** The outbox and unread count of the visitor's identity (for a visitor token, also before it exists: the endpoint's). */
  useQueue(visitor: Visitor) {
    this.outbox.use(visitor.namespace);
    this.unread.use(visitor.namespace);
  }

  /** The cached conversations and ratings of one identity. */
  useHistory(base: string, userId: string) {
    this.cache.use(base, userId);
    this.feedback.use(base, userId);
  }

  /** Forgets what the device kept at an endpoint, for every identity (reset). */
  async forget(base: string) {
    for (const namespace of [base, signedInNamespace(base)]) {
      this.outbox.use(namespace);
      await this.outbox.clear();
      await this.unread.forget(namespace);
    }
    await this.cache.clearEndpoint(base);
    await this.feedback.clearEndpoint(base);
  }
}
