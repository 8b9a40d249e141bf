/**
 * Anonymous visitor identities: a token the handler signs and later verifies, so the server
 * keeps no session table and the browser can neither choose nor forge a user id.
 *
 * Format: `v1.<payload>.<signature>`, payload base64url JSON `{ "sub": userId, "aud": chatbotId,
 * "iat", "exp", "fia" }` (Unix seconds; `fia` is when the identity was first issued, carried over
 * by every renewal so renewal can end at a maximum age), signature base64url HMAC-SHA256 over `v1.<payload>` with the
 * visitor key. `aud` binds a token to the chatbot whose handler issued it: handlers that share a
 * `visitorTokenSecret` (or an API secret) must not accept each other's visitors.
 */
import { fromBase64Url, hmacSha256, timingSafeEqual, toBase64Url } from '../../shared/signature.js';

const VERSION = 'v1';
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
/** Label of the key derivation: the visitor key is HMAC(apiSecret, label), never the secret itself. */
const DERIVATION_LABEL = 'chatbot-widget/visitor-token/v1';
/** Upstream user ids of visitors: `v_` and 128 random bits. */
const VISITOR_ID_PATTERN = /^v_[A-Za-z0-9_-]{22}$/;
/** A token issued "in the future" by more than this is refused (clock skew between instances). */
export const ISSUED_AT_SKEW_SECONDS = 300;

/** A verified visitor token. */
export interface VisitorClaims {
  userId: string;
  issuedAt: number;
  expiresAt: number;
  /** When the identity was first issued (tokens of the previous format: their `iat`). */
  firstIssuedAt: number;
}

/** What a new token says: whose it is, for which chatbot, when its identity began and ends. */
export interface TokenGrant {
  userId: string;
  audience: string;
  nowSeconds: number;
  /** When the identity was first issued; `nowSeconds` for a new identity. */
  firstIssuedAt: number;
  /** Lifetime of this token. */
  ttlSeconds: number;
  /** No token of the identity lives past `firstIssuedAt + maxAgeSeconds`. */
  maxAgeSeconds: number;
}

/** The key visitor tokens are signed with: the given one, or one derived from the API secret. */
export async function visitorKey(apiSecret: string, visitorTokenSecret?: string): Promise<string> {
  if (visitorTokenSecret) return visitorTokenSecret;
  return toBase64Url(await hmacSha256(apiSecret, DERIVATION_LABEL));
}

/** A new random visitor id, `v_` + 22 base64url characters. */
export function newVisitorId(): string {
  return `v_${toBase64Url(crypto.getRandomValues(new Uint8Array(16)))}`;
}

/**
 * Signs a token for `grant.userId` of chatbot `grant.audience`, valid `ttlSeconds` from now but
 * never past the identity's maximum age.
 */
export async function issueVisitorToken(key: string, grant: TokenGrant): Promise<{ token: string; expiresAt: number }> {
  const { userId, audience, nowSeconds, firstIssuedAt } = grant;
  const expiresAt = Math.min(nowSeconds + grant.ttlSeconds, firstIssuedAt + grant.maxAgeSeconds);
  const payload = toBase64Url(
    encoder.encode(JSON.stringify({ sub: userId, aud: audience, iat: nowSeconds, exp: expiresAt, fia: firstIssuedAt })),
  );
  const signature = toBase64Url(await hmacSha256(key, `${VERSION}.${payload}`));
  return { token: `${VERSION}.${payload}.${signature}`, expiresAt };
}

/**
 * The claims of a valid, unexpired token of chatbot `audience`; undefined for anything else
 * (malformed, forged, tampered, expired, another chatbot's). The signature is compared in
 * constant time before the payload is read.
 */
export async function verifyVisitorToken(
  key: string,
  token: string,
  nowSeconds: number,
  audience: string,
): Promise<VisitorClaims | undefined> {
  const claims = await signedClaims(key, token, audience);
  return claims && isCurrent(claims, nowSeconds) ? claims : undefined;
}

/**
 * The claims of a well-formed token of chatbot `audience` signed with `key`, whatever the time;
 * undefined for anything else. What it says depends on the token's text alone, so it may be
 * remembered (verified-tokens.ts); {@link isCurrent} is asked afresh each time.
 */
export async function signedClaims(key: string, token: string, audience: string): Promise<VisitorClaims | undefined> {
  if (token.length > 512) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== VERSION) return undefined;
  const [, payload, signature] = parts as [string, string, string];
  if (!/^[A-Za-z0-9_-]+$/.test(payload)) return undefined;
  const expected = toBase64Url(await hmacSha256(key, `${VERSION}.${payload}`));
  if (!timingSafeEqual(expected, signature)) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(decoder.decode(fromBase64Url(payload)));
  } catch {
    return undefined;
  }
  if (!claims || typeof claims !== 'object') return undefined;
  const { sub, aud, iat, exp, fia = iat } = claims as Record<string, unknown>;
  if (typeof sub !== 'string' || !VISITOR_ID_PATTERN.test(sub)) return undefined;
  if (aud !== audience) return undefined;
  if (typeof iat !== 'number' || typeof exp !== 'number' || !Number.isInteger(iat) || !Number.isInteger(exp)) return undefined;
  if (typeof fia !== 'number' || !Number.isInteger(fia) || fia > iat) return undefined;
  return { userId: sub, issuedAt: iat, expiresAt: exp, firstIssuedAt: fia };
}

/** Whether a token with `claims` is valid at `nowSeconds`: not expired, not issued too far ahead. */
export function isCurrent(claims: VisitorClaims, nowSeconds: number): boolean {
  return claims.expiresAt > nowSeconds && claims.issuedAt <= nowSeconds + ISSUED_AT_SKEW_SECONDS;
}

/** The token of an `Authorization: Bearer <token>` header, if any. */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get('Authorization');
  if (!header) return undefined;
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
  return match?.[1];
}
