/**
 * Matching local messages to their server copies. The send route answers with the reply text
 * only, never with message ids, so a message the visitor sent is recognised in the server's
 * conversation by sender, text and time:
 * - a server `User` message with the same text,
 * - newer than the newest server message known when it was queued (`after`, server clock), or,
 *   when nothing was known, not older than its local creation time minus a clock-skew allowance,
 * - not already claimed by an earlier local message (locals claim in the order they were sent).
 */
import type { Message } from '../../shared/types.js';

/** Browser and server clocks may differ; used only when no server time is known. */
export const CLOCK_SKEW_MS = 10 * 60_000;

export interface LocalCandidate {
  localId: string;
  content: string;
  createdAt: string;
  after?: string;
}

const time = (iso: string | undefined) => (iso ? Date.parse(iso) || 0 : 0);

/**
 * Returns localId → the server message that is its copy, for every local that has one.
 * `server` is oldest first. Locals are tried in the order they were created.
 */
export function findServerCopies(locals: readonly LocalCandidate[], server: readonly Message[]): Map<string, Message> {
  const found = new Map<string, Message>();
  const claimed = new Set<string>();
  const ordered = [...locals].sort((a, b) => time(a.createdAt) - time(b.createdAt) || (a.localId < b.localId ? -1 : 1));
  for (const local of ordered) {
    const floor = local.after ? time(local.after) : time(local.createdAt) - CLOCK_SKEW_MS;
    const copy = server.find(
      (m) =>
        m.senderType === 'User' &&
        !claimed.has(m.id) &&
        (m.text === local.content || m.text.trim() === local.content.trim()) &&
        (local.after ? time(m.createdAt) > floor : time(m.createdAt) >= floor),
    );
    if (copy) {
      claimed.add(copy.id);
      found.set(local.localId, copy);
    }
  }
  return found;
}
