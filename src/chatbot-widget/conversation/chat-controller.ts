// Kept whole (about 435 lines): the lifecycle of a connection is read here in one place, in the
// order its steps guard each other (start, whose records are read, who a message is written for,
// a change of user, tab notes, reset). The jobs around it have files of their own: the records in
// visitor-records.ts, who the visitor is in identity/ (and, for the site's login, the check of who
// is signed in when the tab is shown again: identity/sign-in-check.ts), ratings in ratings.ts, the
// cached conversations in conversation.ts.
/**
 * `<chatbot-widget>`'s conversation as one Lit reactive controller, so the element only renders.
 *
 * It owns the connection (one handler, one visitor) and hands it to the controllers that do the
 * work, one job each:
 * - {@link OutboxSender}: the outbox and the exactly-once path of a message;
 * - {@link Conversation}: the conversation shown, its cache, revalidation and paging;
 * - {@link SessionHistory}: the history pane's sessions, once the pane's code brings it;
 * - {@link TabSync}: notes between the tabs of the site.
 * What concerns them all is done here: the first read of storage, identity changes (identity/
 * visitor.ts tells of them), notes from other tabs, reset. Ending a connection aborts its
 * signal, which stops all work begun for it.
 */
import type { ReactiveController } from 'lit';
import type { ChatbotErrorDetail } from '../../ui/events.js';
import { afterNextPaint } from '../../ui/after-paint.js';
import type { Connection } from '../identity/connection.js';
import type { ControllerContext, ConversationHost, ReportFailure } from './controller-context.js';
import { Conversation } from './conversation.js';
import type { FeedbackStore } from './feedback-store.js';
import { readFirstPaint } from './first-paint-record.js';
import type { HistoryCache } from './history-cache.js';
import { OutboxSender, type OutboxRead } from './outbox-sender.js';
import { Ratings } from './ratings.js';
import type { SessionListResponse } from '../../shared/types.js';
import type { SessionHistory } from './session-history.js';
import { openStorage, type KeyValueStorage } from '../io/storage.js';
import { TabSync, type TabNote } from './tab-sync.js';
import { credentialsOf } from '../identity/credentials.js';
import { sendQuotaOf, type SendQuota } from '../io/send-quota.js';
import { RequestFailure, Transport } from '../io/transport.js';
import { SignInCheck } from '../identity/sign-in-check.js';
import { Visitor, type VisitorIdentity } from '../identity/visitor.js';
import type { UnreadReplies } from './unread-replies.js';
import { VisitorRecords } from './visitor-records.js';

export type { ConversationHost } from './controller-context.js';
export type { ViewMessage } from './view-message.js';

export class ChatController implements ReactiveController {
  /** The first read of the cache is done (or there was nothing to read). */
  ready = false;
  /** The latest error in words, for the `error` part. */
  error: ChatbotErrorDetail | undefined;
  /** The visitor's tightest send window, as the handler last reported it. */
  quota: SendQuota | undefined;
  readonly sender: OutboxSender;
  readonly conversation: Conversation;
  /** The history pane's sessions, once the pane's code is here (see {@link attachHistory}). */
  history: SessionHistory | undefined;
  /** The visitor's ratings of bot messages. */
  readonly feedback: FeedbackStore;
  /** Rating replies, and delivering the ratings. */
  readonly ratings: Ratings;
  /** Bot replies no tab has shown yet (the launcher's badge). */
  readonly unread: UnreadReplies;

