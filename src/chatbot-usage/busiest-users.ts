/**
 * The busiest users of a range. Upstream lists users newest activity first and counts, per user,
 * the messages they sent in all (not per range), and it has no listing by count. So the element
 * reads users page by page while their latest activity is inside the range's start, up to
 * {@link USERS_READ_AT_MOST}, and ranks those by messages sent; the list says exactly that.
 */
import { MAX_PAGE_SIZE } from '../shared/page-size.js';
import type { ChatUser } from '../shared/types.js';
import type { AdminApi } from './admin-api.js';
import type { UsageRange } from './month-range.js';

/** Users read at most for the ranking: a handful of requests, however many users there are. */
export const USERS_READ_AT_MOST = 500;
/** Users shown in the ranking. */
export const BUSIEST_SHOWN = 10;

export interface BusiestUsers {
  /** The ranking, most messages sent first. */
  users: ChatUser[];
  /** Users read (active since the range's start, newest activity first). */
  read: number;
  /** Users of the chatbot in all, as upstream counts them. */
  totalUsers: number;
  /** False when more users were active since the range's start than were read. */
  complete: boolean;
}

export async function busiestUsers(api: AdminApi, range: UsageRange): Promise<BusiestUsers> {
  const active: ChatUser[] = [];
  let totalUsers = 0;
  let complete = true;
  for (let page = 1; ; page++) {
    const result = await api.users(page, MAX_PAGE_SIZE);
    totalUsers = result.totalItems;
    let reachedOlder = false;
    for (const user of result.items) {
      const last = Date.parse(user.lastMessageAt);
      if (last < range.fromMs) {
        reachedOlder = true;
        break;
      }
      // A user whose first message is after the range had nothing in it.
      if (!(Date.parse(user.createdAt) >= range.toMs)) active.push(user);
    }
    if (reachedOlder || page >= result.totalPages) break;
    if (page * MAX_PAGE_SIZE >= USERS_READ_AT_MOST) {
      complete = false;
      break;
    }
  }
  const users = active
    .slice()
    .sort((a, b) => b.messageCount - a.messageCount || Date.parse(b.lastMessageAt) - Date.parse(a.lastMessageAt))
    .slice(0, BUSIEST_SHOWN);
  return { users, read: active.length, totalUsers, complete };
}
