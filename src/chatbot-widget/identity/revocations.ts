/**
 * Revoking visitor tokens at the handler (`DELETE {base}/visitor`) when the visitor is reset, so
 * that a copy of the token (a tab not yet told, a script of the page that read it) stops working.
 * A chunk of its own, loaded by identity/visitor.ts on a reset, or on a connection while a token
 * waits to be revoked: most visitors never reset. A token the handler could not be asked to revoke
 * (offline) is kept aside by visitor.ts, apart from the identity, and revoked here on a later
 * connection.
 */
import { RequestFailure, type Transport } from '../io/transport.js';

/** reset() waits this long for the handler before it forgets the visitor locally anyway. */
const REVOKE_TIMEOUT_MS = 5_000;

/** Asks the handler to revoke `token`. Resolves to whether it is revoked, or never will be. */
export async function revokeAt(transport: Transport, token: string, signal?: AbortSignal): Promise<boolean> {
  try {
    await transport.send('DELETE', '/visitor', { timeoutMs: REVOKE_TIMEOUT_MS, signal }, token);
    return true;
  } catch (error) {
    // 401: no longer valid anyway (expired, or revoked by another tab). Anything else a 4xx
    // says will not change on a later try either.
    return error instanceof RequestFailure && error.status >= 400 && error.status < 500 && error.status !== 429;
  }
}

/**
 * Revokes the tokens a reset kept aside, one after the other. Resolves to those still to revoke:
 * the ones the handler could not be asked about, and all that were left when `signal` aborted
 * (the widget removed, another endpoint).
 */
export async function revokeEach(transport: Transport, tokens: readonly string[], signal?: AbortSignal): Promise<string[]> {
  const left: string[] = [];
  for (const token of tokens) if (signal?.aborted || !(await revokeAt(transport, token, signal))) left.push(token);
  return left;
}
