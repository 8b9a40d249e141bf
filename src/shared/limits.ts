/**
 * The sizes the upstream API accepts, defined once: the emulator enforces them, the handler checks
 * a visitor's send against them before it reaches upstream, and the widget's field says when a
 * message is past them (and sends nothing until it is short enough). Lengths of texts are in
 * Unicode code points, as upstream counts them.
 */

/** `message.content`: 1 to 4,000 characters. */
export const MAX_MESSAGE_CHARS = 4000;
/** `user.name`: 1 to 100 characters. */
export const MAX_USER_NAME_CHARS = 100;
/** `user.id`: 1 to 200 characters. */
export const MAX_USER_ID_CHARS = 200;
/** `message.file`: an absolute http(s) URL of at most 2,048 characters. */
export const MAX_FILE_URL_CHARS = 2048;
/** Largest request body the handler reads by default: 16 KiB. */
export const MAX_REQUEST_BODY_BYTES = 16 * 1024;
/** Ids that go into paths and headers (chatbot ids, message ids, idempotency keys). */
export const ID_PATTERN = /^[A-Za-z0-9_-]{1,128}$/;
/** A rating's `comment`: at most 500 characters. */
export const MAX_FEEDBACK_COMMENT_CHARS = 500;
/** A minute in milliseconds: the length of the per-minute windows the handler counts and the widget reads. */
export const MINUTE_MS = 60_000;
/** A day in milliseconds (UTC days have no leap seconds in Unix time): the daily windows, and how long records are kept. */
export const DAY_MS = 86_400_000;
/** The values a rating takes (`null` takes a rating back). */
export const FEEDBACK_VALUES = ['up', 'down'] as const;
/** Whether `value` is a rating's value: thumbs up or down. */
export const isFeedbackValue = (value: unknown): value is (typeof FEEDBACK_VALUES)[number] =>
  (FEEDBACK_VALUES as readonly unknown[]).includes(value);
/** Largest count-by-month range, in months: a guard against answering 100,000 empty buckets. */
export const MAX_COUNT_BY_MONTH_MONTHS = 1200;
