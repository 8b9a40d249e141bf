/**
 * The conversation on screen: the visitor's latest session (or one opened from the history),
 * from the cache first, then revalidated against the handler and merged by id
 * (stale-while-revalidate), paged backwards on scroll.
 *
 * What the visitor sees is the server's messages followed by the outbox's local ones (see
 * {@link OutboxSender.locals}): a local disappears only when its server copy is in the list,
 * so nothing vanishes and nothing shows twice.
 */
import type { Message, MessageListResponse, SessionListResponse } from '../../shared/types.js';
import { isAbort, type Connection } from '../identity/connection.js';
import type { ControllerContext } from './controller-context.js';
import { emptyConversation, type CachedConversation } from './cached-conversation.js';
import { mergeMessages, mergeNewestPage, type HistoryCache } from './history-cache.js';
import type { OutboxSender } from './outbox-sender.js';
import { RequestFailure } from '../io/transport.js';
import { toView, type ViewMessage } from './view-message.js';
import { newReplies } from './arrivals.js';

/** The longest a refresh waits for the resends of a reloaded page (see {@link OutboxSender.resumed}). */
const RESUME_WAIT_MS = 5_000;

export class Conversation {
  /** The latest session. */
  current: CachedConversation | undefined;
  /** A past session opened from the history pane, while {@link viewing} names it. */
  viewed: CachedConversation | undefined;
  viewing: string | undefined;
  loadingOlder = false;
  /**
   * The first read of the cache for the connection. A revalidation merges into it and writes the
   * result back, so it must start from the whole cached history, not from the first paint's
   * newest messages alone (that would cut the stored conversation short).
   */
  loaded: Promise<void> = Promise.resolve();
  /**
   * A refresh found replies that answer no send of this tab (a person's, see arrivals.ts): the
   * panel counts them as unread unless the visitor is looking.
   */
  onReplies: (count: number) => void = () => undefined;
  /** A conversation was written to the cache (the history search, built from it, is built again). */
  onCached: () => void = () => undefined;
  /** The revalidation fetched the first page of the visitor's sessions (the history pane lists them). */
  onSessions: (connection: Connection, page: SessionListResponse) => void = () => undefined;
  #connection: Connection | undefined;
  #revalidating: Promise<void> | undefined;
  #again = false;

  readonly #cache: HistoryCache;
  readonly #sender: OutboxSender;
  readonly #context: ControllerContext;
  constructor(cache: HistoryCache, sender: OutboxSender, context: ControllerContext) {
    this.#cache = cache;
    this.#sender = sender;
    this.#context = context;
  }

  use(connection: Connection | undefined) {
    this.#connection = connection;
    this.clear();
    this.loadingOlder = false;
    this.#revalidating = undefined;
  }

  /**
   * Nothing shown any more: the connection ended, or its visitor changed (a new visitor token).
   * Work begun for what was shown stops writing (see {@link #shownAs}).
   */
  clear() {
    this.current = this.viewed = undefined;
    this.viewing = undefined;
    this.#generation++;
  }

  /** Counts {@link clear}s: a refresh begun before one must not show or store what it fetched. */
  #generation = 0;

