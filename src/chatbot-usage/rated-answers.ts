/**
 * The rated answers `<chatbot-usage>` lists: each rating of the handler's admin listing with the
 * bot message it rates and the visitor's question before it. Ratings hold only ids, so the
 * element reads each rated session's messages (the admin messages route, newest first) and takes
 * the user message just before the rated one; one read per session, however many of its answers
 * were rated.
 */
import { MAX_PAGE_SIZE } from '../shared/page-size.js';
import type { FeedbackItem, Message } from '../shared/types.js';
import type { AdminApi, Page } from './admin-api.js';

/** Pages of one session read at most while looking for its rated answers. */
const SESSION_PAGES_AT_MOST = 5;

export interface RatedAnswer {
  rating: FeedbackItem;
  /** The rated bot message; undefined when the session no longer holds it (or it is further back than read). */
  answer?: Message | undefined;
  /** The visitor's message before it, if any. */
  question?: Message | undefined;
  /** Where the answer is in its session, newest first (0 the newest): the page that shows it. */
  position?: number | undefined;
}

/** The user message before the message at `position` (newest first: after it in the list). */
const questionBefore = (messages: Message[], position: number) => messages.slice(position + 1).find((m) => m.senderType === 'User');

/** The session's messages, newest first, page by page until every rated one and the question before it are read. */
async function readSession(api: AdminApi, sessionId: string, rated: ReadonlySet<string>): Promise<Message[]> {
  const messages: Message[] = [];
  const missing = () =>
    [...rated].some((id) => {
      const position = messages.findIndex((m) => m.id === id);
      return position < 0 || !questionBefore(messages, position);
    });
  let page: Page<Message>;
  let number = 0;
  do {
    page = await api.messages(sessionId, ++number, MAX_PAGE_SIZE);
    messages.push(...page.items);
  } while (missing() && number < page.totalPages && number < SESSION_PAGES_AT_MOST);
  return messages;
}

/** The ratings with their answers and questions, in the order given. */
export async function ratedAnswers(api: AdminApi, ratings: FeedbackItem[]): Promise<RatedAnswer[]> {
  const sessions = new Map<string, Set<string>>();
  for (const { chatSessionId, messageId } of ratings) {
    const ids = sessions.get(chatSessionId) ?? new Set<string>();
    sessions.set(chatSessionId, ids.add(messageId));
  }
  const read = new Map(await Promise.all([...sessions].map(async ([id, rated]) => [id, await readSession(api, id, rated)] as const)));
  return ratings.map((rating) => {
    const messages = read.get(rating.chatSessionId) ?? [];
    const position = messages.findIndex((m) => m.id === rating.messageId);
    if (position < 0) return { rating };
    return { rating, answer: messages[position], question: questionBefore(messages, position), position };
  });
}
