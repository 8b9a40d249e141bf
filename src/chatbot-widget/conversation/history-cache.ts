/**
 * Cached pages of the visitor's sessions and messages, for an instant first paint
 * (stale-while-revalidate). Namespaced by endpoint and visitor, bounded in size: each session
 * keeps its newest {@link MAX_MESSAGES_PER_SESSION} messages and the whole namespace at most
 * {@link MAX_CACHED_MESSAGES}, evicting the least recently opened sessions first. The newest
 * few messages of the current conversation are also copied to the first-paint record
 * (first-paint-record.ts), which a reload reads before IndexedDB has opened.
 */
import type { ChatSession, Message } from '../../shared/types.js';
import { checkedConversation, type CachedConversation } from './cached-conversation.js';
import { dropFirstPaint, saveFirstPaint } from './first-paint-record.js';
import { keyPart, type KeyValueStorage } from '../io/storage.js';

export const MAX_MESSAGES_PER_SESSION = 2_000;
export const MAX_CACHED_MESSAGES = 6_000;
/** Sessions cached at most: the newest 50 the history search fetches (search/session-prefetch.ts), and those opened. */
export const MAX_CACHED_SESSIONS = 60;

/** The history list as far as it has been paged. */
export interface CachedSessions {
  sessions: ChatSession[];
  totalPages: number;
  pagesLoaded: number;
}

interface CacheIndex {
  /** The visitor's latest session: the conversation shown on open. */
  current?: string;
  /** sessionId → its entry, stored as a pair (see {@link storedEntry}). */
  entries: Record<string, StoredEntry>;
}

/** A cached session's line in the index: what eviction weighs. */
interface IndexEntry {
  /** When it was last opened (ms): the least recently opened go first. */
  opened: number;
  /** How many of its messages are cached. */
  held: number;
}

/**
 * An index entry as stored in IndexedDB: `[opened, held]`, the format caches already written
 * hold. Written by {@link storedEntry}, read by {@link entryOf}.
 */
type StoredEntry = [opened: number, held: number];

const storedEntry = ({ opened, held }: IndexEntry): StoredEntry => [opened, held];
/**
 * A stored pair's entry. A line of any other shape (the storage written by something else) reads
 * as the session opened longest ago and as full as a session can be: it is the first to go.
 */
const entryOf = (stored: unknown): IndexEntry =>
  Array.isArray(stored) && stored.length === 2 && stored.every(Number.isFinite)
    ? { opened: stored[0] as number, held: stored[1] as number }
    : { opened: 0, held: MAX_MESSAGES_PER_SESSION };

/**
 * Milliseconds of a stored message's `createdAt` as `Date.parse` reads it, or 0 for text it cannot
 * read: such a message sorts as the oldest and never counts as newer than another. Defined here,
 * in the panel's chunk, rather than in shared/dates: the widget's chunks importing that module
 * would split it into a chunk of its own, one more file (over 100 B gzip) on the first open.
 */
export function createdAtMs(iso: string): number {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? 0 : ms;
}

/**
 * Merges messages by id into an oldest-first list. `incoming` is in server order (newest first);
 * on equal `createdAt` the server lists the most recently stored first, which the reverse keeps.
 */
export function mergeMessages(existing: readonly Message[], incoming: readonly Message[]): Message[] {
  const byId = new Map<string, Message>();
  for (const message of existing) byId.set(message.id, message);
  for (const message of [...incoming].reverse()) byId.set(message.id, message);
  const order = new Map<string, number>();
  let i = 0;
  for (const id of byId.keys()) order.set(id, i++);
  return [...byId.values()].sort((a, b) => createdAtMs(a.createdAt) - createdAtMs(b.createdAt) || order.get(a.id)! - order.get(b.id)!);
}

/**
 * Merges the newest page of a session into the cached run. When the page shares no message with
 * the cache and more exist beyond it, a gap may lie between them: the stale run is dropped so
 * the cache stays contiguous (older pages are fetched again on scroll).
 */
export function mergeNewestPage(cached: readonly Message[], page: readonly Message[], pageSize: number, totalItems: number) {
  const known = new Set(cached.map((m) => m.id));
  const overlaps = page.some((m) => known.has(m.id));
  const mayHaveGap = cached.length > 0 && !overlaps && page.length >= pageSize && totalItems > page.length;
  return mergeMessages(mayHaveGap ? [] : cached, page);
}

export class HistoryCache {
  #base = '';
  #userId = '';
  readonly #storage: KeyValueStorage;
  constructor(storage: KeyValueStorage) {
    this.#storage = storage;
  }

  /** Scopes every key to one endpoint and one visitor. */
  use(base: string, userId: string) {
    this.#base = base;
    this.#userId = userId;
  }

