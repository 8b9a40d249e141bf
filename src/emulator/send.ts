/**
 * The send endpoint (docs/api.md): a quota slot reserved, session by the 30-minute rule, the
 * reply from the reply source, then question and reply stored in one transaction. The slot is
 * reserved atomically BEFORE the reply source is asked, so under any concurrency a send refused
 * over quota never reaches the reply source (with an OpenAI-compatible source, never costs).
 */
import { randomUUID } from 'node:crypto';
import type { ChatbotConfig } from './config.js';
import type { EmulatorContext, HandlerResult } from './context.js';
import { sendEnvelope } from './envelope.js';
import { apiErrors, ApiError } from './errors.js';
import { rateLimitHeaders, type QuotaState } from './quota.js';
import type { SendBody } from './validation.js';

/** A send continues the user's latest session when its last message is younger than this. */
export const SESSION_GAP_MS = 30 * 60 * 1000;
/** Messages of the session given to the reply source as context. */
const HISTORY_LENGTH = 10;
/** A reply source that takes longer than this fails the send with 500. */
const REPLY_TIMEOUT_MS = 60_000;

/**
 * Answers a checked send. `quota` was read when the request arrived (its headers are already on
 * every response); the reservation checks it again atomically, so concurrent sends can never
 * overrun it.
 */
export async function send(
  ctx: EmulatorContext,
  chatbot: ChatbotConfig,
  body: SendBody,
  quota: QuotaState,
  receivedAt: number,
  signal: AbortSignal,
): Promise<HandlerResult> {
  const refuseQuota = () => {
    const spent = { ...quota, used: quota.limit };
    return new ApiError(429, apiErrors.quotaExceeded(quota.limit).body, {
      ...rateLimitHeaders(spent),
      'Retry-After': String(Math.max(1, quota.reset - Math.floor(receivedAt / 1000))),
    });
  };
  if (quota.used >= quota.limit) throw refuseQuota();
  const reservation = ctx.store.reserveQuota(chatbot.id, quota.day, quota.limit);
  if (!reservation.reserved) throw refuseQuota();
  try {
    return await answerReserved(ctx, chatbot, body, quota, reservation.quotaUsed, receivedAt, signal);
  } catch (error) {
    // Nothing was stored: the slot goes back for another send.
    ctx.store.releaseQuota(chatbot.id, quota.day);
    throw error;
  }
}

/**
 * The send once its quota slot is reserved: reply, then both messages stored. A failure answers
 * with `quota` as it was before the reservation (the caller gives the slot back).
 */
async function answerReserved(
  ctx: EmulatorContext,
  chatbot: ChatbotConfig,
  body: SendBody,
  quota: QuotaState,
  usedWithThisSend: number,
  receivedAt: number,
  signal: AbortSignal,
): Promise<HandlerResult> {
  // The session the send will most likely continue, for the reply's context; the transaction
  // decides for good.
  const latest = ctx.store.latestSession(chatbot.id, body.userId);
  const sessionId = latest && receivedAt - latest.lastMessageAt < SESSION_GAP_MS ? latest.id : undefined;
  const history = sessionId ? ctx.store.sessionHistory(chatbot.id, sessionId, HISTORY_LENGTH) : [];

  const started = performance.now();
  let reply: string;
  try {
    const source = await ctx.replySource();
    reply = await source.reply(
      {
        chatbotId: chatbot.id,
        userId: body.userId,
        userName: body.userName,
        sessionId: sessionId ?? '',
        content: body.content,
        file: body.file,
        history,
      },
      AbortSignal.any([signal, AbortSignal.timeout(REPLY_TIMEOUT_MS)]),
    );
    if (typeof reply !== 'string' || reply === '') throw new Error('the reply source returned no text');
  } catch (error) {
    if (signal.aborted) throw error;
    console.error(`[emulator] reply source failed: ${error instanceof Error ? error.message : String(error)}`);
    throw new ApiError(500, apiErrors.replyFailed().body, rateLimitHeaders(quota));
  }
  const responseTime = Math.round(performance.now() - started) / 1000;

  ctx.store.recordExchange({
    chatbotId: chatbot.id,
    userId: body.userId,
    userName: body.userName,
    question: {
      id: randomUUID(),
      text: body.content,
      url: body.file,
      tokenCount: ctx.countTokens(body.content),
      createdAt: receivedAt,
    },
    answer: {
      id: randomUUID(),
      text: reply,
      tokenCount: ctx.countTokens(reply),
      responseTime,
      // Always after the question, even on a frozen test clock.
      createdAt: Math.max(ctx.now(), receivedAt + 1),
    },
    newSessionId: randomUUID(),
    sessionGapMs: SESSION_GAP_MS,
  });
  return { status: 200, body: sendEnvelope(reply), headers: rateLimitHeaders({ ...quota, used: usedWithThisSend }) };
}
