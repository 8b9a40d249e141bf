/**
 * Re-writes upstream envelopes field by field, so only the documented fields reach the
 * browser (docs/api.md) and nothing else an upstream may add.
 */
import type { Message } from '../../shared/types.js';

const PAGING_FIELDS = ['totalItems', 'pageSize', 'currentPage', 'totalPages'] as const;

/** `{ data, error }` plus the paging fields upstream gave as numbers. */
export function envelopeOf(body: Record<string, unknown>, data: unknown = body.data): Record<string, unknown> {
  const envelope: Record<string, unknown> = {
    data: data === undefined ? null : data,
    error: typeof body.error === 'string' ? body.error : null,
  };
  for (const field of PAGING_FIELDS) if (typeof body[field] === 'number') envelope[field] = body[field];
  return envelope;
}

/** Whether a record belongs to `userId` (messages and sessions both name it `chatUserId`). */
export function belongsTo(record: unknown, userId: string): record is Pick<Message, 'chatUserId'> {
  return !!record && typeof record === 'object' && (record as { chatUserId?: unknown }).chatUserId === userId;
}
