/**
 * Every statement the SQLite store runs per request, prepared once per database, and the rows
 * they read.
 */
import type Database from 'better-sqlite3';
import type { StoredMessage } from './types.js';

export interface MessageRow {
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

export interface MonthRow {
  month: number;
  message_count: number;
  user_message_count: number;
  token_total: number;
  distinct_users: number;
  distinct_sessions: number;
}

export const MESSAGE_COLUMNS = 'id, chatbot_id, session_id, user_id, sender_type, text, url, token_count, response_time, created_at';

export function toMessage(row: MessageRow): StoredMessage {
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

export interface SessionRow {
  id: string;
  user_id: string;
  created_at: number;
  last_message_at: number;
  message_count: number;
}

/**
 * A prepared statement whose rows are `T`. Its own name, so that the type of the statements below
 * can be written out in declarations (better-sqlite3's own `Statement` cannot be named from here).
 */
export interface PreparedStatement<T> extends Database.Statement<unknown[], T> {}

/** Prepares the store's statements on `db`. */
export function prepareStatements(db: Database.Database) {
  const s = <T = unknown>(sql: string): PreparedStatement<T> => db.prepare<unknown[], T>(sql);
  return {
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

export type Statements = ReturnType<typeof prepareStatements>;
