/**
 * Replies that reach the conversation without being the answer to a send of this tab: a person's
 * reply (an agent of the site writes when they write), or the assistant's to a send made
 * elsewhere. Answers to this tab's sends are counted when they come (`chatbot-reply`); these are
 * found when a refresh brings the newest page.
 */
import type { Message } from '../../shared/types.js';
import { isReply, senderKind } from '../sender-kind.js';
import { createdAtMs } from './history-cache.js';

/**
 * How many messages of `page` are replies (the assistant's or a person's; a notice is none) newer
 * than everything `held` had, other than `counted` (ids of this tab's sends and their replies).
 * None when nothing was held: a conversation seen for the first time brings no news, only history.
 */
export function newReplies(held: readonly Message[], page: readonly Message[], counted: ReadonlySet<string>): number {
  if (!held.length) return 0;
  const known = new Set(held.map((m) => m.id));
  const newest = Math.max(...held.map((m) => createdAtMs(m.createdAt)));
  return page.filter(
    (m) => !known.has(m.id) && !counted.has(m.id) && createdAtMs(m.createdAt) > newest && isReply(senderKind(m.senderType)),
  ).length;
}
