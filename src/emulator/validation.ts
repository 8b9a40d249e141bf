/**
 * Validation of query strings and send bodies. Every problem becomes an entry of
 * the 400 body of the upstream API (docs/api.md) under the parameter's or field's path; nothing here throws
 * anything but an {@link ApiError}.
 */
import { MAX_FILE_URL_CHARS, MAX_MESSAGE_CHARS, MAX_USER_ID_CHARS, MAX_USER_NAME_CHARS } from '../shared/limits.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../shared/page-size.js';
import { parseIsoDate } from '../shared/dates.js';
import { apiErrors, type FieldErrors } from './errors.js';

/** The query parameters of a request: first occurrence of each name, percent-decoded, `+` as space. */
export type Query = Map<string, string>;

/**
 * Parses the raw query text (after `?`). Like upstream's framework, a broken percent-escape
 * (`%zz`, a lone `%`, bytes that are not UTF-8) is kept as literal text rather than refused: a
 * bad `page` or date is then a 400 naming it, and an id filter simply matches nothing.
 */
export function parseQuery(raw: string): Query {
  const query: Query = new Map();
  for (const part of raw.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = decodeLenient(eq === -1 ? part : part.slice(0, eq));
    const value = decodeLenient(eq === -1 ? '' : part.slice(eq + 1));
    if (!query.has(name)) query.set(name, value);
  }
  return query;
}

/** Percent-decodes with `+` as space, leaving any escape that does not decode as it is. */
function decodeLenient(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}

/** A path segment, percent-decoded; undefined when its encoding is broken. */
export function decodePathSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

// Upstream binds page numbers to a 32-bit int; larger values are not numbers it accepts.
const INT32_MAX = 2_147_483_647;

function readInteger(query: Query, name: string, errors: FieldErrors): number | undefined {
  const text = query.get(name);
  if (text === undefined) return undefined;
  if (!/^-?\d{1,10}$/.test(text) || Math.abs(Number(text)) > INT32_MAX) {
    (errors[name] ??= []).push(`The value '${text}' is not valid for ${name}: a whole number is expected.`);
    return undefined;
  }
  return Number(text);
}

/** A listing's paging: `page` ≥ 1 (default 1), `pageSize` 1–100 (default 20). */
export interface Paging {
  page: number;
  pageSize: number;
}

/** Reads and checks `page` and `pageSize` into `errors`. */
export function readPaging(query: Query, errors: FieldErrors): Paging {
  const page = readInteger(query, 'page', errors);
  const pageSize = readInteger(query, 'pageSize', errors);
  if (page !== undefined && page < 1) (errors.page ??= []).push('page must be 1 or greater.');
  if (pageSize !== undefined && (pageSize < 1 || pageSize > MAX_PAGE_SIZE)) {
    (errors.pageSize ??= []).push(`pageSize must be between 1 and ${MAX_PAGE_SIZE}.`);
  }
  return { page: page ?? 1, pageSize: pageSize ?? DEFAULT_PAGE_SIZE };
}

/** An optional id filter (`sessionId`, `userId`); an empty value means no filter. */
export function readId(query: Query, name: string): string | undefined {
  const value = query.get(name);
  return value === undefined || value === '' ? undefined : value;
}

/** A required ISO 8601 date (`from`, `to`) as UTC ms. */
export function readDate(query: Query, name: string, errors: FieldErrors): number | undefined {
  const text = query.get(name);
  if (text === undefined || text === '') {
    (errors[name] ??= []).push(`The ${name} field is required.`);
    return undefined;
  }
  const ms = parseIsoDate(text);
  if (ms === undefined) {
    // `+` in a query value means a space, so an offset sent raw (`T12:00:00+02:00`) arrives as
    // `T12:00:00 02:00`. Only then is the encoding the likely cause, and worth naming; clients
    // that encode their values (chatbot-api, ChatbotClient) never see the hint.
    const rawPlus = / \d{2}:?\d{2}$/.test(text) && parseIsoDate(text.replace(/ (\d{2}:?\d{2})$/, '+$1')) !== undefined;
    (errors[name] ??= []).push(
      `The value '${text}' is not a valid ISO 8601 date for ${name} (e.g. 2026-01-31 or 2026-01-31T12:00:00Z)` +
        (rawPlus ? `; a '+' in a query value means a space, so send the offset's '+' as %2B.` : '.'),
    );
  }
  return ms;
}

