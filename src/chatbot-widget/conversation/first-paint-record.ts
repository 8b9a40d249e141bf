/**
 * The first-paint record: the newest messages of the visitor's current conversation, kept in
 * localStorage so that a reloaded widget draws them in its very first render. The rest of the
 * cache lives in IndexedDB, which answers only once it has opened: 1–20 ms after a reload, most
 * of the frame the first paint has. localStorage is read synchronously.
 *
 * The record is small, as the site's own scripts share that storage (about 5 MB an origin), and
 * it is only a copy: the cache in IndexedDB is read right after the first frame. A record that is
 * missing, too large or unreadable only means the first paint waits for IndexedDB.
 *
 * Whose conversation it is must be known before it is shown, so beside the record the endpoint's
 * stored visitor is named (identity/visitor-name.ts).
 * A record is shown only when the two agree, and the identity read a moment later confirms it.
 */
import { attempt, MAX_PAINT_RECORD_CHARS, MAX_RECORD_CHARS, paintKey, visitorKey } from '../../ui/local-records.js';
import type { StoredSnapshot } from '../panel-snapshot.js';
import { checkedConversation, type CachedConversation } from './cached-conversation.js';

/** Enough to fill a tall panel with short messages (the first paint draws as many as fill it). */
const FIRST_PAINT_MESSAGES = 24;
export interface FirstPaint {
  userId: string;
  conversation: CachedConversation;
  /** The panel as it showed this conversation (panel-snapshot.ts), when it did. */
  snapshot?: StoredSnapshot;
}

/**
 * A record's JSON as an object whose fields are still to be checked; undefined for JSON of another
 * kind (`null`, a number: anything on the origin can write localStorage). Throws for text that is
 * not JSON, which the caller's `attempt` reads as no record.
 */
function recordIn(text: string): Partial<FirstPaint> | undefined {
  const record: unknown = JSON.parse(text);
  return typeof record === 'object' && record !== null ? (record as Partial<FirstPaint>) : undefined;
}

/** The endpoint's record, if it belongs to the endpoint's stored visitor; read synchronously. */
export function readFirstPaint(base: string): FirstPaint | undefined {
  return attempt((storage) => {
    const visitor = storage.getItem(visitorKey(base));
    const text = storage.getItem(paintKey(base));
    if (!visitor || text === null || text.length > MAX_PAINT_RECORD_CHARS) return undefined;
    const record = recordIn(text);
    if (!record || record.userId !== visitor) return undefined;
    const conversation = checkedConversation(record.conversation);
    return conversation ? { userId: visitor, conversation } : undefined;
  });
}

/** Keeps the newest messages of the visitor's current conversation: fewer when they are long. */
export function saveFirstPaint(base: string, userId: string, conversation: CachedConversation) {
  attempt((storage) => {
    if (storage.getItem(visitorKey(base)) !== userId) return; // written for a visitor no longer stored
    // Gone first: where the origin's storage is full, no record rather than an outdated one. The
    // new record has no snapshot: the panel has not shown it yet.
    storage.removeItem(paintKey(base));
    for (let count = Math.min(FIRST_PAINT_MESSAGES, conversation.messages.length); count > 0; count = Math.floor(count / 2)) {
      const record: FirstPaint = { userId, conversation: { ...conversation, messages: conversation.messages.slice(-count) } };
      const text = JSON.stringify(record);
      if (text.length <= MAX_RECORD_CHARS) return storage.setItem(paintKey(base), text);
    }
  });
}

/** The record no longer shows the current conversation (another one became current). */
export function dropFirstPaint(base: string) {
  attempt((storage) => storage.removeItem(paintKey(base)));
}

/**
 * Puts the panel's snapshot into the record, or (undefined) takes it out. Only into a record of
 * the conversation `shown`, with the same newest message: not into one another tab wrote since
 * (newer messages, another conversation, another visitor's), nor one without a reply the panel
 * shows but the cache has not stored yet.
 */
export function keepSnapshot(base: string, shown: CachedConversation | undefined, snapshot: StoredSnapshot | undefined) {
  attempt((storage) => {
    const text = storage.getItem(paintKey(base));
    if (text === null || text.length > MAX_PAINT_RECORD_CHARS) return; // no record to keep it in
    const record = recordIn(text);
    const conversation = checkedConversation(record?.conversation);
    if (!record || !conversation) return;
    const { sessionId, messages } = conversation;
    const same = sessionId === shown?.sessionId && messages.at(-1)?.id === shown.messages.at(-1)?.id;
    const kept = same ? snapshot : undefined;
    // Nothing to put in nor take out (a tab hidden with the chat closed): nothing is written.
    if (!kept && !record.snapshot) return;
    const next = JSON.stringify({ ...record, snapshot: kept });
    storage.setItem(paintKey(base), next.length <= MAX_PAINT_RECORD_CHARS ? next : JSON.stringify({ ...record, snapshot: undefined }));
  });
}
