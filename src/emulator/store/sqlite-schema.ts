/**
 * The emulator's SQLite schema, and opening a database with it: created with its folder, or
 * brought up to date when it was made by the first schema.
 */
import type Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { requireEmulatorDependency } from '../dependencies.js';

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
export const REFRESH_COUNTS = `
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

/** Opens (and creates, with its folder) a SQLite database with the emulator's schema. `':memory:'` keeps nothing. */
export function openDatabase(path: string): Database.Database {
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
  return db;
}
