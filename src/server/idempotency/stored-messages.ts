/**
 * Finding the messages a send stored upstream, exactly: the send answer carries only the reply
 * text, so the handler reads the visitor's newest messages and picks the question this send
 * stored. Texts repeat ("yes", "ok"), so a question is matched only inside the time its attempt
 * was under way, and each stored question and reply is claimed for one idempotency key
 * atomically in the store: two keys never name the same stored message.
 */
import type { Message } from '../../shared/types.js';
import { belongsTo } from '../core/envelope.js';
import { OUTCOME_TTL_MS, type Attempt } from './idempotency.js';
import type { ResolvedOptions } from '../core/options.js';
import { refuse, TEXT } from '../core/responses.js';
import { callUpstream } from '../core/upstream.js';

/** Messages read per page to find a send's question: far more than one visitor sends at once. */
const LOOKUP_PAGE_SIZE = 50;
/**
 * Pages read at most, back to the earliest attempt: other tabs of the visitor may have sent more
 * than a page since an attempt whose answer was lost.
 */
const LOOKUP_MAX_PAGES = 10;
/** Clock difference allowed between this server and upstream when matching times. */
export const CLOCK_SKEW_MS = 2_000;

/**
 * A question upstream stored and the reply that followed it, when there was one: the send's
 * answer carries it as its `stored` array, in that order, which the widget reads.
 */
export type StoredPair = [question: Message, reply: Message] | [question: Message];

function isMessage(value: unknown): value is Message {
  const record = value as Record<string, unknown>;
  return (
    !!record &&
    typeof record === 'object' &&
    typeof record.id === 'string' &&
    typeof record.text === 'string' &&
    typeof record.createdAt === 'string' &&
    typeof record.chatSessionId === 'string'
  );
}

const timeOf = (message: Message) => Date.parse(message.createdAt);

/** Whether `question` was stored while `attempt` was under way, give or take `skew` ms. */
function during(question: Message, attempt: Attempt, skew: number): boolean {
  const at = timeOf(question);
  return question.text === attempt.content && at >= attempt.startedAt - skew && at <= attempt.endedAt + skew;
}

/**
 * The listed questions (oldest first) one of `attempts` may have stored, in the order to claim
 * them: those stored while an attempt was under way by this server's clock first, then those
 * only the allowed skew lets in, each group oldest first. Two tabs sending the same text a moment
 * apart each store a question inside the skew of the other's attempt; when the clocks agree, as
 * they mostly do, each retry then claims its own rather than whichever is older.
 */
export function questionCandidates(oldestFirst: readonly Message[], attempts: readonly Attempt[]): Message[] {
  const within = (question: Message, skew: number) => attempts.some((attempt) => during(question, attempt, skew));
  const group = (question: Message) => (within(question, 0) ? 0 : 1);
  return oldestFirst
    .filter((m) => m.senderType === 'User' && within(m, CLOCK_SKEW_MS))
    .sort((a, b) => group(a) - group(b) || timeOf(a) - timeOf(b));
}

/**
 * Begin times (a reply's stored time less its response time) closer than this to two questions
 * tell nothing apart: rounding, and the work upstream does before it starts a reply.
 */
const BEGIN_NOISE_MS = 20;

/** When upstream began a reply, by its clock; undefined when the listing gives no response time. */
function beganAt(reply: Message): number | undefined {
  return typeof reply.responseTime === 'number' ? timeOf(reply) - reply.responseTime * 1000 : undefined;
}

/**
 * How long upstream works on a question before it begins the reply (retrieval, say), as the
 * listed exchanges show it: the median, over the questions answered right after them, of the
 * reply's begin time less the question's time; 0 without such exchanges or below 0.
 */
function workBeforeReply(oldestFirst: readonly Message[]): number {
  const delays: number[] = [];
  const previous = new Map<string, Message>(); // each session's message listed last so far
  for (const message of oldestFirst) {
    const question = previous.get(message.chatSessionId);
    const began = message.senderType === 'Bot' ? beganAt(message) : undefined;
    if (question?.senderType === 'User' && began !== undefined) delays.push(began - timeOf(question));
    previous.set(message.chatSessionId, message);
  }
  delays.sort((a, b) => a - b);
  return Math.max(0, delays[Math.floor(delays.length / 2)] ?? 0);
}

/**
 * The replies that may answer `question`, likeliest first, among the listed messages (oldest
 * first); with `replyText` (what upstream answered this send) only those that say it.
 *
 * Upstream stamps a question when it arrives and its reply when it is ready, so sends of one
 * visitor that overlap (two tabs, the first answered slowly) are listed Q1, Q2, R2, R1, and no
 * position tells which reply is whose. Their begin times do: a reply of `question` was begun
 * after it arrived and nearer to it than to any other listed question of its session (beyond
 * the noise), which also leaves out the reply of a question older than the page read, and takes
 * none from a neighbour for a question upstream stored without a reply. When no reply fits by
 * its times (none given, or rounded too coarsely to fit), the reply listed right after the
 * question is taken. Upstream's work before it begins a reply is learnt from the listed
 * exchanges that did not overlap; where there are none, overlapping sends closer together than
 * that work can pair a retry (reply text unknown) with the other's reply; claims still keep the
 * two keys' messages apart.
 */
