/**
 * The read endpoints (docs/api.md): listings, one message, counts.
 * Reads are free: they never touch the quota.
 */
import type { ChatSession, ChatUser, Message, MonthlyUsage } from '../shared/types.js';
import type { ChatbotConfig } from './config.js';
import type { EmulatorContext, HandlerResult } from './context.js';
import { monthIndexOf, toIso } from '../shared/dates.js';
import { envelope } from './envelope.js';
import { pagedEnvelope } from '../shared/paged-envelope.js';
import { MAX_COUNT_BY_MONTH_MONTHS } from '../shared/limits.js';
import { apiErrors, type FieldErrors } from './errors.js';
import type { StoredMessage } from './store/types.js';
import { decodePathSegment, readBoolean, readDate, readId, readPaging, throwIfInvalid, type Query } from './validation.js';

/** A message as the listing shows it: `url` only when present, `responseTime` null unless Bot. */
function listedMessage(m: StoredMessage): Message {
  const message: Message = {
    id: m.id,
    chatbotId: m.chatbotId,
    chatSessionId: m.sessionId,
    chatUserId: m.userId,
    senderType: m.senderType,
    text: m.text,
    tokenCount: m.tokenCount,
    responseTime: m.senderType === 'Bot' ? m.responseTime : null,
    createdAt: toIso(m.createdAt),
  };
  if (m.url !== null) message.url = m.url;
  return reorder(message);
}

// Keep upstream's field order (url before tokenCount) in the JSON text.
function reorder(m: Message): Message {
  const { id, chatbotId, chatSessionId, chatUserId, senderType, text, url, tokenCount, responseTime, createdAt } = m;
  return url === undefined
    ? { id, chatbotId, chatSessionId, chatUserId, senderType, text, tokenCount, responseTime, createdAt }
    : { id, chatbotId, chatSessionId, chatUserId, senderType, text, url, tokenCount, responseTime, createdAt };
}

/** The single-message output: `responseTime` left out on non-Bot messages (docs/api.md). */
function singleMessage(m: StoredMessage): Message {
  const message = listedMessage(m);
  if (m.senderType !== 'Bot') delete message.responseTime;
  return message;
}

export function listMessages(ctx: EmulatorContext, chatbot: ChatbotConfig, query: Query): HandlerResult {
  const errors: FieldErrors = {};
  const { page, pageSize } = readPaging(query, errors);
  throwIfInvalid(errors);
  const filter: { sessionId?: string; userId?: string } = {};
  const sessionId = readId(query, 'sessionId');
  const userId = readId(query, 'userId');
  if (sessionId !== undefined) filter.sessionId = sessionId;
  if (userId !== undefined) filter.userId = userId;
  const result = ctx.store.listMessages(chatbot.id, filter, { offset: (page - 1) * pageSize, limit: pageSize });
  return { status: 200, body: pagedEnvelope(result.items.map(listedMessage), result.total, pageSize, page) };
}

export function getMessage(ctx: EmulatorContext, chatbot: ChatbotConfig, rawMessageId: string): HandlerResult {
  const messageId = decodePathSegment(rawMessageId);
  const message = messageId === undefined ? undefined : ctx.store.getMessage(chatbot.id, messageId);
  if (!message) throw apiErrors.messageNotFound();
  return { status: 200, body: envelope(singleMessage(message)) };
}

function readRange(query: Query, errors: FieldErrors): { from?: number; to?: number } {
  return { from: readDate(query, 'from', errors), to: readDate(query, 'to', errors) };
}

export function countMessages(ctx: EmulatorContext, chatbot: ChatbotConfig, query: Query): HandlerResult {
  const errors: FieldErrors = {};
  const { from, to } = readRange(query, errors);
  const sent = readBoolean(query, 'sent', errors);
  throwIfInvalid(errors);
  if (to! <= from!) throw apiErrors.rangeOrder(0);
  return { status: 200, body: envelope(ctx.store.countMessages(chatbot.id, from!, to!, sent)) };
}

export function countByMonth(ctx: EmulatorContext, chatbot: ChatbotConfig, query: Query): HandlerResult {
  const errors: FieldErrors = {};
  const { from, to } = readRange(query, errors);
  throwIfInvalid(errors);
  if (to! <= from!) throw apiErrors.rangeOrder(null);
  if (monthIndexOf(to! - 1) - monthIndexOf(from!) + 1 > MAX_COUNT_BY_MONTH_MONTHS) {
    throw apiErrors.validation({ to: [`The range may span at most ${MAX_COUNT_BY_MONTH_MONTHS} months.`] });
  }
  const buckets: MonthlyUsage[] = ctx.store.countByMonth(chatbot.id, from!, to!);
  return { status: 200, body: envelope(buckets) };
}

export function listUsers(ctx: EmulatorContext, chatbot: ChatbotConfig, query: Query): HandlerResult {
  const errors: FieldErrors = {};
  const { page, pageSize } = readPaging(query, errors);
  throwIfInvalid(errors);
  const result = ctx.store.listUsers(chatbot.id, { offset: (page - 1) * pageSize, limit: pageSize });
  const users: ChatUser[] = result.items.map((u) => ({
    id: u.id,
    name: u.name,
    createdAt: toIso(u.createdAt),
    lastMessageAt: toIso(u.lastMessageAt),
    messageCount: u.messageCount,
  }));
  return { status: 200, body: pagedEnvelope(users, result.total, pageSize, page) };
}

export function listSessions(ctx: EmulatorContext, chatbot: ChatbotConfig, query: Query): HandlerResult {
  const errors: FieldErrors = {};
  const { page, pageSize } = readPaging(query, errors);
  throwIfInvalid(errors);
  const userId = readId(query, 'userId');
  const result = ctx.store.listSessions(chatbot.id, userId === undefined ? {} : { userId }, {
    offset: (page - 1) * pageSize,
    limit: pageSize,
  });
  const sessions: ChatSession[] = result.items.map((s) => ({
    id: s.id,
    chatUserId: s.userId,
    createdAt: toIso(s.createdAt),
    lastMessageAt: toIso(s.lastMessageAt),
    messageCount: s.messageCount,
  }));
  return { status: 200, body: pagedEnvelope(sessions, result.total, pageSize, page) };
}
