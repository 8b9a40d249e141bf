/**
 * The conversation behind `<chatbot-widget>`: identity, cache, outbox, revalidation, history
 * paging and tab sync, as one Lit reactive controller so the element only renders.
 *
 * What the visitor sees is the server's messages (cached, merged by id) followed by local ones:
 * messages the server confirmed but whose server copy has not been fetched yet, then outbox
 * entries (pending or failed). A local disappears only when its server copy is in the list, so
 * nothing vanishes and nothing shows twice.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { ChatSession, Message, MessageListResponse, SendMessageResponse, SessionListResponse } from '../../shared/types.js';
import type { ChatbotErrorDetail, ChatbotErrorKind } from '../events.js';
import { afterNextPaint } from '../after-paint.js';
import { HistoryCache, mergeMessages, mergeNewestPage, type CachedConversation } from './history-cache.js';
import { Outbox, newLocalId, type OutboxEntry } from './outbox.js';
import { findServerCopies, type LocalCandidate } from './reconcile.js';
import { openStorage, type KeyValueStorage } from './storage.js';
import { TabSync, type TabNote } from './tab-sync.js';
import { RequestFailure, Transport, type VisitorIdentity } from './transport.js';

/** One bubble of the message list. */
export interface ViewMessage {
  /** Server id, or the local id until the server copy is known. */
  key: string;
  sender: 'user' | 'bot';
  text: string;
  url?: string;
  createdAt: string;
  state: 'sent' | 'pending' | 'failed';
  /** The outbox entry behind a pending or failed bubble. */
  entry?: OutboxEntry;
}

/** A message the server confirmed, shown until its server copy arrives with a revalidation. */
interface ConfirmedLocal extends LocalCandidate {
  file?: string;
  reply: string;
  repliedAt: string;
}

export interface ConversationHost extends ReactiveControllerHost, HTMLElement {
  readonly pageSize: number;
  readonly userName: string;
  /** Describes a failure in the visitor's words and reports it (`chatbot-error`). */
  reportError(failure: RequestFailure, localId?: string): ChatbotErrorDetail;
  dispatchEvent(event: Event): boolean;
}

const SEND_TIMEOUT_MS = 60_000;
/** Failure kinds the network caused: retried by themselves when the browser is back online. */
const NETWORK_FAILURES: ReadonlySet<ChatbotErrorKind> = new Set<ChatbotErrorKind>(['offline', 'unreachable', 'timeout']);

const views = new WeakMap<Message, ViewMessage>();


/** The bubble of a server message (memoized: the list is rebuilt on every render). */
function toView(message: Message): ViewMessage {
  let view = views.get(message);
  if (!view) {
    view = viewOf(message);
    views.set(message, view);
  }
  return view;
}

function viewOf(message: Message): ViewMessage {
  return {
    key: message.id,
    sender: message.senderType === 'User' ? 'user' : 'bot',
    text: message.text,
    url: message.url,
    createdAt: message.createdAt,
    state: 'sent',
  };
}

export class ConversationController implements ReactiveController {
  /** The first read of the cache is done (or there was nothing to read). */
  ready = false;
  typing = false;
  loadingOlder = false;
  loadingSessions = false;
  /** Session shown from the history pane; undefined: the current conversation. */
  viewing: string | undefined;
  sessions: ChatSession[] = [];
  sessionsHasMore = false;
  /** sessionId → the session's first message, for the history pane. */
  firstLines = new Map<string, string>();
  /** The latest error in words, for the `error` part. */
  error: ChatbotErrorDetail | undefined;

  private transport: Transport | undefined;
  private readonly storage: KeyValueStorage;
  private readonly cache: HistoryCache;
  private readonly outbox: Outbox;
  private readonly sync = new TabSync((note) => void this.onNote(note));
  private identity: VisitorIdentity | undefined;
  private current: CachedConversation | undefined;
  private viewed: CachedConversation | undefined;
  private entries: OutboxEntry[] = [];
  private confirmed: ConfirmedLocal[] = [];
  private sessionPages = 0;
  private pumping = false;
  /** The local id whose POST is on its way: its server copy may appear before the answer. */
  private sending: string | undefined;
  /** Entries queued in memory whose outbox write has not finished: a storage read must not drop them. */
  private readonly unsaved = new Set<string>();
  /** The first read of identity, cache and outbox for the current endpoint. */
  private loading: Promise<void> = Promise.resolve();
  private revalidating: Promise<RequestFailure | undefined> | undefined;
  private revalidateAgain = false;
  private abort = new AbortController();
  /** Bumped on endpoint change and reset: async work of an older generation is dropped. */
  private generation = 0;
  /** Back online: failures the network caused are tried again (each looks upstream first if it may have arrived). */
  private readonly onOnline = () => void this.retryNetworkFailures();

