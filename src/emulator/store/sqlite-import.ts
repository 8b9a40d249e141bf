/**
 * Importing messages in bulk (`--seed`, `--demo-data`): rows inserted in one transaction, then the
 * records and rollups of the new rows computed set-based, one pass each.
 */
import type Database from 'better-sqlite3';
import { monthIndexOf } from '../../shared/dates.js';
import { REFRESH_COUNTS } from './sqlite-schema.js';
import type { Statements } from './sqlite-statements.js';
import type { ImportedMessage } from './types.js';

/** From this many rows on, an import drops and rebuilds the message indexes. */
const BULK_IMPORT_ROWS = 50_000;

/** Imports `messages` in one transaction and answers how many; `sizeHint` is how many are expected. */
export function importMessages(
  db: Database.Database,
  statements: Statements,
  messages: Iterable<ImportedMessage>,
  sizeHint: number,
): number {
  return db.transaction(() => {
    const before = statements.maxSeq.get()!.seq ?? 0;
    // A large import goes faster into a table without its indexes, built once afterwards from
    // sorted data, than through five B-trees a row (the unique id index among them: a duplicate
    // still fails the whole transaction when it is rebuilt).
    const rebuild = sizeHint >= BULK_IMPORT_ROWS ? dropMessageIndexes(db) : [];
    // Names: the last line that gives one wins; a user without any keeps (or gets) their id.
    const names = new Map<string, string>();
    let count = 0;
    for (const m of messages) {
      statements.insertMessage.run(
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
function dropMessageIndexes(db: Database.Database): string[] {
  const indexes = db
    .prepare<[], { name: string; sql: string }>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'messages' AND sql IS NOT NULL",
    )
    .all();
  for (const index of indexes) db.exec(`DROP INDEX ${index.name}`);
  return indexes.map((index) => index.sql);
}
