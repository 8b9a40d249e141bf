/**
 * Revoked visitor identities, kept in the handler's store so every instance sharing it refuses
 * them. A record lives as long as any token of the identity could: no token outlives the
 * identity's maximum age (renewals are capped there), so that is when the record may go.
 *
 * Records live that long, so how many there can be is bounded where they are made: a revocation
 * counts in its address's new-visitor window (a reset revokes one identity and starts another, so
 * it takes two places there), and at most `limits.revocationsPerDay` are made in a UTC day,
 * all addresses together, because an IPv6 network has more /64 addresses than any store has room.
 * The store then holds at most that many times the days a token may live.
 */
import type { ResolvedOptions } from './options.js';
import { DAY_MS, newVisitorWindow, spendWithin, windowAt, type LimitWindow } from './rate-limits.js';
import { TEXT } from './responses.js';
import { ISSUED_AT_SKEW_SECONDS, type VisitorClaims } from './visitor-token.js';

const revokedKey = (options: ResolvedOptions, userId: string) => `${options.chatbotId}:revoked:${userId}`;

/** Whether the identity `userId` was revoked. */
export async function isRevoked(options: ResolvedOptions, userId: string): Promise<boolean> {
  return (await options.store.get(revokedKey(options, userId))) !== undefined;
}

/** The day's window of revocations, shared by every address. */
function revocationWindow(options: ResolvedOptions, now: number): LimitWindow {
  const { key, endsAt } = windowAt(options, 'revoke-day', 'all', DAY_MS, now);
  return { key, endsAt, limit: options.limits.revocationsPerDay, refusal: TEXT.tooManyRevocations };
}

/**
 * Revokes the identity of `claims`, asked from `address`, on every instance sharing the store.
 * Revoking twice is fine and free. Past a limit, 429 and nothing written.
 */
export async function revoke(options: ResolvedOptions, claims: VisitorClaims, address: string): Promise<void> {
  if (await isRevoked(options, claims.userId)) return;
  const now = options.now();
  await spendWithin(options, [revocationWindow(options, now), newVisitorWindow(options, address, now)], now);
  // The latest any token of it can expire, whatever the settings were when one was issued.
  const lastExpiry = Math.max(
    claims.expiresAt,
    claims.firstIssuedAt + options.visitorTokenMaxAgeSeconds,
    claims.issuedAt + options.visitorTokenTtlSeconds,
  );
  await options.store.add(revokedKey(options, claims.userId), String(claims.firstIssuedAt), (lastExpiry + ISSUED_AT_SKEW_SECONDS) * 1000);
}
