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
import { requireEmulatorDependency } from '../dependencies.js';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { MonthlyUsage } from '../../shared/types.js';
import type { ReplyHistoryItem } from '../replies/types.js';
import { monthIndexOf, monthLabel, monthStart } from '../../shared/dates.js';
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

const SCHEMA = `
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;

-- seq (the rowid) is the storage order: it breaks createdAt ties, most recently stored first.
CREATE TABLE IF NOT EXISTS messages (
  seq INTEGER PRIMARY KEY,
  id TEXT NOT NULL,
  chatbot_id TEXT NOT NULL,
  session_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  sender_type TEXT NOT NULL,
  is_user INTEGER NOT NULL,
  text TEXT NOT NULL,
  url TEXT,
  token_count INTEGER NOT NULL,
  response_time REAL,
  created_at INTEGER NOT NULL,
  month INTEGER NOT NULL
);
-- Message ids are unique across chatbots.
CREATE UNIQUE INDEX IF NOT EXISTS messages_by_id ON messages (id);
-- Every index ends, implicitly, in the rowid, so ORDER BY created_at DESC, seq DESC needs no sort.
CREATE INDEX IF NOT EXISTS messages_by_time ON messages (chatbot_id, created_at);
CREATE INDEX IF NOT EXISTS messages_by_sender ON messages (chatbot_id, is_user, created_at);
CREATE INDEX IF NOT EXISTS messages_by_session ON messages (chatbot_id, session_id, created_at);
CREATE INDEX IF NOT EXISTS messages_by_user ON messages (chatbot_id, user_id, created_at);

CREATE TABLE IF NOT EXISTS users (
  chatbot_id TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_message_at INTEGER NOT NULL,
  sent_count INTEGER NOT NULL,      -- messages the user sent
  message_count INTEGER NOT NULL,   -- all messages with this chatUserId (the userId filter's total)
  UNIQUE (chatbot_id, id)
);
CREATE INDEX IF NOT EXISTS users_by_activity ON users (chatbot_id, last_message_at);

CREATE TABLE IF NOT EXISTS sessions (
  chatbot_id TEXT NOT NULL,
  id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  last_message_at INTEGER NOT NULL,
  message_count INTEGER NOT NULL,
  UNIQUE (chatbot_id, id)
);
CREATE INDEX IF NOT EXISTS sessions_by_activity ON sessions (chatbot_id, last_message_at);
CREATE INDEX IF NOT EXISTS sessions_by_user ON sessions (chatbot_id, user_id, last_message_at);

CREATE TABLE IF NOT EXISTS monthly (
  chatbot_id TEXT NOT NULL,
  month INTEGER NOT NULL,
  message_count INTEGER NOT NULL,
  user_message_count INTEGER NOT NULL,
  token_total INTEGER NOT NULL,
  distinct_users INTEGER NOT NULL DEFAULT 0,     -- rows of monthly_users, kept on write
  distinct_sessions INTEGER NOT NULL DEFAULT 0,  -- rows of monthly_sessions, kept on write
  PRIMARY KEY (chatbot_id, month)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS monthly_users (
  chatbot_id TEXT NOT NULL, month INTEGER NOT NULL, user_id TEXT NOT NULL,
  PRIMARY KEY (chatbot_id, month, user_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS monthly_sessions (
  chatbot_id TEXT NOT NULL, month INTEGER NOT NULL, session_id TEXT NOT NULL,
  PRIMARY KEY (chatbot_id, month, session_id)
) WITHOUT ROWID;

-- Users and sessions of each chatbot, so listing totals need no count over the table.
CREATE TABLE IF NOT EXISTS chatbot_totals (
  chatbot_id TEXT PRIMARY KEY, users INTEGER NOT NULL, sessions INTEGER NOT NULL
) WITHOUT ROWID;

CREATE TABLE IF NOT EXISTS quota (
  chatbot_id TEXT NOT NULL, day TEXT NOT NULL, used INTEGER NOT NULL,
  PRIMARY KEY (chatbot_id, day)
) WITHOUT ROWID;
`;

