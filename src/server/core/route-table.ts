/**
 * The default-deny route table (docs/handler.md, "Routes"): a request either matches one of these routes
 * exactly, segment by segment, or is refused before anything else happens. Paths are never
 * joined from what the browser sent: a matched route yields validated ids, and the upstream
 * path is written from fixed text plus those ids.
 */
import { ID_PATTERN } from '../../shared/limits.js';
import { handlerIndex, refuse, TEXT } from './responses.js';

export type RouteName =
  | 'visitor'
  | 'revoke'
  | 'send'
  | 'sessions'
  | 'messages'
  | 'message'
  | 'feedback'
  | 'admin-users'
  | 'admin-sessions'
  | 'admin-messages'
  | 'admin-message'
  | 'admin-count'
  | 'admin-count-by-month'
  | 'admin-feedback'
  | 'admin-feedback-count-by-month';

/** A request that matched the table. */
export interface MatchedRoute {
  name: RouteName;
  method: 'GET' | 'POST' | 'DELETE';
  admin: boolean;
  /** Every method the path takes (the `Allow` of a 405), when more than `method`. */
  allow?: string;
  /** The validated `{messageId}` of the single-message routes. */
  messageId?: string;
}

/** Words that are routes of their own under `/messages/`, so never message ids. */
const RESERVED_IDS = new Set(['count', 'count-by-month']);
/** Only these characters may appear after the base path; `%`, `.`, `\` and the rest are refused. */
const SAFE_PATH = /^[A-Za-z0-9_\-/]*$/;

/**
 * The route of `pathname` (raw or parsed) under `basePath`. Answers 404 for paths outside the
 * table and 400 for paths holding anything but plain segments: encoded bytes (`%2e`, `%2f`,
 * `%5c`, `%25…`), dots, backslashes or empty segments never get as far as a route.
 */
export function matchRoute(pathname: string, basePath: string, method = 'GET'): MatchedRoute {
  if (pathname !== basePath && !pathname.startsWith(`${basePath}/`)) refuse(404, TEXT.notFound);
  const rest = pathname.slice(basePath.length);
  // The base path alone is not a route, but a person may open it (npm start prints it): say what is here.
  if (rest === '' || rest === '/') refuse(404, handlerIndex(basePath));
  if (!SAFE_PATH.test(rest)) refuse(400, TEXT.badPath);
  const segments = rest.split('/').slice(1);
  if (segments.some((segment) => segment === '')) refuse(400, TEXT.badPath);

  const [first, second, third, ...more] = segments;
  if (more.length === 0) {
    if (first === 'visitor' && second === undefined) {
      // One path, two routes: POST issues or renews an identity, DELETE revokes it.
      return method === 'DELETE'
        ? { name: 'revoke', method: 'DELETE', admin: false, allow: 'POST, DELETE' }
        : { name: 'visitor', method: 'POST', admin: false, allow: 'POST, DELETE' };
    }
    if (first === 'message' && second === undefined) return { name: 'send', method: 'POST', admin: false };
    if (first === 'feedback' && second === undefined) return { name: 'feedback', method: 'POST', admin: false };
    if (first === 'sessions' && second === undefined) return { name: 'sessions', method: 'GET', admin: false };
    if (first === 'messages' && second === undefined) return { name: 'messages', method: 'GET', admin: false };
    if (first === 'messages' && second !== undefined && third === undefined) {
      return { name: 'message', method: 'GET', admin: false, messageId: messageId(second) };
    }
    if (first === 'admin') {
      if (second === 'users' && third === undefined) return { name: 'admin-users', method: 'GET', admin: true };
      if (second === 'sessions' && third === undefined) return { name: 'admin-sessions', method: 'GET', admin: true };
      if (second === 'feedback') {
        if (third === undefined) return { name: 'admin-feedback', method: 'GET', admin: true };
        if (third === 'count-by-month') return { name: 'admin-feedback-count-by-month', method: 'GET', admin: true };
      }
      if (second === 'messages') {
        if (third === undefined) return { name: 'admin-messages', method: 'GET', admin: true };
        if (third === 'count') return { name: 'admin-count', method: 'GET', admin: true };
        if (third === 'count-by-month') return { name: 'admin-count-by-month', method: 'GET', admin: true };
        return { name: 'admin-message', method: 'GET', admin: true, messageId: messageId(third) };
      }
    }
  }
  refuse(404, TEXT.notFound);
}

function messageId(segment: string): string {
  if (!ID_PATTERN.test(segment) || RESERVED_IDS.has(segment)) refuse(404, TEXT.messageNotFound);
  return segment;
}

/** The path part of a raw request target (`/a/b?x` → `/a/b`). */
export function pathOfTarget(target: string): string {
  const end = target.search(/[?#]/);
  return end === -1 ? target : target.slice(0, end);
}

/** Reads the query parameters a route documents, each at most once, as decoded text. */
export class QueryReader {
  readonly #params: URLSearchParams;
  constructor(params: URLSearchParams) {
    this.#params = params;
  }

  /** A text value (1–200 characters, no control characters), or undefined when absent. */
  text(name: string, maxLength = 200): string | undefined {
    const value = this.#single(name);
    if (value === undefined) return undefined;
    // eslint-disable-next-line no-control-regex -- matching control characters is the point: they are refused
    if (value.length === 0 || value.length > maxLength || /[\u0000-\u001f\u007f]/.test(value)) {
      refuse(400, `The ${name} parameter is not valid.`);
    }
    return value;
  }

  /** A whole number within [min, max], or undefined when absent. */
  integer(name: string, min: number, max: number): number | undefined {
    const value = this.#single(name);
    if (value === undefined) return undefined;
    const number = /^[0-9]{1,9}$/.test(value) ? Number(value) : NaN;
    if (!(number >= min && number <= max)) refuse(400, `The ${name} parameter must be a whole number from ${min} to ${max}.`);
    return number;
  }

  #single(name: string): string | undefined {
    const values = this.#params.getAll(name);
    if (values.length > 1) refuse(400, `Give the ${name} parameter only once.`);
    return values[0];
  }
}