  constructor(private readonly host: ConversationHost, storage?: KeyValueStorage) {
    this.storage = storage ?? openStorage();
    this.cache = new HistoryCache(this.storage);
    this.outbox = new Outbox(this.storage);
    host.addController(this);
  }

  hostConnected() {
    globalThis.addEventListener?.('online', this.onOnline);
  }

  hostDisconnected() {
    globalThis.removeEventListener?.('online', this.onOnline);
    this.sync.close();
    this.abort.abort();
    this.abort = new AbortController();
    this.generation++;
    this.transport = undefined;
  }

  /** The visitor's messages of the shown conversation, oldest first. */
  get messages(): ViewMessage[] {
    if (this.viewing) return (this.viewed?.messages ?? []).map(toView);
    const list = (this.current?.messages ?? []).map(toView);
    for (const local of this.confirmed) {
      list.push({ key: local.localId, sender: 'user', text: local.content, url: local.file, createdAt: local.createdAt, state: 'sent' });
      list.push({ key: `${local.localId}-reply`, sender: 'bot', text: local.reply, createdAt: local.repliedAt, state: 'sent' });
    }
    for (const entry of this.entries) {
      list.push({ key: entry.localId, sender: 'user', text: entry.content, url: entry.file, createdAt: entry.createdAt, state: entry.state, entry });
    }
    return list;
  }

  /** More messages of the shown conversation exist upstream than are held. */
  get hasOlder(): boolean {
    const conversation = this.viewing ? this.viewed : this.current;
    return !!conversation && conversation.messages.length < conversation.totalItems;
  }

  get viewedSession(): ChatSession | undefined {
    return this.sessions.find((s) => s.id === this.viewing);
  }

  get currentSessionId() {
    return this.current?.sessionId;
  }

  /** Points the conversation at a handler; reads identity, cache and outbox, resumes pending sends. */
  async connect(endpoint: string, open: boolean) {
    const generation = ++this.generation;
    this.abort.abort();
    this.abort = new AbortController();
    this.ready = false;
    this.identity = undefined;
    this.current = this.viewed = undefined;
    this.viewing = undefined;
    this.entries = [];
    this.confirmed = [];
    this.sessions = [];
    this.firstLines = new Map();
    this.error = undefined;
    if (!endpoint) return;
    const transport = new Transport(endpoint, this.storage, (identity) => void this.onIdentity(identity, generation));
    this.transport = transport;
    this.outbox.use(transport.base);
    this.sync.use(transport.base);
    this.loading = (async () => {
      try {
        // One round of reads for the first paint: the identity, the outbox and the first-paint
        // record do not depend on each other, so IndexedDB serves them at once.
        const [identity, entries, paint] = await Promise.all([
          transport.storedIdentity(),
          this.outbox.list(),
          this.cache.loadFirstPaint(transport.base).catch(() => undefined),
        ]);
        if (generation !== this.generation) return;
        this.identity = identity;
        if (identity) this.cache.use(transport.base, identity.userId);
        let read: OutboxEntry[] | undefined = entries;
        if (identity && paint?.userId === identity.userId) {
          // The newest messages first; the whole cached history (up to thousands of messages to
          // deserialize) only once that frame is on screen.
          this.current = paint.conversation;
          this.adoptEntries(entries);
          this.host.requestUpdate();
          await afterNextPaint();
          read = undefined; // read again: a frame has passed
        }
        await this.loadFromStorage(generation, read);
      } catch {
        // storage read failed: the widget still works, uncached
      }
    })();
    await this.loading;
    if (generation !== this.generation) return;
    this.ready = true;
    this.host.requestUpdate();
    if (open) void this.revalidate();
    void this.pump();
  }