/** Recomputes the kept counts (monthly distincts, chatbot totals) from their tables: after a bulk import. */
const REFRESH_COUNTS = `
UPDATE monthly SET
  distinct_users = (SELECT count(*) FROM monthly_users u WHERE u.chatbot_id = monthly.chatbot_id AND u.month = monthly.month),
  distinct_sessions = (SELECT count(*) FROM monthly_sessions s WHERE s.chatbot_id = monthly.chatbot_id AND s.month = monthly.month);
DELETE FROM chatbot_totals;
INSERT INTO chatbot_totals (chatbot_id, users, sessions)
  SELECT chatbot_id, sum(users), sum(sessions) FROM (
    SELECT chatbot_id, count(*) AS users, 0 AS sessions FROM users GROUP BY chatbot_id
    UNION ALL SELECT chatbot_id, 0, count(*) FROM sessions GROUP BY chatbot_id
  ) GROUP BY chatbot_id;
`;

interface MessageRow {
  id: string;
  chatbot_id: string;
  session_id: string;
  user_id: string;
  sender_type: string;
  text: string;
  url: string | null;
  token_count: number;
  response_time: number | null;
  created_at: number;
}

interface MonthRow {
  month: number;
  message_count: number;
  user_message_count: number;
  token_total: number;
  distinct_users: number;
  distinct_sessions: number;
}

const MESSAGE_COLUMNS = 'id, chatbot_id, session_id, user_id, sender_type, text, url, token_count, response_time, created_at';

function toMessage(row: MessageRow): StoredMessage {
  return {
    id: row.id,
    chatbotId: row.chatbot_id,
    sessionId: row.session_id,
    userId: row.user_id,
    senderType: row.sender_type,
    text: row.text,
    url: row.url,
    tokenCount: row.token_count,
    responseTime: row.response_time,
    createdAt: row.created_at,
  };
}

/** Opens (and creates, with its folder) a SQLite store. `':memory:'` keeps nothing. */
export function openSqliteStore(path: string): EmulatorStore {
  if (path !== ':memory:' && !path.startsWith('file:')) mkdirSync(dirname(path), { recursive: true });
  const SqliteDatabase = requireEmulatorDependency<typeof Database>('better-sqlite3');
  const db = new SqliteDatabase(path);
  if (path !== ':memory:') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -65536');
  db.pragma('temp_store = MEMORY');
  db.exec(SCHEMA);
  const monthlyColumns = db
    .prepare<[], { name: string }>('PRAGMA table_info(monthly)')
    .all()
    .map((c) => c.name);
  if (!monthlyColumns.includes('distinct_users')) {
    // A database of the first schema: add the kept distinct counts and compute them once.
    db.exec('ALTER TABLE monthly ADD COLUMN distinct_users INTEGER NOT NULL DEFAULT 0');
    db.exec('ALTER TABLE monthly ADD COLUMN distinct_sessions INTEGER NOT NULL DEFAULT 0');
    db.exec(REFRESH_COUNTS);
  }
  return new SqliteStore(db);
}

class SqliteStore implements EmulatorStore {
  private readonly statements;

