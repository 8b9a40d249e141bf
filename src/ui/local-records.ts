/**
 * What the widget keeps in localStorage for an endpoint, read synchronously so that a reload can
 * draw from it at once: the name of the stored visitor (their user id; the identity itself, with
 * its token, stays in IndexedDB; chatbot-widget/identity/visitor-name.ts), and the first-paint
 * record (chatbot-widget/conversation/first-paint-record.ts), which also carries the panel's snapshot
 * (panel-snapshot.ts).
 */

/** The endpoint's stored visitor. */
export const visitorKey = (base: string) => `chatbot-widget|visitor|${base}`;
/** The endpoint's first-paint record. */
export const paintKey = (base: string) => `chatbot-widget|paint|${base}`;

/** Longest first-paint record written without a snapshot, in characters of JSON (a long answer or two); past it, fewer messages. */
export const MAX_RECORD_CHARS = 32_768;
/** Longest snapshot a record carries, in characters of JSON: what the panel shows. */
export const MAX_SNAPSHOT_CHARS = 65_536;
/**
 * Longest first-paint record, snapshot included. Checked on reading too: the record is read in the
 * element's first render, and anything on the origin may have written a longer one.
 */
export const MAX_PAINT_RECORD_CHARS = MAX_RECORD_CHARS + MAX_SNAPSHOT_CHARS;

/**
 * Runs a localStorage call. Where localStorage is missing or refused (sandboxed frames, disabled
 * storage, a full quota), or a record is unreadable, there is simply nothing: no error for the chat.
 */
export function attempt<T>(action: (storage: Storage) => T): T | undefined {
  try {
    return action(localStorage);
  } catch {
    return undefined;
  }
}