  /** Whether nothing was cleared since `generation` was read: what was fetched is still the visitor's. */
  #shownAs(generation: number) {
    return generation === this.#generation;
  }

  /** The bubbles of the shown conversation, oldest first. */
  get messages(): ViewMessage[] {
    if (this.viewing) return this.#views(this.viewed?.messages ?? []);
    const server = this.current?.messages ?? [];
    const locals = this.#sender.locals(server);
    const views = this.#views(server);
    return locals.length ? [...views, ...locals] : views;
  }

  /** The last list of server messages turned into bubbles, and those bubbles. */
  #bubbles: { messages: readonly Message[]; views: ViewMessage[] } | undefined;

  /**
   * The bubbles of a list of server messages. Every render asks for them, and a cached history
   * holds thousands: a list is only ever replaced, never changed in place, so the last one's
   * bubbles are kept for as long as it is the one shown.
   */
  #views(messages: readonly Message[]): ViewMessage[] {
    if (this.#bubbles?.messages !== messages) this.#bubbles = { messages, views: messages.map(toView) };
    return this.#bubbles.views;
  }

  /** More messages of the shown conversation exist upstream than are held. */
  get hasOlder(): boolean {
    const conversation = this.viewing ? this.viewed : this.current;
    return !!conversation && conversation.messages.length < conversation.totalItems;
  }

  /** Takes the cached conversation, merged with what is shown already (first paint, or a newer page). */
  restore(cached: CachedConversation) {
    const shown = this.current?.sessionId === cached.sessionId ? this.current.messages : [];
    this.current = { ...cached, messages: mergeMessages(cached.messages, [...shown].reverse()) };
  }

  /**
   * Fetches the first page of sessions and of the latest session, merges by id, lets the outbox
   * drop confirmed bubbles now held, writes the cache. Concurrent calls share one run, and one
   * asked for during a run gets a run of its own after it (it may need what the first missed).
   */
  revalidate(): Promise<void> {
    if (this.#revalidating) {
      this.#again = true;
      return this.#revalidating;
    }
    const connection = this.#connection;
    if (!connection) return Promise.resolve();
    const run: Promise<void> = (async () => {
      do {
        this.#again = false;
        await this.#revalidateOnce(connection);
      } while (this.#again && !connection.signal.aborted);
    })().finally(() => {
      if (this.#revalidating === run) this.#revalidating = undefined;
    });
    this.#revalidating = run;
    return run;
  }

  /** Resolves when the revalidation under way, if any, has ended. */
  settled(): Promise<void> {
    return this.#revalidating?.catch(() => undefined) ?? Promise.resolve();
  }

  /**
   * A conversation as cached, for the transcript: the shown one's messages in memory (a superset
   * of its stored copy), any other's from storage. Undefined when nothing is cached for it.
   */
  async cached(sessionId: string): Promise<CachedConversation | undefined> {
    await this.loaded;
    return this.inMemory().find((c) => c.sessionId === sessionId) ?? (await this.#cache.loadConversation(sessionId).catch(() => undefined));
  }

  /** The shown conversations with messages, as held in memory (a superset of their stored copies). */
  inMemory(): CachedConversation[] {
    return [this.current, this.viewed].filter((c): c is CachedConversation => !!c?.messages.length);
  }

  async #revalidateOnce(connection: Connection) {
    const { visitor, signal } = connection;
    await this.loaded;
    // Bounded: a resend waits at most for the handler to see the first attempt through.
    await Promise.race([this.#sender.resumed, new Promise((resolve) => setTimeout(resolve, RESUME_WAIT_MS))]);
    if (signal.aborted) return;
    const seen = this.#sender.confirmations;
    const pageSize = this.#context.host.pageSize;
    // Another visitor may take this one's place during any wait below (a refused token renewed as
    // a new visitor): what was fetched for the first is then neither shown nor stored.
    const generation = this.#generation;
    try {
      // Nothing stored (a new visitor, or a signed-in user on a new device): `/visitor` says who
      // this is, and a signed-in user's conversations from their other devices are shown.
      await visitor.ensure(signal);
      const sessions = await visitor.request<SessionListResponse>('GET', '/sessions', { query: { page: 1, pageSize }, signal });
      if (signal.aborted || !this.#shownAs(generation)) return;
      this.onSessions(connection, sessions);
      const latest = sessions.data[0];
      if (!latest) return;
      // A newer session (begun on another device, or after a long pause): a copy cached here is
      // shown at once; one this device never saw only once its messages are here, so that a
      // failed fetch leaves the conversation on screen rather than an empty one.
      const before = this.current;
      let newer: CachedConversation | undefined;
      if (latest.id !== before?.sessionId) {
        const cached = await this.#cache.loadConversation(latest.id);
        if (signal.aborted || !this.#shownAs(generation)) return;
        newer = cached ?? emptyConversation(latest.id);
        if (cached) this.current = cached;
      }
      const page = await visitor.request<MessageListResponse>('GET', '/messages', {
        query: { sessionId: latest.id, page: 1, pageSize },
        signal,
      });
      if (signal.aborted || !this.#shownAs(generation)) return;
      // Merged into the session's copy shown now; nothing, if another took its place meanwhile.
      const base = this.current?.sessionId === latest.id ? this.current : this.current === before ? newer : undefined;
      if (!base) return;
      const counted = new Set(this.#sender.locals([]).map((local) => local.key));
      const arrived = newReplies(base.messages, page.data, counted);
      this.current = {
        sessionId: latest.id,
        messages: mergeNewestPage(base.messages, page.data, pageSize, page.totalItems),
        totalItems: Math.max(page.totalItems, page.data.length),
      };
      // The session the next page starts with, once its messages are here.
      if (latest.id !== before?.sessionId) await this.#cache.setCurrentSessionId(latest.id);
      this.#sender.reconcile(latest.id, this.current.messages, seen);
      await this.#cache.saveConversation(this.current);
      if (signal.aborted) return;
      this.onCached();
      if (this.viewing === latest.id) this.viewing = undefined;
      if (arrived) this.onReplies(arrived);
      this.#context.changed();
    } catch (error) {
      if (signal.aborted || isAbort(error) || !(error instanceof RequestFailure)) return;
      // Background refresh: the cached view stays; say so only when there is nothing else to see.
      if (!this.current?.messages.length && !this.#sender.entries.length) this.#context.fail(error);
    } finally {
      if (!signal.aborted) this.#context.host.requestUpdate();
    }
  }

  /** Loads the next older page of the shown conversation. */
  async loadOlder() {
    const connection = this.#connection;
    if (!connection || this.loadingOlder || !this.hasOlder) return;
    const { visitor, signal } = connection;
    const pageSize = this.#context.host.pageSize;
    this.loadingOlder = true;
    this.#context.host.requestUpdate();
    try {
      // Right after the first paint only the newest messages are in memory: the cached history
      // may already hold what the network would be asked for.
      await this.loaded;
      const conversation = this.viewing ? this.viewed : this.current;
      if (signal.aborted || !conversation || !this.hasOlder) return;
      let page = Math.floor(conversation.messages.length / pageSize) + 1;
      for (let tries = 0; tries < 3; tries++, page++) {
        const response = await visitor.request<MessageListResponse>('GET', '/messages', {
          query: { sessionId: conversation.sessionId, page, pageSize },
          signal,
        });
        if (signal.aborted) return;
        const before = conversation.messages.length;
        conversation.messages = mergeMessages(conversation.messages, response.data);
        conversation.totalItems = response.totalItems;
        if (conversation.messages.length > before || page >= response.totalPages) break;
      }
      await this.#cache.saveConversation(conversation);
      this.onCached();
      this.#context.changed();
    } catch (error) {
      this.#context.failedCall(error, signal);
    } finally {
      if (this.#connection === connection) this.loadingOlder = false;
      this.#context.host.requestUpdate();
    }
  }

  /** From a past session back to the current conversation. */
  showCurrent() {
    this.viewing = undefined;
    this.#context.host.requestUpdate();
  }
}
