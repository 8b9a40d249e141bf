/**
 * What the widget keeps in localStorage for an endpoint, read synchronously so that a reload can
 * draw from it at once: the name of the stored visitor (their user id; the identity itself, with
 * its token, stays in IndexedDB), and the first-paint record (controllers/first-paint-record.ts),
 * which also carries the panel's snapshot (panel-snapshot.ts).
 */

/** The endpoint's stored visitor. */
export const visitorKey = (base: string) => `chatbot-widget|visitor|${base}`;
/** The endpoint's first-paint record. */
export const paintKey = (base: string) => `chatbot-widget|paint|${base}`;

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
