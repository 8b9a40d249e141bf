/**
 * The emulator's storage interface. The request pipeline speaks only to this; SQLite
 * (`sqlite.ts`) is the implementation, and another one (in memory, Postgres, …) would plug in
 * behind the same methods. Times are UTC milliseconds since the epoch throughout.
 */
import type { MonthlyUsage } from '../../shared/types.js';
import type { ReplyHistoryItem } from '../replies/types.js';

/** A message as stored. */
export interface StoredMessage {
  id: string;
  chatbotId: string;
  sessionId: string;
  userId: string;
  senderType: string;
  text: string;
  url: string | null;
  tokenCount: number;
  /** Seconds; null when not measured (every non-Bot message). */
  responseTime: number | null;
  createdAt: number;
}

/** A user of a chatbot, as the `/users` listing shows it. */
export interface StoredUser {
  id: string;
  name: string;
  createdAt: number;
  lastMessageAt: number;
  /** Messages the user sent. */
  messageCount: number;
}

/** A session, as the `/sessions` listing shows it. */
export interface StoredSession {
  id: string;
  userId: string;
  createdAt: number;
  lastMessageAt: number;
  /** All messages of the session, any sender. */
  messageCount: number;
}

/** One page of a listing: the items and the total the pagination fields are computed from. */
export interface Page<T> {
  total: number;
  items: T[];
}

export interface PageRequest {
  offset: number;
  limit: number;
}

/** A question and its reply, stored together by {@link EmulatorStore.recordExchange}. */
export interface Exchange {
  chatbotId: string;
  userId: string;
  userName: string;
  /** The user's message; its `createdAt` is when the send arrived. */
  question: { id: string; text: string; url: string | null; tokenCount: number; createdAt: number };
  /** The bot's reply; its `createdAt` is later than the question's. */
  answer: { id: string; text: string; tokenCount: number; responseTime: number; createdAt: number };
  /** Id for a new session, used when the user's latest session is idle for `sessionGapMs` or longer. */
  newSessionId: string;
  sessionGapMs: number;
}

/** Where {@link EmulatorStore.recordExchange} stored a send. */
export interface ExchangeOutcome {
  sessionId: string;
}

/** What {@link EmulatorStore.reserveQuota} did: a slot taken (or not), and the day's use after it. */
export interface QuotaReservation {
  reserved: boolean;
  quotaUsed: number;
}

/** A message to import (seed file, demo data): the seed shape, already validated. */
export interface ImportedMessage extends StoredMessage {
  /** The user's display name, when the seed line gives one. */
  userName: string | null;
}

export interface EmulatorStore {
  /** Accepted sends of a chatbot on a UTC day (`YYYY-MM-DD`). */
  quotaUsed(chatbotId: string, day: string): number;
  /** The user's most recently active session, if any. */
  latestSession(chatbotId: string, userId: string): { id: string; lastMessageAt: number } | undefined;
  /** The last `limit` messages of a session, oldest first, for reply sources that use context. */
  sessionHistory(chatbotId: string, sessionId: string, limit: number): ReplyHistoryItem[];
  /**
   * Takes one slot of a chatbot's daily quota, atomically (check and increment in one
   * transaction): concurrent sends can never overrun it. A send reserves before it asks the reply
   * source, so a send refused over quota never costs a reply.
   */
  reserveQuota(chatbotId: string, day: string, limit: number): QuotaReservation;
  /** Gives back a slot reserved by a send that stored nothing (its reply failed or the caller left). */
  releaseQuota(chatbotId: string, day: string): void;
  /**
   * Stores a send in one transaction: session choice (the 30-minute rule), both messages, the user
   * and session records and the monthly rollups. Its quota slot was reserved before.
   */
  recordExchange(exchange: Exchange): ExchangeOutcome;

  listMessages(chatbotId: string, filter: { sessionId?: string; userId?: string }, page: PageRequest): Page<StoredMessage>;
  getMessage(chatbotId: string, messageId: string): StoredMessage | undefined;
  /** Messages in [from, to); `sent` true: senderType User only, false: all others, undefined: all. */
  countMessages(chatbotId: string, from: number, to: number, sent?: boolean): number;
  /** One bucket per UTC month that meets [from, to), ascending, each counting only messages inside the range. */
  countByMonth(chatbotId: string, from: number, to: number): MonthlyUsage[];
  listUsers(chatbotId: string, page: PageRequest): Page<StoredUser>;
  listSessions(chatbotId: string, filter: { userId?: string }, page: PageRequest): Page<StoredSession>;

  /** Whether a message id is taken (ids are unique across chatbots). */
  hasMessage(messageId: string): boolean;
  /**
   * Adds messages in one transaction, with their users, sessions and rollups; all or nothing.
   * `sizeHint` (how many are coming, when known) lets a store pick a bulk strategy.
   */
  importMessages(messages: Iterable<ImportedMessage>, sizeHint?: number): number;

  /** Small key-value settings kept with the data (the demo chatbot's credentials). */
  getSetting(key: string): string | undefined;
  setSetting(key: string, value: string): void;
  close(): void;
}