  constructor(private readonly db: Database.Database) {
    const s = <T = unknown>(sql: string) => db.prepare<unknown[], T>(sql);
    this.statements = {
      getSetting: s<{ value: string }>('SELECT value FROM settings WHERE key = ?'),
      setSetting: s('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'),
      quotaUsed: s<{ used: number }>('SELECT used FROM quota WHERE chatbot_id = ? AND day = ?'),
      quotaAdd: s('INSERT INTO quota (chatbot_id, day, used) VALUES (?, ?, 1) ON CONFLICT (chatbot_id, day) DO UPDATE SET used = used + 1'),
      quotaRelease: s('UPDATE quota SET used = used - 1 WHERE chatbot_id = ? AND day = ? AND used > 0'),
      latestSession: s<{ id: string; last_message_at: number }>(
        'SELECT id, last_message_at FROM sessions WHERE chatbot_id = ? AND user_id = ? ORDER BY last_message_at DESC, rowid DESC LIMIT 1',
      ),
      history: s<{ sender_type: string; text: string }>(
        'SELECT sender_type, text FROM messages WHERE chatbot_id = ? AND session_id = ? ORDER BY created_at DESC, seq DESC LIMIT ?',
      ),
      insertMessage: s(
        `INSERT INTO messages (id, chatbot_id, session_id, user_id, sender_type, is_user, text, url, token_count, response_time, created_at, month)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      upsertSession: s(
        `INSERT INTO sessions (chatbot_id, id, user_id, created_at, last_message_at, message_count) VALUES (?, ?, ?, ?, ?, 1)
         ON CONFLICT (chatbot_id, id) DO UPDATE SET
           created_at = min(created_at, excluded.created_at),
           last_message_at = max(last_message_at, excluded.last_message_at),
           message_count = message_count + 1`,
      ),
      upsertUser: s(
        `INSERT INTO users (chatbot_id, id, name, created_at, last_message_at, sent_count, message_count) VALUES (?, ?, ?, ?, ?, ?, 1)
         ON CONFLICT (chatbot_id, id) DO UPDATE SET
           name = excluded.name,
           created_at = min(created_at, excluded.created_at),
           last_message_at = max(last_message_at, excluded.last_message_at),
           sent_count = sent_count + excluded.sent_count,
           message_count = message_count + 1`,
      ),
      upsertMonth: s(
        `INSERT INTO monthly (chatbot_id, month, message_count, user_message_count, token_total) VALUES (?, ?, 1, ?, ?)
         ON CONFLICT (chatbot_id, month) DO UPDATE SET
           message_count = message_count + 1,
           user_message_count = user_message_count + excluded.user_message_count,
           token_total = token_total + excluded.token_total`,
      ),
      addMonthUser: s('INSERT OR IGNORE INTO monthly_users (chatbot_id, month, user_id) VALUES (?, ?, ?)'),
      addMonthSession: s('INSERT OR IGNORE INTO monthly_sessions (chatbot_id, month, session_id) VALUES (?, ?, ?)'),
      getMessage: s<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM messages WHERE chatbot_id = ? AND id = ?`),
      hasMessage: s<{ one: number }>('SELECT 1 AS one FROM messages WHERE id = ?'),
      messagesByRowids: s<MessageRow & { seq: number }>(
        `SELECT seq, ${MESSAGE_COLUMNS} FROM messages WHERE seq IN (SELECT value FROM json_each(?))`,
      ),
      pageAll: s<{ seq: number }>(
        'SELECT seq FROM messages WHERE chatbot_id = ? AND created_at < ? ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?',
      ),
      pageBySession: s<{ seq: number }>(
        'SELECT seq FROM messages WHERE chatbot_id = ? AND session_id = ? ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?',
      ),
      pageByUser: s<{ seq: number }>(
        'SELECT seq FROM messages WHERE chatbot_id = ? AND user_id = ? ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?',
      ),
      pageBySessionAndUser: s<{ seq: number }>(
        `SELECT seq FROM messages WHERE chatbot_id = ? AND session_id = ? AND user_id = ?
         ORDER BY created_at DESC, seq DESC LIMIT ? OFFSET ?`,
      ),
      countBySessionAndUser: s<{ n: number }>('SELECT count(*) AS n FROM messages WHERE chatbot_id = ? AND session_id = ? AND user_id = ?'),
      sessionTotal: s<{ message_count: number }>('SELECT message_count FROM sessions WHERE chatbot_id = ? AND id = ?'),
      userTotal: s<{ message_count: number }>('SELECT message_count FROM users WHERE chatbot_id = ? AND id = ?'),
      months: s<MonthRow>(
        `SELECT month, message_count, user_message_count, token_total, distinct_users, distinct_sessions
         FROM monthly WHERE chatbot_id = ? AND month >= ? AND month <= ? ORDER BY month`,
      ),
      monthsDescending: s<{ month: number; message_count: number }>(
        'SELECT month, message_count FROM monthly WHERE chatbot_id = ? ORDER BY month DESC',
      ),
      addMonthDistinctUser: s('UPDATE monthly SET distinct_users = distinct_users + 1 WHERE chatbot_id = ? AND month = ?'),
      addMonthDistinctSession: s('UPDATE monthly SET distinct_sessions = distinct_sessions + 1 WHERE chatbot_id = ? AND month = ?'),
      hasSession: s<{ one: number }>('SELECT 1 AS one FROM sessions WHERE chatbot_id = ? AND id = ?'),
      hasUser: s<{ one: number }>('SELECT 1 AS one FROM users WHERE chatbot_id = ? AND id = ?'),
      addTotals: s(
        `INSERT INTO chatbot_totals (chatbot_id, users, sessions) VALUES (?, ?, ?)
         ON CONFLICT (chatbot_id) DO UPDATE SET users = users + excluded.users, sessions = sessions + excluded.sessions`,
      ),
      totals: s<{ users: number; sessions: number }>('SELECT users, sessions FROM chatbot_totals WHERE chatbot_id = ?'),
      countRange: s<{ n: number }>('SELECT count(*) AS n FROM messages WHERE chatbot_id = ? AND created_at >= ? AND created_at < ?'),
      countRangeBySender: s<{ n: number }>(
        'SELECT count(*) AS n FROM messages WHERE chatbot_id = ? AND is_user = ? AND created_at >= ? AND created_at < ?',
      ),
      rangeUsage: s<{ messages: number; user_messages: number | null; users: number; sessions: number; tokens: number | null }>(
        `SELECT count(*) AS messages, sum(is_user) AS user_messages,
                count(DISTINCT CASE WHEN is_user = 1 THEN user_id END) AS users,
                count(DISTINCT session_id) AS sessions, sum(token_count) AS tokens
         FROM messages WHERE chatbot_id = ? AND created_at >= ? AND created_at < ?`,
      ),
      pageUsers: s<{ id: string; name: string; created_at: number; last_message_at: number; sent_count: number }>(
        `SELECT id, name, created_at, last_message_at, sent_count FROM users WHERE chatbot_id = ?
         ORDER BY last_message_at DESC, rowid DESC LIMIT ? OFFSET ?`,
      ),
      countUserSessions: s<{ n: number }>('SELECT count(*) AS n FROM sessions WHERE chatbot_id = ? AND user_id = ?'),
      pageSessions: s<SessionRow>(
        `SELECT id, user_id, created_at, last_message_at, message_count FROM sessions WHERE chatbot_id = ?
         ORDER BY last_message_at DESC, rowid DESC LIMIT ? OFFSET ?`,
      ),
      pageUserSessions: s<SessionRow>(
        `SELECT id, user_id, created_at, last_message_at, message_count FROM sessions WHERE chatbot_id = ? AND user_id = ?
         ORDER BY last_message_at DESC, rowid DESC LIMIT ? OFFSET ?`,
      ),
      maxSeq: s<{ seq: number | null }>('SELECT max(seq) AS seq FROM messages'),
    };
  }

