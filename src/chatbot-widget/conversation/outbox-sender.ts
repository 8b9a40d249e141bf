/**
 * Exactly once, from the browser's side: the whole path of a message from Send to "stored", in
 * this one file (about 500 lines, kept whole on purpose: each step below guards against a race
 * that another step opens, and split across files those pairs could no longer be read together).
 *
 * 1. Send puts an entry in the outbox (IndexedDB) with a fresh idempotency key, before any
 *    request leaves; the bubble shows as pending.
 * 2. Entries are sent one at a time, in the order written, and across the tabs of the browser one
 *    sender at a time (Web Locks), each re-read from storage once the lock is held, since another
 *    tab may have sent it meanwhile.
 * 3. Every attempt carries the entry's key: a retry, a resend after a reload or from another tab.
 *    The handler stores a key's message once and answers repeats with the first outcome (waiting
 *    for it while it is in flight, and checking upstream itself after upstream faults), so the
 *    widget never has to look before it resends: it resends.
 * 4. Only an answer removes an entry: success confirms it, a refusal (4xx, 429) or a failure
 *    (no connection, 5xx, timeout) marks it failed, with Retry. Gateway failures (502, 503, 504)
 *    are first resent twice by themselves after a pause, network failures when the browser comes
 *    back online.
 * 5. A confirmed message stays on screen until the conversation holds its server copy,
 *    recognised by the ids the handler reports for what it stored; text is never compared (two
 *    "yes" cannot be told apart by their text).
 *
 * Keys are per visitor at the handler: were the identity renewed as a new visitor between two
 * attempts (an expired token), the second attempt counts as a new message; and the handler keeps
 * keys for 24 hours, so an entry resent after that counts as new as well.
 */
import { IDEMPOTENCY_KEY_HEADER } from '../../shared/headers.js';
import type { Message, SendMessageResponse } from '../../shared/types.js';
import type { ChatbotErrorKind } from '../../ui/events.js';
import { emit } from '../../ui/emit.js';
import { isAbort, type Connection } from '../identity/connection.js';
import type { ControllerContext } from './controller-context.js';
import { byCreation, newIdempotencyKey, newLocalId, type Outbox, type OutboxEntry } from './outbox.js';
import { RequestFailure } from '../io/transport.js';
import { toView, type ViewMessage } from './view-message.js';

const SEND_TIMEOUT_MS = 60_000;
/**
 * Waits before the automatic resends of an attempt the handler answered 502, 503 or 504 (upstream
 * down, slow or dropped): with the same key such a resend is safe, so a passing fault costs the
 * visitor a short wait, not a Retry click. After the last, the entry fails with Retry.
 */
const GATEWAY_RETRY_DELAYS_MS = [1_000, 3_000];
const GATEWAY_STATUSES = new Set([502, 503, 504]);
/** Failure kinds the network caused: retried by themselves when the browser is back online. */
const NETWORK_FAILURES: ReadonlySet<ChatbotErrorKind> = new Set<ChatbotErrorKind>(['offline', 'unreachable', 'timeout']);

/** The send route's answer: the reply text and, when the handler identified them, the question and reply it stored. */
type SendAnswer = SendMessageResponse & { stored?: unknown };

/** A message the server confirmed, shown until the conversation holds its server copy. */
interface Confirmed {
  localId: string;
  /** The stored question (and reply, when upstream stored one) as the handler named them: replaced by id. */
  stored?: StoredMessages;
  content: string;
  file?: string;
  createdAt: string;
  reply: string;
  repliedAt: string;
  /** Order of confirmation, compared with the revalidation that may replace it. */
  seq: number;
}

const isMessage = (m: unknown): m is Message => {
  const message = m as Partial<Message> | null;
  return (
    !!message &&
    typeof message.id === 'string' &&
    typeof message.text === 'string' &&
    typeof message.createdAt === 'string' &&
    typeof message.chatSessionId === 'string'
  );
};

/** What the handler reports it stored for a send: the visitor's question, and the reply if upstream stored one. */
interface StoredMessages {
  question: Message;
  reply?: Message;
}

