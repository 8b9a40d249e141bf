/**
 * The history search finds what the browser has cached; a conversation the visitor never opened
 * here (from before a cleared cache, or from another device of a signed-in visitor) is only
 * listed. So listing the sessions fetches their messages into the cache: the newest
 * {@link MAX_PREFETCHED_SESSIONS} sessions, in the background (the pane shows at once), a few at
 * a time, skipping each session whose cached copy is as recent as the listing says (its message
 * count and last message time), and stopping when the panel closes or the visitor is reset.
 *
 * It comes with the search's code (a chunk loaded when the history pane first opens): a visitor
 * who never opens the history never loads it.
 */
import { MAX_PAGE_SIZE } from '../../shared/page-size.js';
import type { ChatSession, Message, MessageListResponse, SessionListResponse } from '../../shared/types.js';
import type { CachedConversation } from '../conversation/cached-conversation.js';
import type { Connection } from '../identity/connection.js';
import { createdAtMs, mergeMessages, MAX_MESSAGES_PER_SESSION, type HistoryCache } from '../conversation/history-cache.js';

/** Sessions whose messages are fetched: the newest this many. */
export const MAX_PREFETCHED_SESSIONS = 50;
/** Sessions fetched at once: polite to the handler and upstream, and to the visitor's own sends. */
const AT_ONCE = 2;

/** What the prefetch reads and writes through (the history's connection and cache). */
export interface PrefetchContext {
  /** A GET of the handler's visitor routes, for the connection, aborted with `signal`. */
  get<T>(path: '/sessions' | '/messages', query: Record<string, string | number>, signal: AbortSignal): Promise<T>;
  cached(sessionId: string): Promise<CachedConversation | undefined>;
  /** Stores a fetched conversation as last active at `activeAt` (ms), for the cache's eviction order. */
  save(conversation: CachedConversation, activeAt: number): Promise<void>;
  /** Sessions the conversation shown is keeping up to date itself. */
  shown(sessionId: string): boolean;
  /** A session's messages were cached (the search's index is then built again). */
  cachedOne(): void;
  signal: AbortSignal;
}

/** Whether the cached copy holds the session as listed: as many messages, the same last one. */
export function isCurrent(cached: CachedConversation | undefined, session: ChatSession): boolean {
  if (!cached) return false;
  const newest = cached.messages.at(-1);
  return (
    cached.totalItems === session.messageCount &&
    cached.messages.length >= Math.min(session.messageCount, MAX_MESSAGES_PER_SESSION) &&
    !!newest &&
    createdAtMs(newest.createdAt) === createdAtMs(session.lastMessageAt)
  );
}

/**
 * The prefetch of one connection (one handler, one visitor): one run at a time, another after it
 * when asked during one (the listing may have changed); a run ends when done, on {@link stop},
 * or with the connection.
 */
export class SessionPrefetch {
  #running: AbortController | undefined;
  #again: (() => void) | undefined;

  readonly #connection: Connection;
  readonly #cache: HistoryCache;
  constructor(connection: Connection, cache: HistoryCache) {
    this.#connection = connection;
    this.#cache = cache;
  }

  /** Fetches the newest sessions' messages not cached yet; `shown` are kept up to date by the conversation shown. */
  run(shown: (sessionId: string) => boolean, cachedOne: () => void) {
    if (this.#running) {
      this.#again = () => this.run(shown, cachedOne);
      return;
    }
    const stop = new AbortController();
    this.#running = stop;
    const { visitor, signal: connected } = this.#connection;
    const signal = AbortSignal.any([connected, stop.signal]);
    const cache = this.#cache;
    void (async () => {
      // No visitor yet: nothing to list (and asking would make one).
      if (!(await visitor.stored())) return;
      await prefetchSessions({
        get: (path, query, signal) => visitor.request('GET', path, { query, signal }),
        cached: (sessionId) => cache.loadConversation(sessionId),
        save: (conversation, activeAt) => cache.saveConversation(conversation, activeAt),
        shown,
        cachedOne,
        signal,
      });
    })()
      // Offline, or the handler failing: what is cached stays searchable; the next listing tries again.
      .catch(() => undefined)
      .finally(() => {
        if (this.#running !== stop) return;
        this.#running = undefined;
        const again = this.#again;
        this.#again = undefined;
        if (!signal.aborted) again?.();
      });
  }

  /** Stops the run under way (the panel closed). */
  stop() {
    this.#running?.abort();
    this.#running = undefined;
    this.#again = undefined;
  }
}

/** Fetches the listed sessions' messages into the cache; resolves when done or stopped. */
export async function prefetchSessions(context: PrefetchContext): Promise<void> {
  const { signal } = context;
  const listing = await context.get<SessionListResponse>('/sessions', { page: 1, pageSize: MAX_PREFETCHED_SESSIONS }, signal);
  const queue = listing.data.slice(0, MAX_PREFETCHED_SESSIONS).filter((s) => s.messageCount > 0);
  const worker = async () => {
    for (let session = queue.shift(); session && !signal.aborted; session = queue.shift()) {
      if (context.shown(session.id)) continue;
      const cached = await context.cached(session.id);
      if (signal.aborted || isCurrent(cached, session)) continue;
      await fetchSession(context, session, cached?.messages ?? []);
    }
  };
  await Promise.all(Array.from({ length: AT_ONCE }, worker));
}

/** A session's pages, newest first, merged into what was cached, until all are held (or the cache's bound). */
async function fetchSession(context: PrefetchContext, session: ChatSession, held: Message[]) {
  const { signal } = context;
  let messages = held;
  let totalItems = session.messageCount;
  for (let page = 1; ; page++) {
    const response = await context.get<MessageListResponse>('/messages', { sessionId: session.id, page, pageSize: MAX_PAGE_SIZE }, signal);
    if (signal.aborted) return;
    messages = mergeMessages(messages, response.data);
    totalItems = response.totalItems;
    if (page >= response.totalPages || messages.length >= Math.min(totalItems, MAX_MESSAGES_PER_SESSION)) break;
  }
  // Checked again: the visitor may have opened it meanwhile, and the conversation shown writes it.
  if (signal.aborted || context.shown(session.id)) return;
  await context.save({ sessionId: session.id, messages, totalItems }, createdAtMs(session.lastMessageAt));
  context.cachedOne();
}