  private get namespace() {
    return this.transport && this.identity ? `${this.transport.base}|${this.identity.userId}` : '';
  }

  /** (Re)reads cached sessions, the current conversation and the outbox (`entries`, when just read). */
  private async loadFromStorage(generation: number, entries?: OutboxEntry[]) {
    const identity = this.identity;
    if (identity && this.transport) this.cache.use(this.transport.base, identity.userId);
    const [stored, currentId, cachedSessions, lines] = await Promise.all([
      entries ?? this.outbox.list(),
      identity ? this.cache.currentSessionId() : undefined,
      identity ? this.cache.loadSessions() : undefined,
      identity ? this.storage.get<Record<string, string>>(`firstlines|${this.namespace}|`) : undefined,
    ]);
    const current = currentId ? await this.cache.loadConversation(currentId) : undefined;
    if (generation !== this.generation) return;
    if (lines) for (const [id, line] of Object.entries(lines)) this.firstLines.set(id, line);
    this.sessionsHasMore = !!cachedSessions && cachedSessions.pagesLoaded < cachedSessions.totalPages;
    this.adoptEntries(stored);
    // Merged with what is shown already (the first-paint messages, or a newer page from a revalidation).
    if (current) this.current = { ...current, messages: mergeMessages(current.messages, [...(this.current?.sessionId === current.sessionId ? this.current.messages : [])].reverse()) };
    this.sessions = cachedSessions?.sessions ?? [];
    this.sessionPages = cachedSessions?.pagesLoaded ?? 0;
    this.reconcile();
    this.host.requestUpdate();
  }

  /** Takes the outbox as stored; entries this tab is sending or still writing stay as they are in memory. */
  private adoptEntries(entries: OutboxEntry[]) {
    const stored = new Set(entries.map((e) => e.localId));
    const mine = this.entries.find((e) => e.localId === this.sending);
    this.entries = [
      ...entries.map((e) => (e.localId === mine?.localId ? mine : e)),
      ...this.entries.filter((e) => this.unsaved.has(e.localId) && !stored.has(e.localId)),
    ];
  }

  private async onIdentity(identity: VisitorIdentity | undefined, generation: number) {
    if (generation !== this.generation) return;
    const changed = identity?.userId !== this.identity?.userId;
    this.identity = identity;
    if (!changed) return;
    this.current = this.viewed = undefined;
    this.viewing = undefined;
    this.sessions = [];
    this.sessionPages = 0;
    if (this.transport) this.cache.use(this.transport.base, identity?.userId ?? '');
    this.sync.post({ type: 'identity' });
    this.host.requestUpdate();
  }

  private async onNote(note: TabNote) {
    const generation = this.generation;
    if (note.type === 'reset') {
      this.identity = undefined;
      if (this.transport) {
        const endpoint = this.transport.base;
        this.transport = undefined;
        await this.connect(endpoint, false);
      }
      return;
    }
    if (!this.transport) return;
    if (note.type === 'identity') {
      await this.connect(this.transport.base, false);
      return;
    }
    await this.loadFromStorage(generation);
  }

  /** Tells the other tabs that IndexedDB changed. */
  private changed() {
    this.sync.post({ type: 'changed' });
  }

  private run<T>(action: (transport: Transport, signal: AbortSignal) => Promise<T>): Promise<T> {
    if (!this.transport) return Promise.reject(new RequestFailure('identity', 0, 'No endpoint is set.', false));
    return action(this.transport, this.abort.signal);
  }

  /** The newest server time of the current conversation: sends after now must be newer. */
  private newestServerTime(): string | undefined {
    return this.current?.messages.at(-1)?.createdAt;
  }

  /**
   * Queues a message: shown at once as pending, stored in the outbox, then sent.
   * Resolves to the local id, or undefined when the text is empty or `chatbot-send` was cancelled.
   */
  async send(text: string, file?: string): Promise<string | undefined> {
    const content = text.trim();
    await this.loading;
    if (!content || !this.transport) return undefined;
    const localId = newLocalId();
    const event = new CustomEvent('chatbot-send', {
      detail: { text: content, localId, ...(file ? { file } : {}) },
      bubbles: true,
      composed: true,
      cancelable: true,
    });
    if (!this.host.dispatchEvent(event)) return undefined;
    const entry: OutboxEntry = {
      localId,
      content,
      createdAt: new Date().toISOString(),
      after: this.newestServerTime(),
      state: 'pending',
      mayHaveArrived: false,
      attempts: 0,
      ...(file ? { file } : {}),
      ...(this.host.userName ? { name: this.host.userName } : {}),
    };
    this.entries = [...this.entries, entry];
    this.viewing = undefined;
    this.error = undefined;
    this.host.requestUpdate();
    this.unsaved.add(localId);
    await this.outbox.put(entry).finally(() => this.unsaved.delete(localId));
    this.changed();
    void this.pump();
    return localId;
  }

