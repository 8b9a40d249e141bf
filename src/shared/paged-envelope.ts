/**
 * The envelope of a listing page (docs/api.md), shared by the emulator's listings and the
 * handler's own (the feedback listing), so both page alike.
 */
import type { PagedEnvelope } from './types.js';

/** The envelope of a listing page: `totalPages` is 0 for an empty listing. */
export function pagedEnvelope<T>(data: T, totalItems: number, pageSize: number, currentPage: number): PagedEnvelope<T> {
  return { data, error: null, totalItems, pageSize, currentPage, totalPages: Math.ceil(totalItems / pageSize) };
}
