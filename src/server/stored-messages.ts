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

/** The Bot reply after `question` in its session (oldest first `list`): with `replyText` when known. */
function replyTo(oldestFirst: readonly Message[], question: Message, replyText: string | undefined): Message | undefined {
  const after = oldestFirst.slice(oldestFirst.indexOf(question) + 1).filter((m) => m.chatSessionId === question.chatSessionId);
  if (replyText !== undefined) return after.find((m) => m.senderType === 'Bot' && m.text === replyText);
  for (const message of after) {
    if (message.senderType === 'Bot') return message;
    if (message.senderType === 'User') return undefined;
  }
  return undefined;
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
