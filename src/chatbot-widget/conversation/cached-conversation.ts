/** A conversation as the widget's caches hold it, and the check every stored copy passes on the way in. */
import type { Message } from '../../shared/types.js';

/** One session's messages: a contiguous run, oldest first, ending at the newest known message. */
export interface CachedConversation {
  sessionId: string;
  messages: Message[];
  /** Messages the server holds for this session, as of the last fetch. */
  totalItems: number;
}

/** A session with nothing cached yet: shown empty until its messages arrive. */
export const emptyConversation = (sessionId: string): CachedConversation => ({ sessionId, messages: [], totalItems: 0 });

/**
 * A stored conversation as the widget can use it. Storage hands back whatever was put there (by
 * another script of the site, or an older version of the widget), so records are checked on the
 * way in: messages whose id, text or time is not a string are left out, which keeps later code
 * (merging, reconciling, rendering) from failing on them.
 */
export function checkedConversation(value: CachedConversation | undefined): CachedConversation | undefined {
  if (!value || typeof value.sessionId !== 'string' || !Array.isArray(value.messages)) return undefined;
  const messages = value.messages.filter(
    (m) => m && typeof m.id === 'string' && typeof m.text === 'string' && typeof m.createdAt === 'string',
  );
  return { sessionId: value.sessionId, messages, totalItems: Number(value.totalItems) || messages.length };
}