  getSetting(key: string): string | undefined {
    return this.statements.getSetting.get(key)?.value;
  }

  setSetting(key: string, value: string): void {
    this.statements.setSetting.run(key, value);
  }

  quotaUsed(chatbotId: string, day: string): number {
    return this.statements.quotaUsed.get(chatbotId, day)?.used ?? 0;
  }

  reserveQuota(chatbotId: string, day: string, limit: number): QuotaReservation {
    return this.db.transaction((): QuotaReservation => {
      const used = this.quotaUsed(chatbotId, day);
      if (used >= limit) return { reserved: false, quotaUsed: used };
      this.statements.quotaAdd.run(chatbotId, day);
      return { reserved: true, quotaUsed: used + 1 };
    })();
  }

  releaseQuota(chatbotId: string, day: string): void {
    this.statements.quotaRelease.run(chatbotId, day);
  }

  latestSession(chatbotId: string, userId: string): { id: string; lastMessageAt: number } | undefined {
    const row = this.statements.latestSession.get(chatbotId, userId);
    return row && { id: row.id, lastMessageAt: row.last_message_at };
  }

  sessionHistory(chatbotId: string, sessionId: string, limit: number): ReplyHistoryItem[] {
    return this.statements.history
      .all(chatbotId, sessionId, limit)
      .reverse()
      .map((row) => ({ senderType: row.sender_type, text: row.text }));
  }

  /** Adds one message to the messages table and to every record and rollup it counts in. */
  private addMessage(message: ImportedMessage & { userName: string }): void {
    const st = this.statements;
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
    return this.db.transaction((): ExchangeOutcome => {
      const { chatbotId, userId, userName, question, answer } = exchange;
      const latest = this.latestSession(chatbotId, userId);
      const sessionId = latest && question.createdAt - latest.lastMessageAt < exchange.sessionGapMs ? latest.id : exchange.newSessionId;
      const common = { chatbotId, sessionId, userId, userName, url: null };
      this.addMessage({ ...common, ...question, senderType: 'User', responseTime: null });
      this.addMessage({ ...common, ...answer, senderType: 'Bot' });
      return { sessionId };
    })();
  }

