/**
 * The emulator's store on SQLite (better-sqlite3): synchronous, so each method runs to its end
 * before any other request's JavaScript does, and every write that must be atomic is one
 * transaction.
 *
 * Reads never scan the messages table per request for monthly figures: a per-chatbot per-month
 * rollup (counts, tokens) and per-month distinct user and session tables are kept on write, and a
 * range with partial months at its edges is rollup for the whole months plus an index range count
 * for the edges. Listings walk the time indexes (rowid breaks ties, newest stored first); deep
 * pages skip whole months through the rollup before the index takes over.
 */
import type Database from 'better-sqlite3';
import type { MonthlyUsage } from '../../shared/types.js';
import type { ReplyHistoryItem } from '../replies/types.js';
import { monthIndexOf, monthLabel, monthStart } from '../../shared/dates.js';
import { openDatabase } from './sqlite-schema.js';
import { prepareStatements, toMessage, type SessionRow, type Statements } from './sqlite-statements.js';
import { importMessages } from './sqlite-import.js';
import type {
  EmulatorStore,
  Exchange,
  ExchangeOutcome,
  QuotaReservation,
  ImportedMessage,
  Page,
  PageRequest,
  StoredMessage,
  StoredSession,
  StoredUser,
} from './types.js';

/** Opens (and creates, with its folder) a SQLite store. `':memory:'` keeps nothing. */
export function openSqliteStore(path: string): EmulatorStore {
  return new SqliteStore(openDatabase(path));
}

class SqliteStore implements EmulatorStore {
  readonly #statements: Statements;

  readonly #db: Database.Database;
  constructor(db: Database.Database) {
    this.#db = db;
    this.#statements = prepareStatements(db);
  }

  getSetting(key: string): string | undefined {
    return this.#statements.getSetting.get(key)?.value;
  }

  setSetting(key: string, value: string): void {
    this.#statements.setSetting.run(key, value);
  }

  quotaUsed(chatbotId: string, day: string): number {
    return this.#statements.quotaUsed.get(chatbotId, day)?.used ?? 0;
  }

