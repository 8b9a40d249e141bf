import type { Envelope, ValidationProblem } from '../../shared/types.js';
import type { RateLimitInfo } from '../rate-limit.js';
import { ChatbotError } from './chatbot-error.js';
import { formatUtcMinute, formatWait } from '../wait-text.js';

/** What the client learned from an error answer. */
export interface ChatbotHttpErrorDetails {
  url: string;
  status: number;
  statusText: string;
  /** The parsed JSON body, or undefined when the body was empty or not JSON. */
  body: unknown;
  rateLimit: RateLimitInfo | null;
  retryAfterSeconds: number | null;
}

/**
 * The upstream answered, and the answer is an error: a status outside 2xx, or (because the
 * spec leaves the status of some failures open) an envelope whose `error` is set.
 *
 * `message` is one line: the status and the upstream's own words (the envelope `error`), or for
 * a validation body `The chatbot API refused the request: field: message; field: message`.
 * Waits read as `retry in 9 h 57 min, at 2026-02-01 00:00 UTC`; a 404 on a base URL that does
 * not end in `/api` says so.
 *
 * @example
 * try {
 *   await client.sendMessage({ user: { id: 'u1', name: '' }, message: { content: 'hi' } });
 * } catch (error) {
 *   if (error instanceof ChatbotHttpError && error.status === 400) console.log(error.errors['user.name']);
 *   if (error instanceof ChatbotHttpError && error.status === 429) console.log(`quota resets at ${error.rateLimit?.resetAt}`);
 * }
 */
export class ChatbotHttpError extends ChatbotError {
  override name = 'ChatbotHttpError';

  readonly url: string;
  /** HTTP status of the answer. */
  readonly status: number;
  readonly statusText: string;
  /** The envelope `error` text, or the validation title; null when the body had neither. */
  readonly upstreamMessage: string | null;
  /** The envelope, when the body was one (401, 403, 404, 429, 500 bodies). */
  readonly envelope: Envelope<unknown> | null;
  /** The 400 validation body (docs/api.md), when the body was one. */
  readonly problem: ValidationProblem | null;
  /** Field path (`user.name`, `pageSize`) to messages; empty unless the body was a validation body. */
  readonly errors: Readonly<Record<string, readonly string[]>>;
  /** The parsed JSON body as received, whatever its shape; undefined when it was not JSON. */
  readonly body: unknown;
  /** The `X-RateLimit-*` figures of the answer, when it carried all three. */
  readonly rateLimit: RateLimitInfo | null;
  /** Seconds the server asks to wait (`Retry-After`, or on a 429 the time until `X-RateLimit-Reset`). */
  readonly retryAfterSeconds: number | null;

  constructor(details: ChatbotHttpErrorDetails) {
    const { envelope, problem } = classify(details.body);
    const upstreamMessage = envelope?.error ?? problem?.title ?? null;
    super(describe(details, envelope, problem));
    this.url = details.url;
    this.status = details.status;
    this.statusText = details.statusText;
    this.upstreamMessage = upstreamMessage;
    this.envelope = envelope;
    this.problem = problem;
    this.errors = problem?.errors ?? {};
    this.body = details.body;
    this.rateLimit = details.rateLimit;
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function classify(body: unknown): { envelope: Envelope<unknown> | null; problem: ValidationProblem | null } {
  if (!isObject(body)) return { envelope: null, problem: null };
  if ('data' in body && (typeof body.error === 'string' || body.error === null)) {
    return { envelope: body as unknown as Envelope<unknown>, problem: null };
  }
  if (isObject(body.errors) || typeof body.title === 'string') {
    const errors: Record<string, string[]> = {};
    if (isObject(body.errors)) {
      for (const [field, messages] of Object.entries(body.errors)) {
        errors[field] = Array.isArray(messages) ? messages.map(String) : [String(messages)];
      }
    }
    return { envelope: null, problem: { ...(body as unknown as ValidationProblem), errors } };
  }
  return { envelope: null, problem: null };
}

// One line, so a command-line user sees the whole reason and logs stay greppable.
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `from: The value … is not valid; to: …`: each field once, its messages run together. */
function describeFields(errors: Record<string, string[]>): string[] {
  return Object.entries(errors).map(([field, messages]) => {
    // A closing full stop would read ".;" before the next field.
    const text = oneLine(messages.join(' ')).replace(/\.$/, '');
    // `$` is the body as a whole: its messages speak for themselves.
    return field === '$' ? text : `${field}: ${text}`;
  });
}

/**
 * Whether the path in front of `/Dev/{chatbotId}/…` lacks the `/api` suffix. Every route of the
 * API lives under `…/api/Dev/`, so a base URL without the `/api` suffix (the most common slip)
 * can only get 404s; saying so saves the reader a trip through the docs.
 */
function missingApiSuffix(url: string): boolean {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return false;
  }
  const dev = path.indexOf('/Dev/');
  return dev !== -1 && !path.slice(0, dev).endsWith('/api');
}

function describe(details: ChatbotHttpErrorDetails, envelope: Envelope<unknown> | null, problem: ValidationProblem | null): string {
  const status = `${details.status}${details.statusText ? ` ${details.statusText}` : ''}`;
  if (problem) {
    const fields = describeFields(problem.errors);
    const reason = fields.length ? fields.join('; ') : oneLine(problem.title || 'validation failed');
    return `The chatbot API refused the request${details.status === 400 ? '' : ` (${status})`}: ${reason}`;
  }
  let reason: string;
  if (envelope?.error) {
    reason = envelope.error;
  } else if (details.status >= 300 && details.status < 400) {
    reason = 'the API redirected the request, which the client does not follow with signed headers; check the base URL';
  } else {
    reason = details.body === undefined ? 'no JSON body' : 'an error body without a message';
  }
  let message = `Chatbot API answered ${status}: ${oneLine(reason)}`;
  if (details.status === 404 && missingApiSuffix(details.url)) {
    message += ' (the base URL should end in /api, e.g. http://localhost:8080/api)';
  }
  if (details.retryAfterSeconds !== null && (details.status === 429 || details.status === 503)) {
    message += ` (retry in ${formatWait(details.retryAfterSeconds)}`;
    // A long wait is easier to plan around as a time: a daily quota resets at 00:00 UTC.
    if (details.retryAfterSeconds >= 3600 && details.status === 429 && details.rateLimit) {
      message += `, at ${formatUtcMinute(new Date(Math.ceil(details.rateLimit.resetAt.getTime() / 60_000) * 60_000))}`;
    }
    message += ')';
  }
  return message;
}
