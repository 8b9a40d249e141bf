/**
 * Who is calling: the host application's `identify(request)`, or a visitor token from
 * `POST {base}/visitor`. The upstream user id always comes from here, never from the request
 * body or query.
 */
import { MAX_USER_ID_CHARS } from '../../shared/limits.js';
import { hasLoneSurrogate } from '../../shared/well-formed.js';
import type { Identity, ResolvedOptions } from '../core/options.js';
import { refuse, TEXT } from '../core/responses.js';
import { isRevoked } from './revocation.js';
import type { VerifiedTokens } from './verified-tokens.js';
import { bearerToken, type VisitorClaims } from './visitor-token.js';
import { unixSeconds } from '../../shared/signature.js';

/**
 * The host's `identify(request)`. When it throws, the log names it with the error's message, as a
 * mistake in the site's own callback is found there and nowhere else; the browser gets only the
 * generic 500, since the message may quote the site's code or data.
 */
async function callIdentify(options: ResolvedOptions, request: Request): Promise<Identity | null | undefined> {
  try {
    return await options.identify!(request);
  } catch (error) {
    const { name, message } = error instanceof Error ? error : { name: 'a value that is no Error', message: String(error) };
    options.logger.error(`identify() threw ${name}: ${message} (while answering ${request.method} ${new URL(request.url).pathname})`);
    return refuse(500, TEXT.internal);
  }
}

/** The host's identity, checked: a user id of 1–200 characters and an optional name. */
export async function hostIdentity(options: ResolvedOptions, request: Request): Promise<Identity> {
  const identity = await callIdentify(options, request);
  if (!identity) refuse(401, TEXT.notLoggedIn);
  const { userId, name } = identity;
  if (typeof userId !== 'string' || userId.length === 0 || userId.length > MAX_USER_ID_CHARS || hasLoneSurrogate(userId)) {
    // A lone surrogate cannot be percent-encoded into a query or stored faithfully upstream.
    options.logger.error('identify() returned a userId that is not a well-formed string of 1 to 200 characters; the request was refused');
    refuse(401, TEXT.notLoggedIn);
  }
  return { userId, name: typeof name === 'string' && name.trim() !== '' ? [...name.trim()].slice(0, 100).join('') : undefined };
}

/** The claims of the request's visitor token when it is valid and not revoked; undefined otherwise. */
export async function visitorClaims(
  options: ResolvedOptions,
  request: Request,
  tokens: VerifiedTokens,
): Promise<VisitorClaims | undefined> {
  const token = bearerToken(request);
  if (!token) return undefined;
  const claims = await tokens.claims(token, unixSeconds(options.now()));
  if (!claims || (await isRevoked(options, claims.userId))) return undefined;
  return claims;
}

/** The caller's identity, or a 401 answer. `visitor` is true for identities from visitor tokens. */
export async function callerIdentity(
  options: ResolvedOptions,
  request: Request,
  tokens: VerifiedTokens,
): Promise<Identity & { visitor: boolean }> {
  if (options.identify) return { ...(await hostIdentity(options, request)), visitor: false };
  const claims = await visitorClaims(options, request, tokens);
  if (!claims) refuse(401, TEXT.noIdentity);
  return { userId: claims.userId, visitor: true };
}
