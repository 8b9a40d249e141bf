/**
 * Revoking visitor tokens at the handler (`DELETE {base}/visitor`) when the visitor is reset, so
 * that a copy of the token (a tab not yet told, a script of the page that read it) stops working.
 * A token the handler could not be asked to revoke (offline) is kept aside, apart from the
 * identity, and revoked on a later connection.
 */
import type { KeyValueStorage } from '../io/storage.js';
import { RequestFailure, type Transport } from '../io/transport.js';

/** reset() waits this long for the handler before it forgets the visitor locally anyway. */
const REVOKE_TIMEOUT_MS = 5_000;
/** Tokens kept for a later revocation, at most (the oldest give way). */
const MAX_WAITING_REVOCATIONS = 5;

export class Revocations {
  readonly #transport: Transport;
  readonly #storage: KeyValueStorage;
  constructor(transport: Transport, storage: KeyValueStorage) {
    this.#transport = transport;
    this.#storage = storage;
  }

  get #key() {
    return `revoke|${this.#transport.base}`;
  }

  /** Revokes a token, or keeps it for later when the handler cannot be reached. Resolves to whether it confirmed. */
  async revoke(token: string): Promise<boolean> {
    if (await this.#revoke(token)) return true;
    const waiting = (await this.#storage.get<string[]>(this.#key)) ?? [];
    await this.#storage.set(this.#key, [...waiting, token].slice(-MAX_WAITING_REVOCATIONS));
    return false;
  }

  /**
   * Revokes the tokens a reset could not revoke at the time. Work of a connection: once `signal`
   * aborts (the widget removed, another endpoint), the tokens not yet revoked wait for the next.
   */
  async revokeWaiting(signal?: AbortSignal) {
    const waiting = await this.#storage.get<string[]>(this.#key);
    if (!Array.isArray(waiting) || !waiting.length || signal?.aborted) return;
    const left: string[] = [];
    for (const token of waiting) {
      if (typeof token !== 'string') continue;
      if (signal?.aborted || !(await this.#revoke(token, signal))) left.push(token);
    }
    await (left.length ? this.#storage.set(this.#key, left) : this.#storage.delete(this.#key));
  }

  async #revoke(token: string, signal?: AbortSignal): Promise<boolean> {
    try {
      await this.#transport.send('DELETE', '/visitor', { timeoutMs: REVOKE_TIMEOUT_MS, signal }, token);
      return true;
    } catch (error) {
      // 401: no longer valid anyway (expired, or revoked by another tab). Anything else a 4xx
      // says will not change on a later try either.
      return error instanceof RequestFailure && error.status >= 400 && error.status < 500 && error.status !== 429;
    }
  }
}
