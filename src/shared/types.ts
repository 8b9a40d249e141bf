/**
 * Records and envelopes of the upstream Developer API (docs/api.md), and of the handler's ratings.
 * Isomorphic: no DOM and no Node APIs, imports nothing else of src/.
 */
import type { FEEDBACK_VALUES } from './limits.js';

/** `senderType` values upstream documents; other values may exist upstream. */
export type SenderType = 'User' | 'Bot' | (string & {});

/** A stored message (docs/api.md). */
export interface Message {
  id: string;
  chatbotId: string;
  chatSessionId: string;
  chatUserId: string;
  senderType: SenderType;
  text: string;
  /** Media URL; left out when the message has none. */
  url?: string;
  tokenCount: number;
  /** AI response time in seconds; null on non-Bot messages in lists, may be absent on a single message. */
  responseTime?: number | null;
  /** ISO 8601 UTC. */
  createdAt: string;
}

/** One month of usage (docs/api.md). */
export interface MonthlyUsage {
  /** `YYYY-MM`, UTC calendar month. */
  month: string;
  messageCount: number;
  userMessageCount: number;
  distinctUsers: number;
  distinctSessions: number;
  tokenTotal: number;
}

/** A user of a chatbot. */
export interface ChatUser {
  id: string;
  name: string;
  createdAt: string;
  lastMessageAt: string;
  /** Messages the user sent. */
  messageCount: number;
}

/** A session of a chatbot. */
export interface ChatSession {
  id: string;
  chatUserId: string;
  createdAt: string;
  lastMessageAt: string;
  /** All messages of the session, any sender. */
  messageCount: number;
}

/** The body of a send (docs/api.md). */
export interface SendMessageInput {
  user: { id: string; name: string };
  message: { content: string; file?: string | null };
}

/** Pagination metadata (docs/api.md). */
export interface Pagination {
  totalItems: number;
  pageSize: number;
  currentPage: number;
  totalPages: number;
}

/** The response envelope (docs/api.md). */
export interface Envelope<T> {
  data: T;
  error: string | null;
}

/** Envelope of paginated listings and of the send response (whose pagination fields are 0). */
export type PagedEnvelope<T> = Envelope<T> & Pagination;

/** The 400 validation body (docs/api.md): not an envelope. */
export interface ValidationProblem {
  type: string;
  title: string;
  status: 400;
  /** Field path (`user.name`, `pageSize`, …) to messages. */
  errors: Record<string, string[]>;
  traceId: string;
}

/** Rate-limit figures from the `X-RateLimit-*` headers (docs/api.md). */
export interface RateLimit {
  limit: number;
  remaining: number;
  /** Unix seconds at which the quota resets. */
  reset: number;
}

/** Response types of each endpoint, by name. */
export type SendMessageResponse = PagedEnvelope<string>;
export type MessageListResponse = PagedEnvelope<Message[]>;
export type MessageResponse = Envelope<Message>;
export type CountResponse = Envelope<number>;
export type CountByMonthResponse = Envelope<MonthlyUsage[] | null>;
export type UserListResponse = PagedEnvelope<ChatUser[]>;
export type SessionListResponse = PagedEnvelope<ChatSession[]>;

/** Query of the messages listing (docs/api.md). */
export interface ListMessagesQuery {
  sessionId?: string;
  userId?: string;
  page?: number;
  pageSize?: number;
}

/** Paging of the users listing. */
export interface ListUsersQuery {
  page?: number;
  pageSize?: number;
}

/** Query of the sessions listing. */
export interface ListSessionsQuery extends ListUsersQuery {
  userId?: string;
}

/** A date range: ISO 8601 text or a Date; `from` inclusive, `to` exclusive. */
export interface DateRange {
  from: string | Date;
  to: string | Date;
}

/** Query of the count endpoint (docs/api.md). */
export interface CountQuery extends DateRange {
  /** true: only user-sent; false: only non-user; absent: all senders. */
  sent?: boolean;
}

/** A visitor's rating of a bot message. */
export type FeedbackValue = (typeof FEEDBACK_VALUES)[number];

/** A rating as the handler's admin listing shows it (`GET {base}/admin/feedback`). */
export interface FeedbackItem {
  messageId: string;
  value: FeedbackValue;
  /** The visitor's words, or null when they gave none. */
  comment: string | null;
  chatUserId: string;
  chatSessionId: string;
  /** When the rating was given (its latest change), ISO 8601 UTC. */
  createdAt: string;
}

/** Ratings of one month (`GET {base}/admin/feedback/count-by-month`). */
export interface FeedbackMonth {
  /** `YYYY-MM`, UTC calendar month. */
  month: string;
  up: number;
  down: number;
}

export type FeedbackListResponse = PagedEnvelope<FeedbackItem[]>;
export type FeedbackCountByMonthResponse = Envelope<FeedbackMonth[] | null>;