  /**
   * Whether a visitor is known. Until one is, nothing is read or written: keys with an empty user
   * id would be one namespace shared by whoever uses the device before their identity is known.
   */
  get #known() {
    return this.#userId !== '';
  }

  get #namespace() {
    return `${this.#base}|${keyPart(this.#userId)}`;
  }

  #key(kind: string, id = '', namespace = this.#namespace) {
    return `${kind}|${namespace}|${keyPart(id)}`;
  }

  async #index(): Promise<CacheIndex> {
    return (await this.#storage.get<CacheIndex>(this.#key('index'))) ?? { entries: {} };
  }

  async currentSessionId() {
    if (!this.#known) return undefined;
    return (await this.#index()).current;
  }

  async setCurrentSessionId(sessionId: string) {
    if (!this.#known) return;
    const base = this.#base;
    await this.#updateIndex((index) => {
      if (index.current === sessionId) return index;
      // The first-paint record shows the old current conversation: gone until the new one is saved.
      dropFirstPaint(base);
      return { ...index, current: sessionId };
    });
  }

  /**
   * Changes the index in one transaction: read, changed and written with no other write in
   * between. Saves run side by side (the search's prefetch, the conversation shown, other tabs),
   * and a read followed by a separate write would lose what another wrote meanwhile.
   */
  #updateIndex(change: (index: CacheIndex) => CacheIndex) {
    return this.#storage.update<CacheIndex>(this.#key('index'), (stored) => change(stored ?? { entries: {} }));
  }

  async loadSessions() {
    if (!this.#known) return undefined;
    return this.#storage.get<CachedSessions>(this.#key('sessions'));
  }

  async saveSessions(value: CachedSessions) {
    if (!this.#known) return;
    return this.#storage.set(this.#key('sessions'), value);
  }

  async loadConversation(sessionId: string) {
    if (!this.#known) return undefined;
    return checkedConversation(await this.#storage.get<CachedConversation>(this.#key('conversation', sessionId)));
  }

  /** Every cached conversation of the visitor (for the history search). */
  async loadConversations(): Promise<CachedConversation[]> {
    if (!this.#known) return [];
    const stored = await this.#storage.list<CachedConversation>(this.#key('conversation'));
    return stored.map(checkedConversation).filter((c): c is CachedConversation => !!c);
  }

  /**
   * Stores a conversation, trimming it and evicting the least recently used others past the
   * bounds; for the current conversation, also its first-paint record. `used` is when it was
   * last used (ms): now for one the visitor opened, its last activity for one fetched for the
   * search, so those go before any the visitor opened.
   */
  async saveConversation(conversation: CachedConversation, used = Date.now()) {
    if (!this.#known) return;
    // As when asked: a new visitor may be in use by the time the index is read.
    const base = this.#base;
    const userId = this.#userId;
    const namespace = this.#namespace;
    const messages = conversation.messages.slice(-MAX_MESSAGES_PER_SESSION);
    await this.#storage.set(this.#key('conversation', conversation.sessionId, namespace), { ...conversation, messages });
    let evicted: string[] = [];
    const index = await this.#storage.update<CacheIndex>(this.#key('index', '', namespace), (stored) => {
      const entries = { ...stored?.entries, [conversation.sessionId]: storedEntry({ opened: used, held: messages.length }) };
      const sessions = Object.entries(entries)
        .map(([id, entry]) => ({ id, ...entryOf(entry) }))
        .sort((a, b) => a.opened - b.opened);
      let total = sessions.reduce((sum, { held }) => sum + held, 0);
      evicted = [];
      for (const { id, held } of sessions) {
        if (total <= MAX_CACHED_MESSAGES && sessions.length - evicted.length <= MAX_CACHED_SESSIONS) break;
        if (id === conversation.sessionId || id === stored?.current) continue;
        total -= held;
        delete entries[id];
        evicted.push(id);
      }
      return { ...stored, entries };
    });
    if (index.current === conversation.sessionId) saveFirstPaint(base, userId, { ...conversation, messages });
    await Promise.all(evicted.map((id) => this.#storage.delete(this.#key('conversation', id, namespace))));
  }

  /** sessionId → first line, for the history pane. */
  async loadFirstLines() {
    if (!this.#known) return undefined;
    return this.#storage.get<Record<string, string>>(this.#key('firstlines'));
  }

  async saveFirstLines(lines: Record<string, string>) {
    if (!this.#known) return;
    return this.#storage.set(this.#key('firstlines'), lines);
  }

  /** Forgets everything cached for an endpoint, for every visitor. */
  async clearEndpoint(base: string) {
    dropFirstPaint(base);
    await Promise.all(['index', 'sessions', 'conversation', 'firstlines'].map((kind) => this.#storage.deletePrefix(`${kind}|${base}|`)));
  }
}