  /** Sends a failed message again (the Retry button). */
  async retry(localId: string) {
    const entry = this.entries.find((e) => e.localId === localId);
    if (!entry || entry.state !== 'failed') return;
    if (entry.retryAt && entry.retryAt > Date.now()) return;
    this.replaceEntry({ ...entry, state: 'pending', error: undefined, retryAt: undefined });
    this.error = undefined;
    await this.outbox.put(this.entries.find((e) => e.localId === localId)!);
    this.changed();
    void this.pump();
  }

  /**
   * Retries, in order, the failed entries that failed for network reasons (no connection, answer
   * lost, timeout); refusals (4xx, 429) wait for the visitor. Each goes through the outbox like a
   * Retry click, so one whose earlier try may have arrived is looked for upstream before resending.
   */
  private async retryNetworkFailures() {
    for (const entry of this.entries) {
      if (entry.state === 'failed' && entry.error && NETWORK_FAILURES.has(entry.error.kind)) await this.retry(entry.localId);
    }
  }

  private replaceEntry(entry: OutboxEntry) {
    this.entries = this.entries.map((e) => (e.localId === entry.localId ? entry : e));
    this.host.requestUpdate();
  }

  private dropEntry(localId: string) {
    this.entries = this.entries.filter((e) => e.localId !== localId);
    this.host.requestUpdate();
  }

  /** Sends pending entries one at a time, in order; across tabs one sender at a time (Web Locks). */
  private async pump() {
    if (this.pumping || !this.transport) return;
    this.pumping = true;
    const generation = this.generation;
    try {
      for (;;) {
        const next = this.entries.find((e) => e.state === 'pending');
        if (!next || generation !== this.generation) break;
        await this.withLock(() => this.deliver(next.localId, generation));
      }
    } finally {
      this.pumping = false;
      this.typing = false;
      this.host.requestUpdate();
    }
  }

  private async withLock(action: () => Promise<void>) {
    const locks = (globalThis.navigator as Navigator | undefined)?.locks;
    if (!locks || !this.transport) return action();
    await locks.request(`chatbot-widget-outbox|${this.transport.base}`, action);
  }

  private async deliver(localId: string, generation: number) {
    // Another tab may have sent it while we waited for the lock.
    const stored = await this.outbox.get(localId);
    if (generation !== this.generation) return;
    if (!stored || stored.state !== 'pending') {
      if (!stored) this.dropEntry(localId);
      else this.replaceEntry(stored);
      return;
    }
    let entry = stored;
    let posted = false;
    this.typing = true;
    this.host.requestUpdate();
    try {
      if (entry.mayHaveArrived && (await this.foundUpstream(entry))) return;
      entry = { ...entry, mayHaveArrived: true, attempts: entry.attempts + 1 };
      await this.outbox.put(entry);
      this.replaceEntry(entry);
      this.sending = entry.localId;
      posted = true;
      const response = await this.run((t, signal) =>
        t.request<SendMessageResponse>('POST', '/message', {
          body: { content: entry.content, ...(entry.file ? { file: entry.file } : {}), ...(entry.name ? { name: entry.name } : {}) },
          signal,
          timeoutMs: SEND_TIMEOUT_MS,
        }),
      ).finally(() => {
        this.sending = undefined;
      });
      if (generation !== this.generation) return;
      const reply = typeof response.data === 'string' ? response.data : '';
      this.confirmed.push({
        localId: entry.localId,
        content: entry.content,
        createdAt: entry.createdAt,
        after: entry.after,
        file: entry.file,
        reply,
        repliedAt: new Date().toISOString(),
      });
      this.entries = this.entries.filter((e) => e.localId !== entry.localId);
      await this.outbox.remove(entry.localId);
      this.typing = false;
      this.host.requestUpdate();
      this.host.dispatchEvent(
        new CustomEvent('chatbot-reply', { detail: { text: reply, localId: entry.localId }, bubbles: true, composed: true }),
      );
      this.changed();
      void this.revalidate();
    } catch (error) {
      if (generation !== this.generation || !(error instanceof RequestFailure)) return;
      const failed: OutboxEntry = {
        ...entry,
        state: 'failed',
        // A failed look-up leaves the earlier try's uncertainty as it was.
        mayHaveArrived: posted ? error.mayHaveArrived : entry.mayHaveArrived,
        error: { kind: error.kind, status: error.status, detail: error.detail, ...(error.retryAfter ? { retryAfter: error.retryAfter } : {}) },
        ...(error.retryAfter ? { retryAt: Date.now() + error.retryAfter * 1000 } : {}),
      };
      await this.outbox.put(failed);
      this.replaceEntry(failed);
      this.error = this.host.reportError(error, entry.localId);
      this.changed();
    }
  }