  getMessage(chatbotId: string, messageId: string): StoredMessage | undefined {
    const row = this.statements.getMessage.get(chatbotId, messageId);
    return row && toMessage(row);
  }

  hasMessage(messageId: string): boolean {
    return this.statements.hasMessage.get(messageId) !== undefined;
  }

  /** Full rows for rowids, in the order given. */
  private rowsInOrder(seqs: { seq: number }[]): StoredMessage[] {
    if (seqs.length === 0) return [];
    const rows = this.statements.messagesByRowids.all(JSON.stringify(seqs.map((r) => r.seq)));
    const bySeq = new Map(rows.map((row) => [row.seq, row]));
    return seqs.map((r) => toMessage(bySeq.get(r.seq)!));
  }

  listMessages(chatbotId: string, filter: { sessionId?: string; userId?: string }, page: PageRequest): Page<StoredMessage> {
    const st = this.statements;
    const { sessionId, userId } = filter;
    if (sessionId !== undefined && userId !== undefined) {
      const total = st.countBySessionAndUser.get(chatbotId, sessionId, userId)!.n;
      const seqs = total > page.offset ? st.pageBySessionAndUser.all(chatbotId, sessionId, userId, page.limit, page.offset) : [];
      return { total, items: this.rowsInOrder(seqs) };
    }
    if (sessionId !== undefined) {
      const total = st.sessionTotal.get(chatbotId, sessionId)?.message_count ?? 0;
      const seqs = total > page.offset ? st.pageBySession.all(chatbotId, sessionId, page.limit, page.offset) : [];
      return { total, items: this.rowsInOrder(seqs) };
    }
    if (userId !== undefined) {
      const total = st.userTotal.get(chatbotId, userId)?.message_count ?? 0;
      const seqs = total > page.offset ? st.pageByUser.all(chatbotId, userId, page.limit, page.offset) : [];
      return { total, items: this.rowsInOrder(seqs) };
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
    return { total, items: this.rowsInOrder(seqs) };
  }

  /** Count of [from, to) through the index; `sent` picks senders as {@link countMessages} does. */
  private countEdge(chatbotId: string, from: number, to: number, sent?: boolean): number {
    if (to <= from) return 0;
    return sent === undefined
      ? this.statements.countRange.get(chatbotId, from, to)!.n
      : this.statements.countRangeBySender.get(chatbotId, sent ? 1 : 0, from, to)!.n;
  }

  countMessages(chatbotId: string, from: number, to: number, sent?: boolean): number {
    if (to <= from) return 0;
    // Whole months inside [from, to) come from the rollup; the partial months at the edges from the index.
    const firstWhole = monthStart(monthIndexOf(from)) === from ? monthIndexOf(from) : monthIndexOf(from) + 1;
    const endWhole = monthIndexOf(to); // months before this one end at or before `to`
    if (firstWhole >= endWhole) return this.countEdge(chatbotId, from, to, sent);
    let total = 0;
    for (const m of this.statements.months.all(chatbotId, firstWhole, endWhole - 1)) {
      total += sent === undefined ? m.message_count : sent ? m.user_message_count : m.message_count - m.user_message_count;
    }
    total += this.countEdge(chatbotId, from, monthStart(firstWhole), sent);
    total += this.countEdge(chatbotId, monthStart(endWhole), to, sent);
    return total;
  }

  countByMonth(chatbotId: string, from: number, to: number): MonthlyUsage[] {
    if (to <= from) return [];
    const first = monthIndexOf(from);
    const last = monthIndexOf(to - 1);
    const st = this.statements;
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
        !row || (rangeStart === start && rangeEnd === end) || this.countEdge(chatbotId, rangeStart, rangeEnd) === row.message_count;
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
    const total = this.statements.totals.get(chatbotId)?.users ?? 0;
    const rows = total > page.offset ? this.statements.pageUsers.all(chatbotId, page.limit, page.offset) : [];
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
    const st = this.statements;
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
    const db = this.db;
    const st = this.statements;
    return db.transaction(() => {
      const before = st.maxSeq.get()!.seq ?? 0;
      // A large import goes faster into a table without its indexes, built once afterwards from
      // sorted data, than through five B-trees a row (the unique id index among them: a duplicate
      // still fails the whole transaction when it is rebuilt).
      const rebuild = sizeHint >= BULK_IMPORT_ROWS ? this.dropMessageIndexes() : [];
      // Names: the last line that gives one wins; a user without any keeps (or gets) their id.
      const names = new Map<string, string>();
      let count = 0;
      for (const m of messages) {
        st.insertMessage.run(
          m.id,
          m.chatbotId,
          m.sessionId,
          m.userId,
          m.senderType,
          m.senderType === 'User' ? 1 : 0,
          m.text,
          m.url,
          m.tokenCount,
          m.responseTime,
          m.createdAt,
          monthIndexOf(m.createdAt),
        );
        if (m.userName !== null) names.set(`${m.chatbotId}\u0000${m.userId}`, m.userName);
        count++;
      }
      for (const sql of rebuild) db.exec(sql);
      if (count === 0) return 0;
      // Records and rollups of the new rows, set-based: one pass each instead of six statements a row.
      db.prepare(
        `INSERT INTO sessions (chatbot_id, id, user_id, created_at, last_message_at, message_count)
         SELECT chatbot_id, session_id, min(user_id), min(created_at), max(created_at), count(*)
         FROM messages WHERE seq > ? GROUP BY chatbot_id, session_id
         ON CONFLICT (chatbot_id, id) DO UPDATE SET
           created_at = min(created_at, excluded.created_at),
           last_message_at = max(last_message_at, excluded.last_message_at),
           message_count = message_count + excluded.message_count`,
      ).run(before);
      db.prepare(
        `INSERT INTO users (chatbot_id, id, name, created_at, last_message_at, sent_count, message_count)
         SELECT chatbot_id, user_id, user_id, min(created_at), max(created_at), sum(is_user), count(*)
         FROM messages WHERE seq > ? GROUP BY chatbot_id, user_id
         ON CONFLICT (chatbot_id, id) DO UPDATE SET
           created_at = min(created_at, excluded.created_at),
           last_message_at = max(last_message_at, excluded.last_message_at),
           sent_count = sent_count + excluded.sent_count,
           message_count = message_count + excluded.message_count`,
      ).run(before);
      const rename = db.prepare('UPDATE users SET name = ? WHERE chatbot_id = ? AND id = ?');
      for (const [key, name] of names) {
        const [chatbotId, userId] = key.split('\u0000') as [string, string];
        rename.run(name, chatbotId, userId);
      }
      db.prepare(
        `INSERT INTO monthly (chatbot_id, month, message_count, user_message_count, token_total)
         SELECT chatbot_id, month, count(*), sum(is_user), sum(token_count)
         FROM messages WHERE seq > ? GROUP BY chatbot_id, month
         ON CONFLICT (chatbot_id, month) DO UPDATE SET
           message_count = message_count + excluded.message_count,
           user_message_count = user_message_count + excluded.user_message_count,
           token_total = token_total + excluded.token_total`,
      ).run(before);
      db.prepare(
        `INSERT OR IGNORE INTO monthly_users (chatbot_id, month, user_id)
         SELECT DISTINCT chatbot_id, month, user_id FROM messages WHERE seq > ? AND is_user = 1`,
      ).run(before);
      db.prepare(
        `INSERT OR IGNORE INTO monthly_sessions (chatbot_id, month, session_id)
         SELECT DISTINCT chatbot_id, month, session_id FROM messages WHERE seq > ?`,
      ).run(before);
      db.exec(REFRESH_COUNTS);
      return count;
    })();
  }

  /** Drops the indexes of the messages table; returns the statements that recreate them. */
  private dropMessageIndexes(): string[] {
    const indexes = this.db
      .prepare<[], { name: string; sql: string }>(
        "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' AND sql IS NOT NULL",
      )
      .all();
    for (const index of indexes) this.db.exec(`DROP INDEX ${index.name}`);
    return indexes.map((index) => index.sql);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** From this many rows on, an import drops and rebuilds the message indexes. */
const BULK_IMPORT_ROWS = 50_000;

interface SessionRow {
  id: string;
  user_id: string;
  created_at: number;
  last_message_at: number;
  message_count: number;
}
