/**
 * The name of the endpoint's stored visitor (their user id), kept in localStorage beside the
 * first-paint record (conversation/first-paint-record.ts), which is shown only to the visitor
 * named here. The identity itself, with its token, stays in IndexedDB (visitor.ts).
 */
import { attempt, paintKey, visitorKey } from '../../ui/local-records.js';

/**
 * Names the endpoint's stored visitor (undefined: none). Another visitor than before makes the
 * record someone else's: it goes.
 */
export function rememberVisitor(base: string, userId: string | undefined) {
  attempt((storage) => {
    if (storage.getItem(visitorKey(base)) === (userId ?? null)) return;
    // Both go first: if naming the new visitor fails, no name is left that an old tab could match.
    storage.removeItem(paintKey(base));
    storage.removeItem(visitorKey(base));
    if (userId) storage.setItem(visitorKey(base), userId);
  });
}