  /**
   * Before resending a message whose earlier try may have reached the server: fetch the newest
   * messages of the visitor's latest session; if the message is there, it counts as sent.
   */
  private async foundUpstream(entry: OutboxEntry): Promise<boolean> {
    const failure = await this.revalidate();
    // Could not look: sending blind might double the message, so the entry stays failed.
    if (failure) throw failure;
    return !this.entries.some((e) => e.localId === entry.localId);
  }

  /**
   * Stale-while-revalidate: fetches the first page of sessions and of the latest session,
   * merges by id, reconciles locals, writes the cache. Concurrent calls share one run.
   */
  revalidate(): Promise<RequestFailure | undefined> {
    if (this.revalidating) {
      this.revalidateAgain = true;
      return this.revalidating;
    }
    this.revalidating = (async () => {
      let failure: RequestFailure | undefined;
      try {
        do {
          this.revalidateAgain = false;
          failure = await this.revalidateOnce();
        } while (this.revalidateAgain);
        return failure;
      } finally {
        this.revalidating = undefined;
      }
    })();
    return this.revalidating;
  }

  /** One refresh; resolves to the failure, if any (callers that must know, like a resend, look). */
  private async revalidateOnce(): Promise<RequestFailure | undefined> {
    // The merge below is written back to the cache: it must start from the whole cached history,
    // not from the first-paint messages alone (that would cut the stored conversation short).
    await this.loading;
    const generation = this.generation;
    if (!this.transport) return undefined;
    // No visitor yet: nothing upstream to show. The identity is made on the first send.
    if (!this.identity && !(await this.transport.storedIdentity())) return undefined;
    try {
      const pageSize = this.host.pageSize;
      const sessions = await this.run((t, signal) =>
        t.request<SessionListResponse>('GET', '/sessions', { query: { page: 1, pageSize }, signal }),
      );
      if (generation !== this.generation) return undefined;
      this.applySessions(sessions, 1);
      const latest = sessions.data[0];
      if (!latest) {
        this.host.requestUpdate();
        return undefined;
      }
      if (latest.id !== this.current?.sessionId) {
        const cached = await this.cache.loadConversation(latest.id);
        if (generation !== this.generation) return undefined;
        this.current = cached ?? { sessionId: latest.id, messages: [], totalItems: 0 };
        await this.cache.setCurrentSessionId(latest.id);
      }
      const page = await this.run((t, signal) =>
        t.request<MessageListResponse>('GET', '/messages', { query: { sessionId: latest.id, page: 1, pageSize }, signal }),
      );
      if (generation !== this.generation || this.current?.sessionId !== latest.id) return undefined;
      this.current = {
        sessionId: latest.id,
        messages: mergeNewestPage(this.current.messages, page.data, pageSize, page.totalItems),
        totalItems: Math.max(page.totalItems, page.data.length),
      };
      this.reconcile();
      if (generation !== this.generation) return undefined;
      await this.cache.saveConversation(this.current);
      if (this.viewing === latest.id) this.viewing = undefined;
      this.changed();
      this.host.requestUpdate();
      return undefined;
    } catch (error) {
      if (!(error instanceof RequestFailure)) return new RequestFailure('offline', 0, String(error), true);
      if (generation !== this.generation) return error;
      // Background refresh: the cached view stays; say so only when there is nothing else to see.
      if (!this.current?.messages.length && !this.entries.length) this.error = this.host.reportError(error);
      this.host.requestUpdate();
      return error;
    }
  }