  reserveQuota(chatbotId: string, day: string, limit: number): QuotaReservation {
    return this.#db.transaction((): QuotaReservation => {
      const used = this.quotaUsed(chatbotId, day);
      if (used >= limit) return { reserved: false, quotaUsed: used };
      this.#statements.quotaAdd.run(chatbotId, day);
      return { reserved: true, quotaUsed: used + 1 };
    })();
  }

  releaseQuota(chatbotId: string, day: string): void {
    this.#statements.quotaRelease.run(chatbotId, day);
  }

  latestSession(chatbotId: string, userId: string): { id: string; lastMessageAt: number } | undefined {
    const row = this.#statements.latestSession.get(chatbotId, userId);
    return row && { id: row.id, lastMessageAt: row.last_message_at };
  }

  sessionHistory(chatbotId: string, sessionId: string, limit: number): ReplyHistoryItem[] {
    return this.#statements.history
      .all(chatbotId, sessionId, limit)
      .reverse()
      .map((row) => ({ senderType: row.sender_type, text: row.text }));
  }

  /** Adds one message to the messages table and to every record and rollup it counts in. */
  #addMessage(message: ImportedMessage & { userName: string }): void {
    const st = this.#statements;
    const isUser = message.senderType === 'User' ? 1 : 0;
    const month = monthIndexOf(message.createdAt);
    st.insertMessage.run(
      message.id,
      message.chatbotId,
      message.sessionId,
      message.userId,
      message.senderType,
      isUser,
      message.text,
      message.url,
      message.tokenCount,
      message.responseTime,
      message.createdAt,
      month,
    );
    const newSession = st.hasSession.get(message.chatbotId, message.sessionId) === undefined;
    const newUser = st.hasUser.get(message.chatbotId, message.userId) === undefined;
    st.upsertSession.run(message.chatbotId, message.sessionId, message.userId, message.createdAt, message.createdAt);
    st.upsertUser.run(message.chatbotId, message.userId, message.userName, message.createdAt, message.createdAt, isUser);
    if (newSession || newUser) st.addTotals.run(message.chatbotId, newUser ? 1 : 0, newSession ? 1 : 0);
    st.upsertMonth.run(message.chatbotId, month, isUser, message.tokenCount);
    if (isUser && st.addMonthUser.run(message.chatbotId, month, message.userId).changes > 0) {
      st.addMonthDistinctUser.run(message.chatbotId, month);
    }
    if (st.addMonthSession.run(message.chatbotId, month, message.sessionId).changes > 0) {
      st.addMonthDistinctSession.run(message.chatbotId, month);
    }
  }

  recordExchange(exchange: Exchange): ExchangeOutcome {
    return this.#db.transaction((): ExchangeOutcome => {
      const { chatbotId, userId, userName, question, answer } = exchange;
      const latest = this.latestSession(chatbotId, userId);
      const sessionId = latest && question.createdAt - latest.lastMessageAt < exchange.sessionGapMs ? latest.id : exchange.newSessionId;
      const common = { chatbotId, sessionId, userId, userName, url: null };
      this.#addMessage({ ...common, ...question, senderType: 'User', responseTime: null });
      this.#addMessage({ ...common, ...answer, senderType: 'Bot' });
      return { sessionId };
    })();
  }

  getMessage(chatbotId: string, messageId: string): StoredMessage | undefined {
    const row = this.#statements.getMessage.get(chatbotId, messageId);
    return row && toMessage(row);
  }

  hasMessage(messageId: string): boolean {
    return this.#statements.hasMessage.get(messageId) !== undefined;
  }

  /** Full rows for rowids, in the order given. */
  #rowsInOrder(seqs: { seq: number }[]): StoredMessage[] {
    if (seqs.length === 0) return [];
    const rows = this.#statements.messagesByRowids.all(JSON.stringify(seqs.map((r) => r.seq)));
    const bySeq = new Map(rows.map((row) => [row.seq, row]));
    return seqs.map((r) => toMessage(bySeq.get(r.seq)!));
  }

  listMessages(chatbotId: string, filter: { sessionId?: string; userId?: string }, page: PageRequest): Page<StoredMessage> {
    const st = this.#statements;
    const { sessionId, userId } = filter;
    if (sessionId !== undefined && userId !== undefined) {
      const total = st.countBySessionAndUser.get(chatbotId, sessionId, userId)!.n;
      const seqs = total > page.offset ? st.pageBySessionAndUser.all(chatbotId, sessionId, userId, page.limit, page.offset) : [];
      return { total, items: this.#rowsInOrder(seqs) };
    }
    if (sessionId !== undefined) {
      const total = st.sessionTotal.get(chatbotId, sessionId)?.message_count ?? 0;
      const seqs = total > page.offset ? st.pageBySession.all(chatbotId, sessionId, page.limit, page.offset) : [];
      return { total, items: this.#rowsInOrder(seqs) };
    }
    if (userId !== undefined) {
      const total = st.userTotal.get(chatbotId, userId)?.message_count ?? 0;
      const seqs = total > page.offset ? st.pageByUser.all(chatbotId, userId, page.limit, page.offset) : [];
      return { total, items: this.#rowsInOrder(seqs) };
    }
    // Whole listing: the months newer than the one the page starts in are skipped through the
    // rollup, so page 5,000 walks at most one month of the index, not 500,000 entries.
    const months = st.monthsDescending.all(chatbotId);
    const total = months.reduce((sum, m) => sum + m.message_count, 0);
    if (total <= page.offset) return { total, items: [] };
    let skipped = 0;
    let before = Number.MAX_SAFE_INTEGER;
    for (const m of months) {
      if (skipped + m.message_count > page.offset) break;
      skipped += m.message_count;
      before = monthStart(m.month);
    }
    const seqs = st.pageAll.all(chatbotId, before, page.limit, page.offset - skipped);
    return { total, items: this.#rowsInOrder(seqs) };
  }

  /** Count of [from, to) through the index; `sent` picks senders as {@link countMessages} does. */
  #countEdge(chatbotId: string, from: number, to: number, sent?: boolean): number {
    if (to <= from) return 0;
    return sent === undefined
      ? this.#statements.countRange.get(chatbotId, from, to)!.n
      : this.#statements.countRangeBySender.get(chatbotId, sent ? 1 : 0, from, to)!.n;
  }

  countMessages(chatbotId: string, from: number, to: number, sent?: boolean): number {
    if (to <= from) return 0;
    // Whole months inside [from, to) come from the rollup; the partial months at the edges from the index.
    const firstWhole = monthStart(monthIndexOf(from)) === from ? monthIndexOf(from) : monthIndexOf(from) + 1;
    const endWhole = monthIndexOf(to); // months before this one end at or before `to`
    if (firstWhole >= endWhole) return this.#countEdge(chatbotId, from, to, sent);
    let total = 0;
    for (const m of this.#statements.months.all(chatbotId, firstWhole, endWhole - 1)) {
      total += sent === undefined ? m.message_count : sent ? m.user_message_count : m.message_count - m.user_message_count;
    }
    total += this.#countEdge(chatbotId, from, monthStart(firstWhole), sent);
    total += this.#countEdge(chatbotId, monthStart(endWhole), to, sent);
    return total;
  }

  countByMonth(chatbotId: string, from: number, to: number): MonthlyUsage[] {
    if (to <= from) return [];
    const first = monthIndexOf(from);
    const last = monthIndexOf(to - 1);
    const st = this.#statements;
    const rollup = new Map(st.months.all(chatbotId, first, last).map((m) => [m.month, m]));
    const buckets: MonthlyUsage[] = [];
    for (let month = first; month <= last; month++) {
      const start = monthStart(month);
      const end = monthStart(month + 1);
      const row = rollup.get(month);
      const rangeStart = Math.max(from, start);
      const rangeEnd = Math.min(to, end);
      // A partial month whose messages all lie inside the range is as good as whole (the usual
      // "until now" range); only otherwise are its figures computed from the messages themselves.
      const whole =
        !row || (rangeStart === start && rangeEnd === end) || this.#countEdge(chatbotId, rangeStart, rangeEnd) === row.message_count;
      if (whole) {
        buckets.push({
          month: monthLabel(month),
          messageCount: row?.message_count ?? 0,
          userMessageCount: row?.user_message_count ?? 0,
          distinctUsers: row?.distinct_users ?? 0,
          distinctSessions: row?.distinct_sessions ?? 0,
          tokenTotal: row?.token_total ?? 0,
        });
      } else {
        const usage = st.rangeUsage.get(chatbotId, rangeStart, rangeEnd)!;
        buckets.push({
          month: monthLabel(month),
          messageCount: usage.messages,
          userMessageCount: usage.user_messages ?? 0,
          distinctUsers: usage.users,
          distinctSessions: usage.sessions,
          tokenTotal: usage.tokens ?? 0,
        });
      }
    }
    return buckets;
  }

  listUsers(chatbotId: string, page: PageRequest): Page<StoredUser> {
    const total = this.#statements.totals.get(chatbotId)?.users ?? 0;
    const rows = total > page.offset ? this.#statements.pageUsers.all(chatbotId, page.limit, page.offset) : [];
    return {
      total,
      items: rows.map((r) => ({
        id: r.id,
        name: r.name,
        createdAt: r.created_at,
        lastMessageAt: r.last_message_at,
        messageCount: r.sent_count,
      })),
    };
  }

  listSessions(chatbotId: string, filter: { userId?: string }, page: PageRequest): Page<StoredSession> {
    const st = this.#statements;
    const total =
      filter.userId === undefined ? (st.totals.get(chatbotId)?.sessions ?? 0) : st.countUserSessions.get(chatbotId, filter.userId)!.n;
    let rows: SessionRow[] = [];
    if (total > page.offset) {
      rows =
        filter.userId === undefined
          ? st.pageSessions.all(chatbotId, page.limit, page.offset)
          : st.pageUserSessions.all(chatbotId, filter.userId, page.limit, page.offset);
    }
    return {
      total,
      items: rows.map((r) => ({
        id: r.id,
        userId: r.user_id,
        createdAt: r.created_at,
        lastMessageAt: r.last_message_at,
        messageCount: r.message_count,
      })),
    };
  }
  importMessages(messages: Iterable<ImportedMessage>, sizeHint = 0): number {
    return importMessages(this.#db, this.#statements, messages, sizeHint);
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}