/** The `stored` field of a send answer (`[question]` or `[question, reply]`), when it is usable. */
function storedMessages(value: unknown): StoredMessages | undefined {
  if (!Array.isArray(value) || !value.every(isMessage)) return undefined;
  const [question, reply, ...more] = value;
  if (question?.senderType !== 'User' || (reply && reply.senderType !== 'Bot') || more.length) return undefined;
  return reply ? { question, reply } : { question };
}

/** The outbox as read from storage, and how many changes this tab had made when the read began. */
export interface OutboxRead {
  entries: OutboxEntry[];
  changesBefore: number;
}

/**
 * The id of a reply shown before its server id is known (the handler named the question it
 * stored but not the reply, or nothing): a rating given on it waits under this id until the
 * reply is recognised in the conversation (see {@link OutboxSender.onReplyKnown}).
 */
export const temporaryReplyId = (localId: string) => `${localId}-reply`;
export const isTemporaryReplyId = (id: string) => id.startsWith('local-') && id.endsWith('-reply');

/** Whether the conversation holds the server copy of a confirmed message: by the question's id. */
const held = (confirmed: Confirmed, ids: ReadonlySet<string>) => !!confirmed.stored && ids.has(confirmed.stored.question.id);

export class OutboxSender {
  /** Messages not yet confirmed: pending or failed, in the order written. */
  entries: OutboxEntry[] = [];
  /** A send is on its way (the typing indicator). */
  typing = false;
  /**
   * Resolves once the entries that an earlier page had already tried (a reload while pending)
   * are answered or failed. Until then a refresh of the conversation would show the server copy
   * beside the pending bubble, since nothing else tells them apart; the conversation waits.
   */
  resumed: Promise<void> = Promise.resolve();
  #confirmed: Confirmed[] = [];
  #seq = 0;
  #connection: Connection | undefined;
  /** The connection whose pump runs (one per connection; an ended one stops by itself). */
  #pumping: Connection | undefined;
  /** The local id whose POST is on its way: a storage read must not replace it. */
  #sending: string | undefined;
  /** Changes this tab made to its entries, counted; and the count at each entry's latest change. */
  #changes = 0;
  readonly #changedAt = new Map<string, number>();
  /** Redraws when the soonest 429 wait is over (Retry is disabled until then). */
  #countdown: ReturnType<typeof setTimeout> | undefined;

  readonly #outbox: Outbox;
  readonly #context: ControllerContext;
  readonly #onConfirmed: () => void;
  constructor(
    outbox: Outbox,
    context: ControllerContext,
    /** Called after each confirmation (the conversation then fetches the server copies). */
    onConfirmed: () => void,
  ) {
    this.#outbox = outbox;
    this.#context = context;
    this.#onConfirmed = onConfirmed;
  }