  private applySessions(response: SessionListResponse, page: number) {
    const generation = this.generation;
    const merged = new Map<string, ChatSession>();
    for (const s of page === 1 ? response.data : this.sessions) merged.set(s.id, s);
    for (const s of page === 1 ? this.sessions : response.data) if (!merged.has(s.id)) merged.set(s.id, s);
    if (page > 1) for (const s of response.data) merged.set(s.id, s);
    this.sessions = [...merged.values()].sort((a, b) => Date.parse(b.lastMessageAt) - Date.parse(a.lastMessageAt));
    this.sessionPages = Math.max(page, page === 1 ? Math.min(this.sessionPages, response.totalPages) || 1 : this.sessionPages);
    this.sessionsHasMore = this.sessionPages < response.totalPages;
    if (generation === this.generation) {
      void this.cache.saveSessions({ sessions: this.sessions, totalPages: response.totalPages, pagesLoaded: this.sessionPages });
    }
    void this.fetchFirstLines(response.data);
  }

  private fetchingLines = false;
  private readonly linesWanted = new Map<string, ChatSession>();
  /**
   * Session records carry no text; the history pane shows each session's first message, read
   * once (it never changes) as the last one-message page of the session, and kept in IndexedDB.
   */
  private async fetchFirstLines(sessions: readonly ChatSession[]) {
    for (const session of sessions) if (!this.firstLines.has(session.id) && session.messageCount > 0) this.linesWanted.set(session.id, session);
    if (this.fetchingLines) return;
    this.fetchingLines = true;
    const generation = this.generation;
    try {
      // Sessions wanted while the lines are being written down are fetched on the next pass.
      while (this.linesWanted.size) {
        for (const [id, session] of this.linesWanted) {
          this.linesWanted.delete(id);
          const response = await this.run((t, signal) =>
            t.request<MessageListResponse>('GET', '/messages', { query: { sessionId: id, page: session.messageCount, pageSize: 1 }, signal }),
          );
          if (generation !== this.generation) return;
          const first = response.data[0];
          if (!first) continue;
          this.firstLines.set(id, first.text);
          this.host.requestUpdate();
        }
        if (generation !== this.generation) return;
        await this.storage.set(`firstlines|${this.namespace}|`, Object.fromEntries(this.firstLines));
      }
    } catch {
      // The date alone still identifies a session; lines are fetched again next time.
      this.linesWanted.clear();
    } finally {
      this.fetchingLines = false;
    }
  }

  /** Removes locals whose server copy is in the current conversation. */
  private reconcile() {
    const server = this.current?.messages ?? [];
    const candidates: LocalCandidate[] = [...this.confirmed, ...this.entries.filter((e) => e.mayHaveArrived && e.localId !== this.sending)];
    if (!candidates.length || !server.length) return;
    const copies = findServerCopies(candidates, server);
    if (!copies.size) return;
    this.confirmed = this.confirmed.filter((c) => !copies.has(c.localId));
    for (const [localId] of copies) {
      if (this.entries.some((e) => e.localId === localId)) void this.outbox.remove(localId);
    }
    this.entries = this.entries.filter((e) => !copies.has(e.localId));
    // A later identical message must be newer than the copy just claimed, on later passes too.
    for (const [, copy] of copies) {
      for (const entry of this.entries) {
        if (entry.content.trim() === copy.text.trim() && (!entry.after || entry.after < copy.createdAt)) {
          entry.after = copy.createdAt;
          void this.outbox.put(entry);
        }
      }
      for (const local of this.confirmed) {
        if (local.content.trim() === copy.text.trim() && (!local.after || local.after < copy.createdAt)) local.after = copy.createdAt;
      }
    }
  }