export function replyCandidates(oldestFirst: readonly Message[], question: Message, replyText?: string): Message[] {
  const session = oldestFirst.filter((m) => m.chatSessionId === question.chatSessionId);
  const at = session.indexOf(question);
  const asked = timeOf(question);
  // Begin times moved back by the work upstream does first: then they fall on their questions.
  const work = workBeforeReply(oldestFirst);
  const startOf = (reply: Message) => {
    const began = beganAt(reply);
    return began === undefined ? undefined : began - work;
  };
  const plausible = (reply: Message, index: number) => {
    if (reply.senderType !== 'Bot' || (replyText !== undefined && reply.text !== replyText)) return false;
    const began = startOf(reply);
    if (began === undefined) return false;
    const own = Math.abs(began - asked);
    const nearerToAnother = session
      .slice(0, index)
      .some((m) => m !== question && m.senderType === 'User' && Math.abs(began - timeOf(m)) + BEGIN_NOISE_MS < own);
    return began >= asked - BEGIN_NOISE_MS && !nearerToAnother;
  };
  const distance = (reply: Message) => Math.abs((startOf(reply) ?? Infinity) - asked);
  const fitting = session.filter((m, index) => index > at && plausible(m, index));
  // Begin times closer than the noise tell nothing apart: the replies that begin within it of the
  // nearest come first, in the order listed (upstream stores a reply when it is ready, so an
  // exchange that did not overlap another lists its own reply first), then the others, nearest first.
  const nearest = Math.min(...fitting.map(distance));
  const tied = (reply: Message) => distance(reply) <= nearest + BEGIN_NOISE_MS;
  const byBeginTime = [...fitting.filter(tied), ...fitting.filter((m) => !tied(m)).sort((a, b) => distance(a) - distance(b))];
  if (byBeginTime.length) return byBeginTime;
  // Times that cannot be trusted (a response time rounded coarsely, an upstream clock held still):
  // the reply listed right after the question is its own.
  const next = session[at + 1];
  return next?.senderType === 'Bot' && (replyText === undefined || next.text === replyText) ? [next] : [];
}

/** Claims a stored question or reply for `key`, atomically in the store: true when it is this key's. */
async function claim(options: ResolvedOptions, userId: string, kind: 'question' | 'reply', id: string, key: string): Promise<boolean> {
  const claimKey = `${options.chatbotId}:idem-${kind}:${userId}:${id}`;
  return (await options.store.add(claimKey, key, options.now() + OUTCOME_TTL_MS)) || (await options.store.get(claimKey)) === key;
}

/**
 * The question one of `attempts` stored (and its reply), claimed for `key`; undefined when none
 * was stored. `beforePage` runs before each page is read (the key's holder renews its lease
 * there, and rejects when it lost the key). Rejects (with the route's answer, 502) when upstream
 * cannot be read.
 */
export async function findStored(
  options: ResolvedOptions,
  userId: string,
  key: string,
  attempts: readonly Attempt[],
  beforePage: () => Promise<void>,
  replyText?: string,
): Promise<StoredPair | undefined> {
  // Newest first, page after page, until the page reaches back before the earliest attempt.
  const since = Math.min(...attempts.map((attempt) => attempt.startedAt)) - CLOCK_SKEW_MS;
  const newestFirst: Message[] = [];
  for (let page = 1; page <= LOOKUP_MAX_PAGES; page++) {
    await beforePage();
    const answer = await callUpstream(options, {
      method: 'GET',
      path: '/messages',
      label: 'GET /messages',
      query: { userId, page, pageSize: LOOKUP_PAGE_SIZE },
    });
    const data = (answer.body as { data?: unknown }).data;
    // A page that cannot be read gives no verdict, rather than a "not stored" that would send
    // the message again (a 5xx is refused the same way by callUpstream).
    if (answer.status !== 200 || !Array.isArray(data)) refuse(502, TEXT.upstreamDown);
    // Messages sent meanwhile push older ones onto later pages: one may be read twice.
    const seen = new Set(newestFirst.map((m) => m.id));
    newestFirst.push(...data.filter((m): m is Message => isMessage(m) && belongsTo(m, userId) && !seen.has(m.id)));
    const oldest = newestFirst.at(-1);
    if (data.length < LOOKUP_PAGE_SIZE || !oldest || timeOf(oldest) < since) break;
  }
  // Upstream lists newest first; ties in time keep that order, so reversing gives storage order.
  const oldestFirst = newestFirst.reverse();
  for (const question of questionCandidates(oldestFirst, attempts)) {
    if (!(await claim(options, userId, 'question', question.id, key))) continue;
    // Replies are claimed too: where begin times cannot tell two apart, the one another key
    // already named is not this one's.
    for (const reply of replyCandidates(oldestFirst, question, replyText)) {
      if (await claim(options, userId, 'reply', reply.id, key)) return [question, reply];
    }
    return [question];
  }
  return undefined;
}
