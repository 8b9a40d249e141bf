/**
 * Visitor tokens whose signature and payload were already checked. A visitor presents the same
 * token with every request for as long as it lives; checking it costs an HMAC, two base64 passes
 * and a JSON parse each time, so each handler remembers the outcome for the tokens it saw last.
 * Only what depends on the token's text alone is remembered: expiry is asked afresh on every
 * request, and revocation is not part of this (identity.ts asks the store each time).
 */
import { isCurrent, signedClaims, type VisitorClaims } from './visitor-token.js';

/** Tokens remembered per handler; past it the oldest is forgotten (and checked again if it comes back). */
const REMEMBERED_TOKENS = 1_000;

export class VerifiedTokens {
  readonly #checked = new Map<string, VisitorClaims>();

  readonly #key: () => Promise<string>;
  readonly #audience: string;
  constructor(key: () => Promise<string>, audience: string) {
    this.#key = key;
    this.#audience = audience;
  }

  /** The claims of `token` when it is valid at `nowSeconds`; undefined otherwise. */
  async claims(token: string, nowSeconds: number): Promise<VisitorClaims | undefined> {
    let claims = this.#checked.get(token);
    if (!claims) {
      claims = await signedClaims(await this.#key(), token, this.#audience);
      if (!claims) return undefined;
      if (this.#checked.size >= REMEMBERED_TOKENS) this.#checked.delete(this.#checked.keys().next().value as string);
      this.#checked.set(token, claims);
    }
    return isCurrent(claims, nowSeconds) ? claims : undefined;
  }
}
