/**
 * Response bodies of the upstream API (docs/api.md): the envelope `{ data, error }`, with
 * the four pagination fields on sends (listings page with shared/paged-envelope.ts).
 */
import type { Envelope, PagedEnvelope } from '../shared/types.js';

/** The envelope with only `data` and `error` (single message, counts, errors). */
export function envelope<T>(data: T, error: string | null = null): Envelope<T> {
  return { data, error };
}

/** The send response: the reply text, pagination fields all 0 (docs/api.md). */
export function sendEnvelope(reply: string): PagedEnvelope<string> {
  return { data: reply, error: null, totalItems: 0, pageSize: 0, currentPage: 0, totalPages: 0 };
}
