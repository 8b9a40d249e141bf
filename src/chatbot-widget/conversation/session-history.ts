/**
 * The history pane's data: the visitor's sessions, paged as far as scrolled, each with its first
 * line, and the one opened in the conversation's place. Sessions come from the cache at once and
 * from the handler on open and on scroll. It comes with the pane's code (history-pane.ts).
 */
import type { ChatSession, MessageListResponse, SessionListResponse } from '../../shared/types.js';
import type { Connection } from '../identity/connection.js';
import type { ControllerContext } from './controller-context.js';
import { emptyConversation, type CachedConversation } from './cached-conversation.js';
import type { Conversation } from './conversation.js';
import { mergeNewestPage, type CachedSessions, type HistoryCache } from './history-cache.js';

/**
 * The search's prefetch (search/session-prefetch.ts), as the history drives it. The search's
 * chunk is loaded here on first use (a lazy `import()`); named by its shape, so that no static
 * import of conversation/ reaches into the lazier search/ that builds on it.
 */
interface Prefetcher {
  run(shown: (sessionId: string) => boolean, cachedOne: () => void): void;
  stop(): void;
}

export class SessionHistory {
  sessions: ChatSession[] = [];
  hasMore = false;
  loading = false;
  /** sessionId → the session's first message. */
  firstLines = new Map<string, string>();
  #pages = 0;
  #connection: Connection | undefined;
  #fetchingLines = false;
  readonly #linesWanted = new Map<string, ChatSession>();
  /** The fetch of the listed sessions' messages for the search, once its code is here. */
  #prefetcher: Promise<Prefetcher> | undefined;

  readonly #cache: HistoryCache;
  readonly #context: ControllerContext;
  constructor(cache: HistoryCache, context: ControllerContext) {
    this.#cache = cache;
    this.#context = context;
  }

  /** Starts over for a connection (nothing shown until {@link restore} or a fetch). */
  use(connection: Connection | undefined) {
    this.stopPrefetch();
    this.#prefetcher = undefined;
    this.#connection = connection;
    this.sessions = [];
    this.#pages = 0;
    this.hasMore = false;
    this.loading = false;
    this.firstLines = new Map();
    this.#linesWanted.clear();
  }

  /** Shows what the cache held. */
  restore(cached: CachedSessions | undefined, lines: Record<string, string> | undefined) {
    if (lines) for (const [id, line] of Object.entries(lines)) if (typeof line === 'string') this.firstLines.set(id, line);
    // As stored: another script of the site, or an older widget, may have put anything there.
    this.sessions = Array.isArray(cached?.sessions) ? cached.sessions : [];
    this.#pages = cached?.pagesLoaded ?? 0;
    this.hasMore = !!cached && cached.pagesLoaded < cached.totalPages;
  }

  /** Merges a fetched page of sessions (page 1 replaces what it covers), newest activity first. */
  apply(connection: Connection, response: SessionListResponse, page: number) {
    if (connection.signal.aborted) return;
    const merged = new Map<string, ChatSession>();
    for (const s of page === 1 ? response.data : this.sessions) merged.set(s.id, s);
    for (const s of page === 1 ? this.sessions : response.data) if (!merged.has(s.id)) merged.set(s.id, s);
    if (page > 1) for (const s of response.data) merged.set(s.id, s);
    this.sessions = [...merged.values()].sort((a, b) => Date.parse(b.lastMessageAt) - Date.parse(a.lastMessageAt));
    this.#pages = Math.max(page, page === 1 ? Math.min(this.#pages, response.totalPages) || 1 : this.#pages);
    this.hasMore = this.#pages < response.totalPages;
    void this.#cache.saveSessions({ sessions: this.sessions, totalPages: response.totalPages, pagesLoaded: this.#pages });
    void this.#fetchFirstLines(connection, response.data);
  }

