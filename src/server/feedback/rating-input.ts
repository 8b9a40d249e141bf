/**
 * The body of `POST {base}/feedback`, checked before anything is written or asked upstream:
 * `{ messageId, value: 'up' | 'down' | null, comment? }`. Each refusal says what is allowed.
 */
import { ID_PATTERN, isFeedbackValue, MAX_FEEDBACK_COMMENT_CHARS } from '../../shared/limits.js';
import type { FeedbackValue } from '../../shared/types.js';
import { hasLoneSurrogate } from '../../shared/well-formed.js';
import { refuse } from '../core/responses.js';

/** What a visitor is told when a rating is refused. */
export const RATING_TEXT = {
  badMessageId: 'Give the messageId of the answer you rate: 1 to 128 letters (A-Z, a-z), digits, "_" or "-".',
  badValue: 'The value must be "up", "down" or null (null takes your rating back).',
  badComment: 'The comment must be text, or null for none.',
  commentTooLong: `A comment can be at most ${MAX_FEEDBACK_COMMENT_CHARS} characters long.`,
  loneSurrogateComment:
    'Your comment contains a broken character (half of an emoji or other symbol) that cannot be stored. Remove it and send again.',
  tooManyRatings: 'You are rating answers too quickly. Please wait a moment and try again.',
} as const;

/** A checked rating: `value` null takes the caller's rating of the message back. */
export interface RatingInput {
  messageId: string;
  value: FeedbackValue | null;
  /** The visitor's words; null when they gave none (or only spaces). */
  comment: string | null;
}

/** The rating in `body`, or a 400 naming what is allowed. */
export function ratingInput(body: Record<string, unknown>): RatingInput {
  const { messageId, value, comment } = body;
  if (typeof messageId !== 'string' || !ID_PATTERN.test(messageId)) refuse(400, RATING_TEXT.badMessageId);
  if (value !== null && !isFeedbackValue(value)) refuse(400, RATING_TEXT.badValue);
  if (comment !== undefined && comment !== null && typeof comment !== 'string') refuse(400, RATING_TEXT.badComment);
  const text = typeof comment === 'string' && comment.trim() !== '' ? comment : null;
  // Counted in Unicode code points, as message lengths are, so an emoji is one character.
  if (text !== null && [...text].length > MAX_FEEDBACK_COMMENT_CHARS) refuse(400, RATING_TEXT.commentTooLong);
  if (text !== null && hasLoneSurrogate(text)) refuse(400, RATING_TEXT.loneSurrogateComment);
  return { messageId, value, comment: value === null ? null : text };
}
