/**
 * Revoked visitor identities, kept in the handler's store so every instance sharing it refuses
 * them. A record lives as long as any token of the identity could: no token outlives the
 * identity's maximum age (renewals are capped there), so that is when the record may go.
 *
 * Records live that long, so how many there can be is bounded where they are made: the route
 * counts each revocation in its budgets first (`countRevocation` in budgets/rate-limits.ts).
 */
import type { ResolvedOptions } from '../core/options.js';
import { ISSUED_AT_SKEW_SECONDS, type VisitorClaims } from './visitor-token.js';

const revokedKey = (options: ResolvedOptions, userId: string) => `${options.chatbotId}:revoked:${userId}`;

/** Whether the identity `userId` was revoked. */
export async function isRevoked(options: ResolvedOptions, userId: string): Promise<boolean> {
  return (await options.store.get(revokedKey(options, userId))) !== undefined;
}

/**
 * Revokes the identity of `claims` on every instance sharing the store. The caller has counted it
 * in its budgets (and skipped an identity already revoked: revoking again is free).
 */
export async function revoke(options: ResolvedOptions, claims: VisitorClaims): Promise<void> {
  // The latest any token of it can expire, whatever the settings were when one was issued.
  const lastExpiry = Math.max(
    claims.expiresAt,
    claims.firstIssuedAt + options.visitorTokenMaxAgeSeconds,
    claims.issuedAt + options.visitorTokenTtlSeconds,
  );
  await options.store.add(revokedKey(options, claims.userId), String(claims.firstIssuedAt), (lastExpiry + ISSUED_AT_SKEW_SECONDS) * 1000);
}