  readonly #storage: KeyValueStorage;
  readonly #records: VisitorRecords;
  readonly #cache: HistoryCache;
  readonly #sync = new TabSync((note) => void this.#onNote(note));
  readonly #signInCheck: SignInCheck;
  #connection: Connection | undefined;
  #abort: AbortController | undefined;
  /** The identity whose records this connection reads and writes; none until it is known (or confirmed, for the site's login). */
  #shown: VisitorIdentity | undefined;
  /** The first page of sessions the conversation's revalidation fetched, kept for the history until it is attached. */
  #sessionsFetched: SessionListResponse | undefined;
  /** Back online: failures the network caused are sent again, with their keys, and waiting ratings. */
  readonly #onOnline = () => {
    void this.sender.retryNetworkFailures();
    // The code that sends ratings loads only when one is waiting.
    if (this.feedback.waiting) this.ratings.deliver();
  };
  /**
   * This tab stops sending for good (its page is closed, not kept for the back button; or the
   * element was removed, see {@link hostDisconnected}): whatever it had pending is left to the
   * other tabs, which would otherwise show it pending until their next send or a reload. A send
   * it had on its way is sent again with the same key, which the handler answers with the first
   * outcome.
   */
  readonly #onLeave = (event: PageTransitionEvent) => {
    if (!event.persisted && this.#pending) this.#sync.post({ type: 'left' });
  };

  /** Nobody is signed in to the site (its login speaks for the visitor): nothing can be sent. */
  get signedOut() {
    return !!this.#connection?.visitor.signedOut;
  }

  get #pending() {
    return this.sender.entries.some((e) => e.state === 'pending');
  }

  readonly #host: ConversationHost;
  readonly #context: ControllerContext;
  constructor(host: ConversationHost, report: ReportFailure) {
    this.#host = host;

    this.#signInCheck = new SignInCheck(host);
    this.#storage = openStorage();
    this.#records = new VisitorRecords(this.#storage, (shared) => {
      if (shared) this.#sync.post({ type: 'unread' });
      host.requestUpdate();
    });
    this.#cache = this.#records.cache;
    this.feedback = this.#records.feedback;
    this.unread = this.#records.unread;
    const context: ControllerContext = {
      host,
      fail: (failure, localId) => {
        this.error = report(failure, localId);
        host.requestUpdate();
      },
      failedCall: (error, signal) => {
        if (error instanceof RequestFailure && !signal.aborted) context.fail(error);
      },
      changed: () => this.#sync.post({ type: 'changed' }),
    };
    this.#context = context;
    this.sender = new OutboxSender(this.#records.outbox, context, () => void this.conversation.revalidate());
    this.ratings = new Ratings(this.feedback, this.#storage, context, () => this.#connection);
    this.sender.onReplyKnown = (temporaryId, messageId) => void this.ratings.carry(temporaryId, messageId);
    this.conversation = new Conversation(this.#cache, this.sender, context);
    this.conversation.onSessions = (connection, page) => {
      if (connection !== this.#connection) return;
      if (this.history) this.history.apply(connection, page, 1);
      else this.#sessionsFetched = page;
    };
    host.addController(this);
  }

  /**
   * The history pane's code is here (panel/history-pane-state.ts loads it when the page is idle
   * after the panel opens): its sessions, as the cache held them and merged with the page the
   * conversation's revalidation fetched meanwhile. A panel that only shows the conversation
   * carries none of their code.
   */
  attachHistory(History: typeof SessionHistory): Promise<void> {
    return (this.#historyAttached ??= this.#attachHistory(History));
  }

  #historyAttached: Promise<void> | undefined;

  async #attachHistory(History: typeof SessionHistory) {
    const history = new History(this.#cache, this.#context);
    try {
      for (;;) {
        // Once the connection's first read is done, the records of the identity shown are known.
        await this.conversation.loaded;
        const connection = this.#connection;
        const shown = this.#shown;
        history.use(connection);
        if (!connection || !shown) break;
        const [cached, lines] = await Promise.all([this.#cache.loadSessions(), this.#cache.loadFirstLines()]);
        // Started over meanwhile (another visitor, another handler): read what is theirs.
        if (connection !== this.#connection || shown !== this.#shown) continue;
        history.restore(cached, lines);
        if (this.#sessionsFetched) history.apply(connection, this.#sessionsFetched, 1);
        break;
      }
    } catch {
      // Storage refused, or held no sessions the pane can read: it lists what the handler sends.
      history.use(this.#connection);
    }
    this.#sessionsFetched = undefined;
    this.history = history;
    this.#host.requestUpdate();
  }

  hostConnected() {
    addEventListener('online', this.#onOnline);
    addEventListener('pagehide', this.#onLeave);
  }

  /**
   * An error about a message is over once the message is no longer waiting: sent when the network
   * came back, sent by another tab, or removed.
   */
  hostUpdate() {
    const about = this.error?.localId;
    if (about !== undefined && !this.sender.entries.some((entry) => entry.localId === about)) this.error = undefined;
  }

  hostDisconnected() {
    removeEventListener('online', this.#onOnline);
    removeEventListener('pagehide', this.#onLeave);
    const left = this.#pending;
    this.#end();
    // Put back at once (moved in the page) is not leaving: it goes on sending its own messages.
    setTimeout(() => {
      if (this.#host.isConnected) return;
      if (left) this.#sync.post({ type: 'left' });
      this.#sync.close();
    });
  }

  /** Ends the connection: everything begun for it stops, and every controller starts empty. */
  #end(next?: Connection) {
    this.#abort?.abort();
    this.#abort = undefined;
    this.#connection = next;
    this.#signInCheck.use(next);
    this.#shown = undefined;
    this.#records.none();
    this.sender.use(next);
    this.conversation.use(next);
    this.history?.use(next);
    this.#sessionsFetched = undefined;
  }

  /** Points the conversation at a handler; reads identity, cache and outbox, resumes pending sends. */
  async connect(endpoint: string, open: boolean) {
    this.ready = false;
    this.error = undefined;
    this.quota = undefined;
    if (!endpoint) {
      this.#end();
      return;
    }
    const abort = new AbortController();
    const transport = new Transport(
      endpoint,
      () => credentialsOf(this.#host.credentials),
      (headers) => {
        const quota = sendQuotaOf(headers, Date.now());
        if (!quota) return;
        this.quota = quota;
        this.#host.requestUpdate();
      },
    );
    const visitor = new Visitor(transport, this.#storage, (previous, next) => this.#onIdentity(connection, previous, next));
    const connection: Connection = { visitor, signal: abort.signal };
    this.#end(connection);
    this.#abort = abort;
    this.#sync.use(visitor.base);
    const loading = this.#load(connection);
    this.conversation.loaded = loading;
    await loading;
    if (abort.signal.aborted) return;
    this.ready = true;
    this.#host.requestUpdate();
    this.#signInCheck.started(connection);
    void visitor.revokeWaiting(connection.signal);
    if (open) void this.conversation.revalidate();
    void this.sender.pump();
    if (this.feedback.waiting) this.ratings.deliver();
  }

  async #load(connection: Connection) {
    const { visitor, signal } = connection;
    // The newest messages are drawn in the render this runs before (it runs in the element's
    // willUpdate), read synchronously from the first-paint record; the whole cached history
    // (up to thousands of messages to deserialize) only once that frame is on screen.
    const painted = readFirstPaint(visitor.base);
    if (painted) this.conversation.current = painted.conversation;
    let confirmed = false;
    try {
      const identity = await this.#identify(connection);
      if (signal.aborted || (!identity && visitor.siteLogin)) return;
      this.#shown = identity;
      this.#records.useQueue(visitor);
      void this.unread.load();
      const outbox = await this.sender.read();
      if (signal.aborted) return;
      visitor.nameVisitor(); // the identity read from storage too: only /visitor's answers are named as they come
      confirmed = painted !== undefined && painted.userId === identity?.userId;
      let read: OutboxRead | undefined = outbox;
      if (confirmed) {
        this.sender.adopt(outbox);
        this.#host.requestUpdate();
        await afterNextPaint();
        read = undefined; // read again: a frame has passed
      }
      await this.#loadFromStorage(connection, read);
    } catch {
      // storage read failed: the widget still works, uncached
    } finally {
      // Drawn but not the stored visitor's after all (their identity changed in a way the
      // record missed, or it could not be read): taken down.
      if (painted && !confirmed && this.conversation.current === painted.conversation) {
        this.conversation.current = undefined;
        this.#host.requestUpdate();
      }
    }
  }

  /**
   * The identity whose records are read: the stored one; for the site's login the user
   * `/visitor` names now, or none (shown why: nobody is signed in, or the handler is out of reach).
   */
  async #identify(connection: Connection): Promise<VisitorIdentity | undefined> {
    try {
      return await connection.visitor.confirmed(connection.signal);
    } catch (error) {
      this.#context.failedCall(error, connection.signal);
      return undefined;
    }
  }

  /** (Re)reads cached sessions, the current conversation and the outbox (`outbox`, when just read). */
  async #loadFromStorage(connection: Connection, outbox?: OutboxRead) {
    const { visitor, signal } = connection;
    const identity = this.#shown;
    if (!identity && visitor.siteLogin) return;
    if (identity) this.#records.useHistory(visitor.base, identity.userId);
    // The history's sessions only once its code is here (attachHistory reads them then).
    const history = identity ? this.history : undefined;
    const [stored, currentId, cachedSessions, lines] = await Promise.all([
      outbox ?? this.sender.read(),
      identity ? this.#cache.currentSessionId() : undefined,
      history ? this.#cache.loadSessions() : undefined,
      history ? this.#cache.loadFirstLines() : undefined,
      identity ? this.feedback.load() : undefined,
    ]);
    const current = currentId ? await this.#cache.loadConversation(currentId) : undefined;
    // Read for the identity shown at the start: another one since (a new visitor token) reads its own.
    if (signal.aborted || this.#shown !== identity) return;
    history?.restore(cachedSessions, lines);
    this.sender.adopt(stored);
    if (current) this.conversation.restore(current);
    this.#host.requestUpdate();
  }

  /**
   * The user id changed. A new visitor token (the first one, or the old token refused): the
   * same person on this device, who keeps their unsent messages, but what was shown was someone
   * else's. The site's login (another user signed in, or nobody): everything starts over, and
   * nothing of the previous user stays on screen. While a connection still loads, it reads for
   * the identity it was given.
   */
  #onIdentity(connection: Connection, previous: VisitorIdentity | undefined, next: VisitorIdentity | undefined) {
    if (connection !== this.#connection || !this.ready || connection.signal.aborted) return;
    const { visitor } = connection;
    this.#sync.post({ type: 'identity' });
    if (visitor.siteLogin || previous?.token === null) {
      void this.connect(visitor.base, this.#host.isShown);
      return;
    }
    this.#shown = next;
    this.conversation.clear();
    this.history?.use(connection);
    this.#sessionsFetched = undefined;
    this.#records.useHistory(visitor.base, next?.userId ?? '');
    this.#host.requestUpdate();
  }

  async #onNote(note: TabNote) {
    const connection = this.#connection;
    if (!connection) return;
    if (note.type === 'unread') return this.unread.load();
    // Another tab reset the visitor or got a new one: start over from storage.
    if (note.type === 'reset' || note.type === 'identity') await this.connect(connection.visitor.base, false);
    else await this.#loadFromStorage(connection);
    // Across tabs one sends at a time (Web Locks), each entry re-read before it goes; without
    // them every tab left would send it (and tell of its reply), so they leave it be.
    if (note.type === 'left' && navigator.locks) void this.sender.pump();
  }

  /**
   * Queues a message (see {@link OutboxSender.send}) once the first read of storage is done.
   * Resolves to the local id, or undefined when the text is empty or `chatbot-send` was cancelled.
   */
  async send(text: string, file?: string): Promise<string | undefined> {
    const content = text.trim();
    await this.conversation.loaded;
    const connection = this.#connection && content ? await this.#sendingConnection(this.#connection) : undefined;
    if (!connection) return undefined;
    this.conversation.viewing = undefined;
    this.error = undefined;
    return this.sender.send(content, file);
  }

  /**
   * The connection a message is written on, once it is known whose it is: for the site's login a
   * message is never queued under no one's name (nobody signed in: the panel says so). A visitor
   * token can be asked for later: the message waits in the outbox (offline, say).
   */
  async #sendingConnection(connection: Connection): Promise<Connection | undefined> {
    if (this.#shown) return connection;
    const { visitor, signal } = connection;
    try {
      await (visitor.siteLogin ? visitor.confirmed(signal) : visitor.ensure(signal));
    } catch (error) {
      if (!(error instanceof RequestFailure) || signal.aborted) return undefined;
      if (!visitor.siteLogin) return connection;
      this.#context.fail(error);
      return undefined;
    }
    if (!visitor.siteLogin) return connection;
    // The site's login, now known: its user's records are read first, then the message is theirs.
    if (this.#connection === connection) await this.connect(visitor.base, this.#host.isShown);
    else await this.conversation.loaded;
    return this.#shown ? this.#connection : undefined;
  }

  /** Sends a failed message again (the Retry button). */
  retry(localId: string) {
    this.error = undefined;
    return this.sender.retry(localId);
  }

  dismissError() {
    this.error = undefined;
    this.#host.requestUpdate();
  }

  /**
   * Revokes the visitor's token at the handler, then forgets the identity, the cache and the
   * outbox of this endpoint (of every identity this device kept them for), here and in the other
   * tabs. If the handler cannot be reached (offline), the visitor is forgotten here all the same,
   * and the token is kept aside only to be revoked on a later connection (see
   * {@link Visitor.revoke}); until then it stays valid at the handler, to whoever holds a copy, at
   * most until it expires. The site's login has no token to revoke (signing out is the site's
   * business): the device forgets, and the user signed in sees their conversations again from
   * the handler.
   */
  async reset() {
    const connection = this.#connection;
    // Aborted work settles before anything is deleted, so no late write re-creates it.
    const settling = this.conversation.settled();
    this.#end();
    this.error = undefined;
    this.#host.requestUpdate();
    if (!connection) return;
    const { visitor } = connection;
    const { base } = visitor;
    await settling;
    await visitor.revoke();
    await this.#records.forget(base);
    await visitor.forget();
    this.#sync.post({ type: 'reset' });
    await this.connect(base, false);
  }
}