  /** Loads the next older page of the shown conversation. */
  async loadOlder() {
    if (this.loadingOlder || !this.hasOlder) return;
    const generation = this.generation;
    const pageSize = this.host.pageSize;
    this.loadingOlder = true;
    this.host.requestUpdate();
    // Right after the first paint only the newest messages are in memory: the cached history
    // may already hold what the network would be asked for.
    await this.loading;
    const conversation = this.viewing ? this.viewed : this.current;
    if (generation !== this.generation || !conversation || !this.hasOlder) {
      this.loadingOlder = false;
      this.host.requestUpdate();
      return;
    }
    try {
      let page = Math.floor(conversation.messages.length / pageSize) + 1;
      for (let tries = 0; tries < 3; tries++, page++) {
        const response = await this.run((t, signal) =>
          t.request<MessageListResponse>('GET', '/messages', { query: { sessionId: conversation.sessionId, page, pageSize }, signal }),
        );
        if (generation !== this.generation) return;
        const before = conversation.messages.length;
        conversation.messages = mergeMessages(conversation.messages, response.data);
        conversation.totalItems = response.totalItems;
        if (conversation.messages.length > before || page >= response.totalPages) break;
      }
      await this.cache.saveConversation(conversation);
      this.changed();
    } catch (error) {
      if (error instanceof RequestFailure && generation === this.generation) this.error = this.host.reportError(error);
    } finally {
      this.loadingOlder = false;
      this.host.requestUpdate();
    }
  }

  /** Loads the next page of the history pane. */
  async loadMoreSessions(first = false) {
    if (this.loadingSessions || (!first && !this.sessionsHasMore)) return;
    if (!this.identity && !(await this.transport?.storedIdentity())) return;
    const generation = this.generation;
    this.loadingSessions = true;
    this.host.requestUpdate();
    try {
      const page = first ? 1 : this.sessionPages + 1;
      const response = await this.run((t, signal) =>
        t.request<SessionListResponse>('GET', '/sessions', { query: { page, pageSize: this.host.pageSize }, signal }),
      );
      if (generation === this.generation) this.applySessions(response, page);
    } catch (error) {
      if (error instanceof RequestFailure && generation === this.generation) this.error = this.host.reportError(error);
    } finally {
      this.loadingSessions = false;
      this.host.requestUpdate();
    }
  }

  /** Shows one session of the history pane: from the cache at once, then its newest page. */
  async viewSession(sessionId: string | undefined) {
    if (!sessionId || sessionId === this.current?.sessionId) {
      this.viewing = undefined;
      this.host.requestUpdate();
      return;
    }
    const generation = this.generation;
    this.viewing = sessionId;
    this.viewed = (await this.cache.loadConversation(sessionId)) ?? { sessionId, messages: [], totalItems: 0 };
    this.host.requestUpdate();
    try {
      const pageSize = this.host.pageSize;
      const page = await this.run((t, signal) =>
        t.request<MessageListResponse>('GET', '/messages', { query: { sessionId, page: 1, pageSize }, signal }),
      );
      if (generation !== this.generation || this.viewing !== sessionId || !this.viewed) return;
      this.viewed = {
        sessionId,
        messages: mergeNewestPage(this.viewed.messages, page.data, pageSize, page.totalItems),
        totalItems: Math.max(page.totalItems, page.data.length),
      };
      await this.cache.saveConversation(this.viewed);
    } catch (error) {
      if (error instanceof RequestFailure && generation === this.generation) this.error = this.host.reportError(error);
    }
    this.host.requestUpdate();
  }

  dismissError() {
    this.error = undefined;
    this.host.requestUpdate();
  }

  /** Forgets the identity, the cache and the outbox of this endpoint, here and in the other tabs. */
  async reset() {
    const transport = this.transport;
    this.generation++;
    this.abort.abort();
    this.abort = new AbortController();
    this.entries = [];
    this.confirmed = [];
    this.current = this.viewed = undefined;
    this.viewing = undefined;
    this.sessions = [];
    this.sessionPages = 0;
    this.sessionsHasMore = false;
    this.error = undefined;
    this.typing = false;
    this.host.requestUpdate();
    if (!transport) return;
    // Let aborted work settle first, so no late write re-creates what is being forgotten.
    await this.revalidating;
    await this.outbox.clear();
    await this.cache.clearEndpoint(transport.base);
    await transport.forgetIdentity();
    this.sync.post({ type: 'reset' });
    await this.connect(transport.base, false);
  }
}
