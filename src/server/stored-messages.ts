/**
 * Finding the messages a send stored upstream, exactly: the send answer carries only the reply
 * text, so the handler reads the visitor's newest messages and picks the question this send
 * stored. Texts repeat ("yes", "ok"), so a question is matched only inside the time its attempt
 * was under way, and each stored question is claimed for one idempotency key atomically in the
 * store: two keys with the same text never get the same stored message.
 */
import type { Message } from '../shared/types.js';
import { belongsTo } from './envelope.js';
import { OUTCOME_TTL_MS, type Attempt } from './idempotency.js';
import type { ResolvedOptions } from './options.js';
import { callUpstream } from './upstream.js';

/** Newest messages read to find a send's question: far more than one visitor sends at once. */
const LOOKUP_PAGE_SIZE = 50;
/** Clock difference allowed between this server and upstream when matching times. */
export const CLOCK_SKEW_MS = 2_000;

/** A question upstream stored and the reply that followed it, when there was one. */
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

/** Whether `question` was stored while `attempt` was under way (with the allowed skew). */
function during(question: Message, attempt: Attempt): boolean {
  const at = timeOf(question);
  return question.text === attempt.content && at >= attempt.startedAt - CLOCK_SKEW_MS && at <= attempt.endedAt + CLOCK_SKEW_MS;
}

/** When upstream began a reply, by its clock: stored at less its response time (when the listing gives one). */
const beganAt = (reply: Message) => timeOf(reply) - (typeof reply.responseTime === 'number' ? reply.responseTime * 1000 : 0);

/**
 * The reply upstream paired with `question` in its session (oldest first). Upstream stamps a
 * question when it arrives and its reply when it is ready, so two sends of one visitor that
 * overlap (two tabs) are listed Q1, Q2, R2, R1. Each send stores its question and reply together,
 * so the session's questions and replies pair up in order: of when they were asked, and of when
 * the replies were begun. Replies listed before the first question answer questions older than
 * the page read, and are left out.
 */
function pairedReply(session: readonly Message[], question: Message): Message | undefined {
  const fromFirstQuestion = session.slice(session.findIndex((m) => m.senderType === 'User'));
  const questions = fromFirstQuestion.filter((m) => m.senderType === 'User');
  const replies = fromFirstQuestion.filter((m) => m.senderType === 'Bot').sort((a, b) => beganAt(a) - beganAt(b));
  const reply = replies[questions.indexOf(question)];
  return reply && session.indexOf(reply) > session.indexOf(question) ? reply : undefined;
}

/**
 * The Bot reply to `question` among the listed messages (oldest first). With `replyText` (what
 * upstream answered this send) a paired reply that says something else was misjudged: begin times
 * a few milliseconds apart can swap. The reply with that text begun nearest the question is taken
 * instead.
 */
export function replyTo(oldestFirst: readonly Message[], question: Message, replyText: string | undefined): Message | undefined {
  const session = oldestFirst.filter((m) => m.chatSessionId === question.chatSessionId);
  const paired = pairedReply(session, question);
  if (replyText === undefined || paired?.text === replyText) return paired;
  const distance = (reply: Message) => Math.abs(beganAt(reply) - timeOf(question));
  return session
    .slice(session.indexOf(question) + 1)
    .filter((m) => m.senderType === 'Bot' && m.text === replyText)
    .reduce<Message | undefined>((nearest, reply) => (!nearest || distance(reply) < distance(nearest) ? reply : nearest), undefined);
}

/**
 * The question one of `attempts` stored (and its reply), claimed for `key`; undefined when none
 * was stored. Rejects (with the route's answer) when upstream cannot be read.
 */
export async function findStored(
  options: ResolvedOptions,
  userId: string,
  key: string,
  attempts: readonly Attempt[],
  replyText?: string,
): Promise<StoredPair | undefined> {
  const answer = await callUpstream(options, {
    method: 'GET',
    path: '/messages',
    label: 'GET /messages',
    query: { userId, page: 1, pageSize: LOOKUP_PAGE_SIZE },
  });
  const data = (answer.body as { data?: unknown }).data;
  if (answer.status !== 200 || !Array.isArray(data)) return undefined;
  // Upstream lists newest first; ties in time keep that order, so reversing gives storage order.
  const oldestFirst = data.filter((m): m is Message => isMessage(m) && belongsTo(m, userId)).reverse();
  const candidates = oldestFirst
    .filter((m) => m.senderType === 'User' && attempts.some((attempt) => during(m, attempt)))
    .sort((a, b) => timeOf(a) - timeOf(b));
  for (const question of candidates) {
    const claimKey = `${options.chatbotId}:idem-claim:${userId}:${question.id}`;
    const ours = (await options.store.add(claimKey, key, options.now() + OUTCOME_TTL_MS)) || (await options.store.get(claimKey)) === key;
    if (!ours) continue;
    const reply = replyTo(oldestFirst, question, replyText);
    return reply ? [question, reply] : [question];
  }
  return undefined;
}