/** An optional boolean: `true` / `false` in any case. */
export function readBoolean(query: Query, name: string, errors: FieldErrors): boolean | undefined {
  const text = query.get(name);
  if (text === undefined) return undefined;
  const lower = text.toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  (errors[name] ??= []).push(`The value '${text}' is not valid for ${name}: true or false is expected.`);
  return undefined;
}

/** Throws the 400 validation error when any entry was collected. */
export function throwIfInvalid(errors: FieldErrors): void {
  if (Object.keys(errors).length > 0) throw apiErrors.validation(errors);
}

/** The checked body of a send. */
export interface SendBody {
  userId: string;
  userName: string;
  content: string;
  file: string | null;
}

const LIMITS = { userId: MAX_USER_ID_CHARS, userName: MAX_USER_NAME_CHARS, content: MAX_MESSAGE_CHARS, file: MAX_FILE_URL_CHARS } as const;

const codePoints = (text: string) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/**
 * Parses and checks a send body: `user.id` 1–200 characters, `user.name` 1–100,
 * `message.content` 1–4,000 (code points), none of them blank; `message.file` absent, null or an
 * absolute http(s) URL. All problems are reported at once.
 */
export function readSendBody(bytes: Uint8Array): SendBody {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw apiErrors.validation({ $: ['The request body is not valid UTF-8.'] });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw apiErrors.validation({ $: [`The request body is not valid JSON: ${(error as Error).message}`] });
  }
  if (!isObject(parsed)) throw apiErrors.validation({ $: ['The request body must be a JSON object with "user" and "message".'] });

  const errors: FieldErrors = {};
  const user = parsed.user;
  const message = parsed.message;
  if (user === undefined || user === null) errors.user = ['The user field is required.'];
  else if (!isObject(user)) errors.user = ['user must be an object with id and name.'];
  if (message === undefined || message === null) errors.message = ['The message field is required.'];
  else if (!isObject(message)) errors.message = ['message must be an object with content.'];

  const userObject = isObject(user) ? user : undefined;
  const messageObject = isObject(message) ? message : undefined;
  const userId = userObject && requiredString(userObject.id, 'user.id', LIMITS.userId, errors);
  const userName = userObject && requiredString(userObject.name, 'user.name', LIMITS.userName, errors);
  const content = messageObject && requiredString(messageObject.content, 'message.content', LIMITS.content, errors);
  let file: string | null = null;
  if (messageObject && messageObject.file !== undefined && messageObject.file !== null) {
    if (typeof messageObject.file !== 'string') errors['message.file'] = ['message.file must be a string URL or null.'];
    else if (!isHttpUrl(messageObject.file) || messageObject.file.length > LIMITS.file) {
      errors['message.file'] = [`message.file must be an absolute http(s) URL of at most ${LIMITS.file} characters.`];
    } else file = messageObject.file;
  }
  throwIfInvalid(errors);
  return { userId: userId!, userName: userName!, content: content!, file };
}

function requiredString(value: unknown, path: string, max: number, errors: FieldErrors): string | undefined {
  if (value === undefined || value === null) {
    errors[path] = [`The ${path} field is required.`];
    return undefined;
  }
  if (typeof value !== 'string') {
    errors[path] = [`${path} must be a string.`];
    return undefined;
  }
  if (value.trim() === '') {
    errors[path] = [`The ${path} field is required.`];
    return undefined;
  }
  if (codePoints(value) > max) {
    errors[path] = [`${path} must be at most ${max} characters.`];
    return undefined;
  }
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && /^https?:\/\//i.test(text);
  } catch {
    return false;
  }
}
