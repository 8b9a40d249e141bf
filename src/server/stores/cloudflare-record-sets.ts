/**
 * The record sets of the Durable Object store, in its SQLite storage: one row per record, with
 * indexes in listing order (score descending, then id descending) for the whole set and per tag,
 * so a page reads only its rows and a count reads only its index range. Synchronous SQL, no
 * `await` between read and write: each method is atomic within the object.
 */
import type { RecordRange, SetRecord } from './store.js';

/** The part of `ctx.storage.sql` (a SQLite-backed Durable Object's SQL API) the object uses. */
export interface SqlStorageLike {
  exec(query: string, ...bindings: unknown[]): { toArray(): Record<string, unknown>[] };
}

interface RecordRow {
  id: string;
  score: number;
  tag: string | null;
  value: string;
}

const COLUMNS = 'id, score, tag, value';

function recordOf(row: RecordRow): SetRecord {
  return row.tag === null
    ? { id: row.id, score: row.score, value: row.value }
    : { id: row.id, score: row.score, tag: row.tag, value: row.value };
}

/** The WHERE clause and its bindings of a range of `set`. */
function whereOf(set: string, range: RecordRange): [string, unknown[]] {
  const clauses = ['set_name = ?'];
  const bindings: unknown[] = [set];
  const add = (clause: string, binding: unknown) => {
    clauses.push(clause);
    bindings.push(binding);
  };
  if (range.tag !== undefined) add('tag = ?', range.tag);
  if (range.min !== undefined) add('score >= ?', range.min);
  if (range.max !== undefined) add('score < ?', range.max);
  return [clauses.join(' AND '), bindings];
}

export class SqlRecordSets {
  readonly #sql: SqlStorageLike;
  constructor(sql: SqlStorageLike) {
    this.#sql = sql;
    sql.exec(
      'CREATE TABLE IF NOT EXISTS chatbot_records (set_name TEXT NOT NULL, id TEXT NOT NULL, score REAL NOT NULL, tag TEXT, ' +
        'value TEXT NOT NULL, expires_at INTEGER NOT NULL, PRIMARY KEY (set_name, id))',
    );
    sql.exec('CREATE INDEX IF NOT EXISTS chatbot_records_order ON chatbot_records (set_name, score DESC, id DESC)');
    sql.exec('CREATE INDEX IF NOT EXISTS chatbot_records_tag ON chatbot_records (set_name, tag, score DESC, id DESC)');
    sql.exec('CREATE INDEX IF NOT EXISTS chatbot_records_expiry ON chatbot_records (expires_at)');
  }

  put(set: string, record: SetRecord, expiresAt: number): SetRecord | undefined {
    const replaced = this.#find(set, record.id);
    this.#sql.exec(
      'INSERT OR REPLACE INTO chatbot_records (set_name, id, score, tag, value, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
      set,
      record.id,
      record.score,
      record.tag ?? null,
      record.value,
      expiresAt,
    );
    return replaced;
  }

  delete(set: string, id: string): SetRecord | undefined {
    const deleted = this.#find(set, id);
    if (deleted) this.#sql.exec('DELETE FROM chatbot_records WHERE set_name = ? AND id = ?', set, id);
    return deleted;
  }

  list(set: string, range: RecordRange & { offset: number; limit: number }): SetRecord[] {
    const [where, bindings] = whereOf(set, range);
    const query = `SELECT ${COLUMNS} FROM chatbot_records WHERE ${where} ORDER BY score DESC, id DESC LIMIT ? OFFSET ?`;
    return (this.#sql.exec(query, ...bindings, range.limit, range.offset).toArray() as unknown as RecordRow[]).map(recordOf);
  }

  count(set: string, range: RecordRange): number {
    const [where, bindings] = whereOf(set, range);
    return Number(this.#sql.exec(`SELECT COUNT(*) AS n FROM chatbot_records WHERE ${where}`, ...bindings).toArray()[0]!.n);
  }

  /** Deletes the records past their expiry; answers the earliest expiry left (null: none). */
  sweep(now: number): number | null {
    this.#sql.exec('DELETE FROM chatbot_records WHERE expires_at <= ?', now);
    return this.#sql.exec('SELECT MIN(expires_at) AS next FROM chatbot_records').toArray()[0]!.next as number | null;
  }

  #find(set: string, id: string): SetRecord | undefined {
    const row = this.#sql.exec(`SELECT ${COLUMNS} FROM chatbot_records WHERE set_name = ? AND id = ?`, set, id).toArray()[0];
    return row ? recordOf(row as unknown as RecordRow) : undefined;
  }
}