  /** Starts over for a connection: nothing of the previous one is shown or sent from here on. */
  use(connection: Connection | undefined) {
    this.#connection = connection;
    this.entries = [];
    this.#confirmed = [];
    this.typing = false;
    clearTimeout(this.#countdown);
  }

  /** A reply shown under its temporary id is now known by its server id (its rating moves there). */
  onReplyKnown: (temporaryId: string, messageId: string) => void = () => undefined;

  /** Confirmations so far: a revalidation notes it when it starts (see {@link reconcile}). */
  get confirmations() {
    return this.#seq;
  }

  /**
   * Queues a message: shown at once as pending, stored in the outbox with its key, then sent.
   * Resolves to the local id, or undefined when `chatbot-send` was cancelled.
   */
  async send(content: string, file?: string): Promise<string | undefined> {
    const connection = this.#connection;
    if (!connection) return undefined;
    const host = this.#context.host;
    const localId = newLocalId();
    const writer = (await connection.visitor.stored())?.userId;
    if (!emit(host, 'chatbot-send', { text: content, localId, ...(file ? { file } : {}) }, { cancelable: true })) return undefined;
    const entry: OutboxEntry = {
      localId,
      key: newIdempotencyKey(),
      content,
      createdAt: new Date().toISOString(),
      state: 'pending',
      attempts: 0,
      ...(file ? { file } : {}),
      ...(host.userName ? { name: host.userName } : {}),
      ...(writer ? { writer } : {}),
    };
    this.#touch(localId);
    this.entries = [...this.entries, entry];
    host.requestUpdate();
    // The key is in IndexedDB before the first attempt leaves: a reload at any later moment
    // resends with the same key.
    await this.#outbox.put(entry).finally(() => this.#touch(localId));
    if (connection.signal.aborted) return localId;
    this.#context.changed();
    void this.pump();
    return localId;
  }

  /** Sends a failed message again (the Retry button), with its key. */
  async retry(localId: string) {
    const entry = this.entries.find((e) => e.localId === localId);
    if (!entry || entry.state !== 'failed') return;
    if (entry.retryAt && entry.retryAt > Date.now()) return;
    const pending: OutboxEntry = { ...entry, state: 'pending', error: undefined, retryAt: undefined };
    this.#touch(localId);
    this.#replace(pending);
    await this.#outbox.put(pending).finally(() => this.#touch(localId));
    this.#context.changed();
    void this.pump();
  }

  /** Back online: resends, in order, what failed for network reasons; refusals wait for the visitor. */
  async retryNetworkFailures() {
    for (const entry of this.entries) {
      if (entry.state === 'failed' && entry.error && NETWORK_FAILURES.has(entry.error.kind)) await this.retry(entry.localId);
    }
  }

  /** Reads the outbox from storage, for {@link adopt} (once the reads that go with it are done). */
  async read(): Promise<OutboxRead> {
    const changesBefore = this.#changes;
    return { entries: await this.#outbox.list(), changesBefore };
  }

  /**
   * Takes the outbox as stored, but for the entries this tab changed after the read began (a
   * retry, a send or a confirmation still being written) and the one it is sending: those stay as
   * they are in memory, or gone. A read is slow after a reload (it goes with the cache's); a Retry
   * clicked meanwhile would otherwise be undone by it.
   */
  adopt({ entries, changesBefore }: OutboxRead) {
    const changedSince = (localId: string) => localId === this.#sending || (this.#changedAt.get(localId) ?? 0) > changesBefore;
    this.entries = [...entries.filter((e) => !changedSince(e.localId)), ...this.entries.filter((e) => changedSince(e.localId))].sort(
      byCreation,
    );
    this.#scheduleCountdown();
  }

  /** Counts a change to an entry: when made in memory, and again once its storage write is done. */
  #touch(localId: string) {
    this.#changedAt.set(localId, ++this.#changes);
  }

  /** After a 429 an entry waits until `retryAt`; the bubble's Retry is enabled again on a redraw then. */
  #scheduleCountdown() {
    clearTimeout(this.#countdown);
    const now = Date.now();
    const next = Math.min(...this.entries.map((e) => (e.retryAt && e.retryAt > now ? e.retryAt : Infinity)));
    if (!Number.isFinite(next)) return;
    this.#countdown = setTimeout(
      () => {
        this.#context.host.requestUpdate();
        this.#scheduleCountdown();
      },
      next - now + 20,
    );
  }

