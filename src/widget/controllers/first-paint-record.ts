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
 * stored visitor is named (their user id; the identity itself, with its token, stays in IndexedDB).
 * A record is shown only when the two agree, and the identity read a moment later confirms it.
 */
import { checkedConversation, type CachedConversation } from './cached-conversation.js';

/** A few more than the first paint draws (it fills a tall panel with 16). */
export const FIRST_PAINT_MESSAGES = 24;
/** Longest record kept, in characters of JSON (a long answer or two); past it, fewer messages. */
const MAX_RECORD_CHARS = 32_768;

export interface FirstPaint {
  userId: string;
  conversation: CachedConversation;
}

const paintKey = (base: string) => `chatbot-widget|paint|${base}`;
const visitorKey = (base: string) => `chatbot-widget|visitor|${base}`;

/** The page's localStorage, or undefined where it is missing or refused (sandboxed frames, disabled storage). */
function localStore(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

/** Runs a localStorage call; a refusal (quota, storage disabled meanwhile) is no error for the chat. */
function attempt<T>(action: (storage: Storage) => T): T | undefined {
  const storage = localStore();
  if (!storage) return undefined;
  try {
    return action(storage);
  } catch {
    return undefined;
  }
}

/** The endpoint's record, if it belongs to the endpoint's stored visitor; read synchronously. */
export function readFirstPaint(base: string): FirstPaint | undefined {
  return attempt((storage) => {
    const visitor = storage.getItem(visitorKey(base));
    const text = storage.getItem(paintKey(base));
    if (!visitor || !text) return undefined;
    const record = JSON.parse(text) as Partial<FirstPaint> | null;
    const conversation = checkedConversation(record?.conversation);
    return conversation && record!.userId === visitor ? { userId: visitor, conversation } : undefined;
  });
}

/** Keeps the newest messages of the visitor's current conversation, as many as fit. */
export function saveFirstPaint(base: string, userId: string, conversation: CachedConversation) {
  attempt((storage) => {
    if (storage.getItem(visitorKey(base)) !== userId) return; // written for a visitor no longer stored
    for (let count = Math.min(FIRST_PAINT_MESSAGES, conversation.messages.length); count > 0; count = Math.floor(count / 2)) {
      const record: FirstPaint = { userId, conversation: { ...conversation, messages: conversation.messages.slice(-count) } };
      const text = JSON.stringify(record);
      if (text.length <= MAX_RECORD_CHARS) return storage.setItem(paintKey(base), text);
    }
    storage.removeItem(paintKey(base));
  });
}

/** The record no longer shows the current conversation (another one became current). */
export function dropFirstPaint(base: string) {
  attempt((storage) => storage.removeItem(paintKey(base)));
}

/**
 * Names the endpoint's stored visitor (undefined: none). Another visitor than before makes the
 * record someone else's: it goes.
 */
export function rememberVisitor(base: string, userId: string | undefined) {
  attempt((storage) => {
    if (storage.getItem(visitorKey(base)) === (userId ?? null)) return;
    storage.removeItem(paintKey(base));
    if (userId) storage.setItem(visitorKey(base), userId);
    else storage.removeItem(visitorKey(base));
  });
}