  /** Loads the next page of the history pane (`first`: page 1 again, on opening it). */
  async loadMore(first = false) {
    const connection = this.#connection;
    if (!connection || this.loading || (!first && !this.hasMore)) return;
    if (!(await connection.visitor.stored()) || connection.signal.aborted) return;
    this.loading = true;
    this.#context.host.requestUpdate();
    try {
      const page = first ? 1 : this.#pages + 1;
      const response = await connection.visitor.request<SessionListResponse>('GET', '/sessions', {
        query: { page, pageSize: this.#context.host.pageSize },
        signal: connection.signal,
      });
      this.apply(connection, response, page);
    } catch (error) {
      this.#context.failedCall(error, connection.signal);
    } finally {
      if (this.#connection === connection) this.loading = false;
      this.#context.host.requestUpdate();
    }
  }

  /**
   * Fetches the messages of the newest sessions into the cache, in the background, for the
   * search (search/session-prefetch.ts, which comes with the search's code, in its chunk).
   */
  prefetch(shown: (sessionId: string) => boolean, cachedOne: () => void) {
    const connection = this.#connection;
    if (!connection) return;
    const cache = this.#cache;
    const loading = (this.#prefetcher ??= import('../search/search-index.js').then(
      ({ SessionPrefetch }) => new SessionPrefetch(connection, cache),
    ));
    void loading.then(
      (prefetcher) => prefetcher.run(shown, cachedOne),
      // Offline before the search's code first came: the next listing tries again.
      () => {
        if (this.#prefetcher === loading) this.#prefetcher = undefined;
      },
    );
  }

  /**
   * Shows one of the listed sessions in the conversation's place: from the cache at once, then
   * its newest page. The current conversation's own session shows it again.
   */
  async view(conversation: Conversation, sessionId: string) {
    const connection = this.#connection;
    if (!connection || sessionId === conversation.current?.sessionId) return conversation.showCurrent();
    const { visitor, signal } = connection;
    const host = this.#context.host;
    conversation.viewing = sessionId;
    const cached = await this.#cache.loadConversation(sessionId);
    // Read for this visitor and this choice: not shown if either changed meanwhile.
    if (signal.aborted || this.#connection !== connection || conversation.viewing !== sessionId) return;
    conversation.viewed = cached ?? emptyConversation(sessionId);
    host.requestUpdate();
    try {
      const pageSize = host.pageSize;
      const page = await visitor.request<MessageListResponse>('GET', '/messages', { query: { sessionId, page: 1, pageSize }, signal });
      if (signal.aborted || conversation.viewing !== sessionId || !conversation.viewed) return;
      conversation.viewed = {
        sessionId,
        messages: mergeNewestPage(conversation.viewed.messages, page.data, pageSize, page.totalItems),
        totalItems: Math.max(page.totalItems, page.data.length),
      };
      await this.#cache.saveConversation(conversation.viewed);
      conversation.onCached();
    } catch (error) {
      this.#context.failedCall(error, signal);
    }
    host.requestUpdate();
  }

  /**
   * Every cached conversation, the shown ones as held in memory: what the history search finds
   * messages in (the listed sessions' among them, once {@link prefetch} has fetched them).
   */
  async cachedConversations(conversation: Conversation): Promise<CachedConversation[]> {
    await conversation.loaded;
    const held = conversation.inMemory();
    const stored = await this.#cache.loadConversations().catch(() => []);
    return [...held, ...stored.filter((c) => !held.some((h) => h.sessionId === c.sessionId))];
  }

  /** Stops the fetch of the listed sessions' messages (the panel closed; the visitor reset ends the connection too). */
  stopPrefetch() {
    void this.#prefetcher?.then((prefetcher) => prefetcher.stop()).catch(() => undefined);
  }

  /**
   * Session records carry no text; the pane shows each session's first message, read once (it
   * never changes) as the last one-message page of the session, and kept in IndexedDB.
   */
  async #fetchFirstLines(connection: Connection, sessions: readonly ChatSession[]) {
    for (const session of sessions)
      if (!this.firstLines.has(session.id) && session.messageCount > 0) this.#linesWanted.set(session.id, session);
    if (this.#fetchingLines) return;
    this.#fetchingLines = true;
    try {
      // Sessions wanted while the lines are being written down are fetched on the next pass.
      while (this.#linesWanted.size) {
        for (const [id, session] of this.#linesWanted) {
          this.#linesWanted.delete(id);
          const response = await connection.visitor.request<MessageListResponse>('GET', '/messages', {
            query: { sessionId: id, page: session.messageCount, pageSize: 1 },
            signal: connection.signal,
          });
          if (connection.signal.aborted) return;
          const first = response.data[0];
          if (!first) continue;
          this.firstLines.set(id, first.text);
          this.#context.host.requestUpdate();
        }
        if (connection.signal.aborted) return;
        await this.#cache.saveFirstLines(Object.fromEntries(this.firstLines));
      }
    } catch {
      // The date alone still identifies a session; lines are fetched again next time.
      this.#linesWanted.clear();
    } finally {
      this.#fetchingLines = false;
    }
  }
}