  /** Sends pending entries one at a time, in order, until none is left or the connection ends. */
  async pump() {
    const connection = this.#connection;
    if (!connection || this.#pumping === connection) return;
    this.#pumping = connection;
    const tried = new Set(this.entries.filter((e) => e.state === 'pending' && e.attempts > 0).map((e) => e.localId));
    let release: (() => void) | undefined;
    if (tried.size) this.resumed = new Promise<void>((resolve) => (release = resolve));
    try {
      for (;;) {
        const next = this.entries.find((e) => e.state === 'pending');
        if (!next || connection.signal.aborted) break;
        if (!tried.has(next.localId)) release?.();
        let writerSignedIn = true;
        await this.#withLock(connection, async () => {
          writerSignedIn = await this.#deliver(connection, next.localId);
        });
        if (!writerSignedIn) break;
      }
    } catch (error) {
      if (!isAbort(error)) throw error;
    } finally {
      release?.();
      if (this.#pumping === connection) {
        this.#pumping = undefined;
        this.typing = false;
        this.#context.host.requestUpdate();
      }
    }
  }

  /** Across tabs one sender at a time per endpoint; without Web Locks, one per tab. */
  async #withLock(connection: Connection, action: () => Promise<void>) {
    const locks = navigator.locks as LockManager | undefined;
    if (!locks) return action();
    await locks.request(`chatbot-widget-outbox|${connection.visitor.base}`, { signal: connection.signal }, action);
  }

  /**
   * One attempt at one entry, holding the lock. Resolves to false when its writer is not the user
   * signed in now: it is not sent, and waits in their outbox (the pump stops).
   */
  async #deliver(connection: Connection, localId: string): Promise<boolean> {
    const { signal, visitor } = connection;
    // Another tab may have sent it, or marked it failed, while this one waited for the lock.
    const stored = await this.#outbox.get(localId);
    if (signal.aborted) return true;
    if (!stored || stored.state !== 'pending') {
      this.#touch(localId); // newer than a read begun before another tab's change
      if (stored) this.#replace(stored);
      else this.entries = this.entries.filter((e) => e.localId !== localId);
      this.#context.host.requestUpdate();
      return true;
    }
    try {
      if (!(await this.#writerSignedIn(connection, stored))) return false;
    } catch (error) {
      if (signal.aborted || isAbort(error)) return true;
      if (error instanceof RequestFailure && error.kind === 'signed-out') return false;
      await this.#fail(stored, error instanceof RequestFailure ? error : new RequestFailure('server', 0, String(error)));
      return true;
    }
    const entry: OutboxEntry = { ...stored, attempts: stored.attempts + 1 };
    await this.#outbox.put(entry);
    this.#replace(entry);
    this.typing = true;
    this.#sending = localId;
    try {
      for (let retry = 0; ; retry++) {
        try {
          const answer = await visitor.request<SendAnswer>('POST', '/message', {
            body: { content: entry.content, ...(entry.file ? { file: entry.file } : {}), ...(entry.name ? { name: entry.name } : {}) },
            headers: { [IDEMPOTENCY_KEY_HEADER]: entry.key },
            signal,
            timeoutMs: SEND_TIMEOUT_MS,
          });
          // Ended meanwhile (reload, reset): the entry stays pending in the outbox, and whoever
          // picks it up sends the same key, which the handler answers without storing again.
          if (signal.aborted) return true;
          await this.#confirm(entry, answer);
          return true;
        } catch (error) {
          const delay = GATEWAY_RETRY_DELAYS_MS[retry];
          if (error instanceof RequestFailure && GATEWAY_STATUSES.has(error.status) && delay !== undefined && !signal.aborted) {
            await new Promise((resolve) => setTimeout(resolve, delay));
            continue;
          }
          throw error;
        }
      }
    } catch (error) {
      if (signal.aborted || isAbort(error)) return true;
      await this.#fail(entry, error instanceof RequestFailure ? error : new RequestFailure('server', 0, String(error)));
      return true;
    } finally {
      this.#sending = undefined;
    }
  }

  /**
   * With the site's login the page's cookies say who sends, and they may have changed since the
   * entry was written (signed out, someone else signed in, in another tab): `/visitor` is asked
   * before every send, and only an entry written as the user it names goes. Another answer is
   * heard by the controller too, which starts over for that user. A visitor token's entries go
   * with the token's identity, renewed or new (the same person on this device).
   */
  async #writerSignedIn({ visitor, signal }: Connection, entry: OutboxEntry): Promise<boolean> {
    if (!visitor.siteLogin) return true;
    const writer = entry.writer ?? (await visitor.stored())?.userId;
    const now = await visitor.confirmed(signal);
    return !!now && now.userId === writer;
  }

  async #confirm(entry: OutboxEntry, answer: SendAnswer) {
    const reply = typeof answer.data === 'string' ? answer.data : '';
    const stored = storedMessages(answer.stored);
    this.#confirmed.push({
      localId: entry.localId,
      ...(stored ? { stored } : {}),
      content: entry.content,
      ...(entry.file ? { file: entry.file } : {}),
      createdAt: entry.createdAt,
      reply,
      repliedAt: new Date().toISOString(),
      seq: ++this.#seq,
    });
    this.entries = this.entries.filter((e) => e.localId !== entry.localId);
    // Still the entry being sent until it is removed from storage; then a counted change.
    await this.#outbox.remove(entry.localId).finally(() => this.#touch(entry.localId));
    this.typing = false;
    const host = this.#context.host;
    host.requestUpdate();
    emit(host, 'chatbot-reply', { text: reply, localId: entry.localId });
    this.#context.changed();
    this.#onConfirmed();
  }

  async #fail(entry: OutboxEntry, error: RequestFailure) {
    const failed: OutboxEntry = {
      ...entry,
      state: 'failed',
      error: {
        kind: error.kind,
        status: error.status,
        detail: error.detail,
        ...(error.retryAfter ? { retryAfter: error.retryAfter } : {}),
      },
      ...(error.retryAfter ? { retryAt: Date.now() + error.retryAfter * 1000 } : {}),
    };
    await this.#outbox.put(failed);
    this.#touch(entry.localId);
    this.#replace(failed);
    this.#scheduleCountdown();
    this.#context.fail(error, entry.localId);
    this.#context.changed();
  }

  #replace(entry: OutboxEntry) {
    this.entries = this.entries.map((e) => (e.localId === entry.localId ? entry : e));
    this.#context.host.requestUpdate();
  }

  /**
   * Drops the confirmed bubbles the conversation now holds. `server` is the newest page of the
   * visitor's latest session, fetched by a revalidation that started when {@link confirmations}
   * was `seenSeq`.
   *
   * With ids (the handler named what it stored): when a server message has the question's id;
   * or, if the confirmation came before the revalidation began and its session is no longer
   * the latest one, it belongs to the history, not to the conversation shown.
   *
   * Without ids (a handler that does not name them): by the first revalidation that began after
   * the confirmation. The handler answers a send only after upstream stored it, so any listing
   * fetched later holds it; before that, the local bubbles stay. Text is never compared: two
   * identical texts ("yes", "ok") cannot be told apart by it.
   */
  reconcile(sessionId: string, server: readonly Message[], seenSeq: number) {
    const ids = new Set(server.map((m) => m.id));
    const before = this.#confirmed.length;
    this.#confirmed = this.#confirmed.filter((c) => {
      if (!c.stored) return c.seq > seenSeq;
      if (held(c, ids)) {
        if (!c.stored.reply) this.#recogniseReply(c.localId, c.stored.question.id, server);
        return false;
      }
      return !(c.seq <= seenSeq && c.stored.question.chatSessionId !== sessionId);
    });
    return this.#confirmed.length !== before;
  }

  /**
   * The reply to a question the handler named without its reply: the first assistant message
   * after the question in the conversation (oldest first). Told so that a rating given on the
   * reply under its temporary id goes with its server id.
   */
  #recogniseReply(localId: string, questionId: string, server: readonly Message[]) {
    const after = server.slice(server.findIndex((m) => m.id === questionId) + 1);
    const reply = after.find((m) => m.senderType === 'Bot');
    if (reply) this.onReplyKnown(temporaryReplyId(localId), reply.id);
  }

  /** The bubbles after the server's messages: confirmed ones not in `server` yet, then the outbox. */
  locals(server: readonly Message[]): ViewMessage[] {
    const list: ViewMessage[] = [];
    if (this.#confirmed.length) {
      const ids = new Set(server.map((m) => m.id));
      for (const c of this.#confirmed) {
        if (held(c, ids)) continue;
        const { question, reply } = c.stored ?? {};
        list.push(
          question
            ? toView(question)
            : { key: c.localId, sender: 'user', text: c.content, url: c.file, createdAt: c.createdAt, state: 'sent' },
        );
        list.push(
          reply
            ? toView(reply)
            : {
                key: temporaryReplyId(c.localId),
                sender: 'bot',
                text: c.reply,
                createdAt: c.repliedAt,
                state: 'sent',
                // Without the question's id its server copy cannot be told apart: rated once shown.
                ...(question ? {} : { unratable: true }),
              },
        );
      }
    }
    for (const entry of this.entries) {
      list.push({
        key: entry.localId,
        sender: 'user',
        text: entry.content,
        url: entry.file,
        createdAt: entry.createdAt,
        state: entry.state,
        entry,
      });
    }
    return list;
  }
}
