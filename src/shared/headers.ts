/** Header names of the upstream API (docs/api.md). */
export const HEADER_API_KEY = 'X-API-Key';
export const HEADER_SIGNATURE = 'X-Signature';
export const HEADER_TIMESTAMP = 'X-Timestamp';
export const HEADER_RATE_LIMIT = 'X-RateLimit-Limit';
export const HEADER_RATE_REMAINING = 'X-RateLimit-Remaining';
export const HEADER_RATE_RESET = 'X-RateLimit-Reset';

/** The signing handler's own: a send's idempotency key, and the mark of an answer replayed from its record. */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
export const REPLAYED_HEADER = 'Idempotency-Replayed';

/** The signing handler's admin routes: the site owner's token (docs/usage.md). */
export const ADMIN_TOKEN_HEADER = 'X-Admin-Token';

/** Accepted clock skew of `X-Timestamp`, either way (docs/api.md). */
export const TIMESTAMP_WINDOW_SECONDS = 300;
