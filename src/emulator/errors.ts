/**
 * The error factory: every refusal of the emulator, shaped as upstream shapes it. 401, 403,
 * 404, 405, 413, 415, 429 and 500 are the envelope with `data` null; 400 is the validation body
 * of the upstream API (docs/api.md) (or, for a range whose `to` is not after `from`, the envelope with the
 * endpoint's empty `data`).
 */
import { randomBytes } from 'node:crypto';
import type { ValidationProblem } from '../shared/types.js';
import { envelope } from './envelope.js';

/** A refusal: thrown anywhere in the pipeline, written as its status and body. */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
  constructor(status: number, body: unknown, headers: Record<string, string> = {}) {
    super(typeof body === 'object' && body !== null && 'error' in body ? String((body as { error: unknown }).error) : `HTTP ${status}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

/** Field path (`user.name`, `pageSize`, `$` for the body as a whole) to messages. */
export type FieldErrors = Record<string, string[]>;

/** A trace id in the W3C traceparent shape upstream uses, so a log line can be matched to a response. */
function newTraceId(): string {
  return `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00`;
}

/** The 400 body of the upstream API (docs/api.md). */
function validationProblem(errors: FieldErrors, traceId = newTraceId()): ValidationProblem {
  return {
    type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
    title: 'One or more validation errors occurred.',
    status: 400,
    errors,
    traceId,
  };
}

const refuse = (status: number, message: string, headers?: Record<string, string>) =>
  new ApiError(status, envelope(null, message), headers);

export const apiErrors = {
  validation: (errors: FieldErrors) => new ApiError(400, validationProblem(errors)),
  /** `to` not after `from`: the envelope, with 0 (count) or null (count-by-month) as data. */
  rangeOrder: (data: 0 | null) => new ApiError(400, envelope(data, "'to' must be greater than 'from'.")),
  unauthorized: (message: string) => refuse(401, message),
  forbidden: () => refuse(403, 'The API key has no access to this chatbot.'),
  chatbotNotFound: () => refuse(404, 'Chatbot not found.'),
  messageNotFound: () => refuse(404, 'Message not found.'),
  /** Names the routes that exist: the reader may have no copy of the API's documentation at hand. */
  routeNotFound: (basePath: string) =>
    refuse(
      404,
      `No such endpoint. Routes are under ${basePath}/Dev/{chatbotId}/: message (POST), messages, messages/{messageId}, ` +
        'messages/count, messages/count-by-month, users, sessions (GET).',
    ),
  methodNotAllowed: (allowed: string) => refuse(405, `Method not allowed here; use ${allowed}.`, { Allow: allowed }),
  payloadTooLarge: (limit: number) => refuse(413, `The request body is larger than ${limit} bytes.`),
  unsupportedMediaType: () => refuse(415, 'The request body must be JSON, sent with Content-Type: application/json.'),
  quotaExceeded: (limit: number) => refuse(429, `The daily message quota of this chatbot (${limit}) is used up; it resets at 00:00 UTC.`),
  replyFailed: () => refuse(500, 'The chatbot could not produce a reply. Try again later.'),
  internal: () => refuse(500, 'Internal server error.'),
};
