/**
 * Seed import: JSON Lines, one message a line. The whole file is checked before
 * anything is stored; the first bad line (not JSON, a missing or mistyped field, an unknown
 * chatbotId, a duplicate id) refuses the file with its line number. A valid file is added to what
 * the database holds, in one transaction.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { parseIsoDate } from '../shared/dates.js';
import type { EmulatorStore, ImportedMessage } from './store/types.js';

/** A seed file (or record) that cannot be imported; `line` is 1-based. */
export class SeedError extends Error {
  override name = 'SeedError';
  readonly line?: number;
  constructor(message: string, line?: number) {
    super(message);
    this.line = line;
  }
}

const REQUIRED = ['chatbotId', 'chatSessionId', 'chatUserId', 'senderType', 'text', 'createdAt'] as const;

/**
 * Checks one seed record and returns it in the store's shape, or the reason it is refused.
 * `knownChatbots` are the ids the emulator serves. `id` is left undefined when the record has none.
 */
export function checkSeedRecord(
  record: unknown,
  knownChatbots: ReadonlySet<string>,
  countTokens: (text: string) => number,
): { message: Omit<ImportedMessage, 'id'> & { id: string | undefined } } | { error: string } {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return { error: 'expected a JSON object' };
  const r = record as Record<string, unknown>;
  for (const field of REQUIRED) {
    if (r[field] === undefined || r[field] === null) return { error: `missing required field "${field}"` };
    if (typeof r[field] !== 'string') return { error: `"${field}" must be a string` };
    if (field !== 'text' && r[field] === '') return { error: `"${field}" must not be empty` };
  }
  const createdAt = parseIsoDate(r.createdAt as string);
  if (createdAt === undefined) return { error: `"createdAt" is not an ISO 8601 date: ${JSON.stringify(r.createdAt)}` };
  if (!knownChatbots.has(r.chatbotId as string)) {
    return { error: `unknown chatbotId ${JSON.stringify(r.chatbotId)} (configured: ${[...knownChatbots].join(', ')})` };
  }
  for (const field of ['id', 'userName', 'url'] as const) {
    if (r[field] !== undefined && r[field] !== null && (typeof r[field] !== 'string' || r[field] === '')) {
      return { error: `"${field}" must be a non-empty string when given` };
    }
  }
  if (r.tokenCount !== undefined && r.tokenCount !== null && !(Number.isSafeInteger(r.tokenCount) && (r.tokenCount as number) >= 0)) {
    return { error: '"tokenCount" must be a whole number of at least 0 when given' };
  }
  if (
    r.responseTime !== undefined &&
    r.responseTime !== null &&
    !(typeof r.responseTime === 'number' && Number.isFinite(r.responseTime) && r.responseTime >= 0)
  ) {
    return { error: '"responseTime" must be a number of seconds, at least 0, or null' };
  }
  const text = r.text as string;
  return {
    message: {
      id: (r.id as string | undefined) ?? undefined,
      chatbotId: r.chatbotId as string,
      sessionId: r.chatSessionId as string,
      userId: r.chatUserId as string,
      userName: (r.userName as string | undefined) ?? null,
      senderType: r.senderType as string,
      text,
      url: (r.url as string | undefined) ?? null,
      tokenCount: (r.tokenCount as number | undefined) ?? countTokens(text),
      responseTime: (r.responseTime as number | undefined) ?? null,
      createdAt,
    },
  };
}

/** Lines of a file, read synchronously in 1 MiB chunks (never the whole file in one string). */
export function* fileLines(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(1 << 20);
    const decoder = new StringDecoder('utf8');
    let pending = '';
    for (;;) {
      const read = readSync(fd, buffer, 0, buffer.length, null);
      if (read === 0) break;
      pending += decoder.write(buffer.subarray(0, read));
      let start = 0;
      for (let nl = pending.indexOf('\n'); nl !== -1; nl = pending.indexOf('\n', start)) {
        yield pending.slice(start, nl);
        start = nl + 1;
      }
      pending = pending.slice(start);
    }
    pending += decoder.end();
    if (pending !== '') yield pending;
  } finally {
    closeSync(fd);
  }
}

/**
 * Imports a seed file into `store`: pass one checks every line (and that no id is taken), pass
 * two stores them all in one transaction. Returns the number of messages imported.
 *
 * @throws {SeedError} naming the file and the first bad line; nothing is imported then.
 */
export function importSeedFile(
  path: string,
  store: EmulatorStore,
  knownChatbots: ReadonlySet<string>,
  countTokens: (text: string) => number,
): number {
  const where = (line: number) => `${path} line ${line}`;
  const ids = new Set<string>();
  let lineNumber = 0;
  let records = 0;
  try {
    for (const line of fileLines(path)) {
      lineNumber++;
      if (line.trim() === '') continue;
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        throw new SeedError(`${where(lineNumber)}: not valid JSON`, lineNumber);
      }
      // Tokens are counted in pass two only: pass one just checks.
      const checked = checkSeedRecord(record, knownChatbots, () => 0);
      if ('error' in checked) throw new SeedError(`${where(lineNumber)}: ${checked.error}`, lineNumber);
      records++;
      const id = checked.message.id;
      if (id !== undefined) {
        if (ids.has(id)) throw new SeedError(`${where(lineNumber)}: duplicate id ${JSON.stringify(id)} (earlier in the file)`, lineNumber);
        if (store.hasMessage(id))
          throw new SeedError(`${where(lineNumber)}: duplicate id ${JSON.stringify(id)} (already in the database)`, lineNumber);
        ids.add(id);
      }
    }
  } catch (error) {
    if (error instanceof SeedError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new SeedError(`${path}: cannot read the seed file (${code === 'ENOENT' ? 'no such file' : (code ?? String(error))})`);
  }
  ids.clear();

  function* checkedRecords(): Generator<ImportedMessage> {
    for (const line of fileLines(path)) {
      if (line.trim() === '') continue;
      const checked = checkSeedRecord(JSON.parse(line), knownChatbots, countTokens);
      if ('error' in checked) throw new SeedError(checked.error); // the file changed under us
      yield { ...checked.message, id: checked.message.id ?? randomUUID() };
    }
  }
  return store.importMessages(checkedRecords(), records);
}
