/**
 * Who the widget speaks for at one handler, and its calls made as them. Two modes, told apart by
 * the handler's answer to `POST {base}/visitor`:
 *
 * - a visitor token (`{ token, userId }`): an anonymous identity, kept in IndexedDB, sent as
 *   `Authorization: Bearer` and renewed through `/visitor`;
 * - the site's own login (`{ token: null, userId }`, from the handler's `identify`): no token at
 *   all. The page's credentials (its cookies, see the `credentials` attribute) say who calls, so
 *   the user may change behind the widget's back (signed out, another user signed in). Their user
 *   id is asked again whenever the widget starts, the tab comes back into view or a call is
 *   refused (401), and nothing of the records kept for one user is shown before `/visitor` has
 *   said that user is the one signed in. A 401 from `/visitor` means nobody is.
 *
 * A change of user id is told to `onChange`, which starts the conversation over for the new one.
 */
import { DAY_MS } from '../../shared/limits.js';
import type { Envelope } from '../../shared/types.js';
import { keyPart, type KeyValueStorage } from '../io/storage.js';
import { RequestFailure, type RequestOptions, type Transport } from '../io/transport.js';
import { rememberVisitor } from './visitor-name.js';

/** Who the widget speaks for. */
export interface VisitorIdentity {
  /** The visitor token; null when the handler speaks for the site's own login. */
  token: string | null;
  userId: string;
  /** When `/visitor` last answered for it (Unix ms); absent in a record kept before it was noted. */
  renewedAt?: number;
}

/** As stored: `userId` null when the handler speaks for the site's login and nobody was signed in. */
interface StoredIdentity {
  token: string | null;
  userId: string | null;
  renewedAt?: number;
}

/**
 * A stored token older than this is renewed in the background when the widget starts. The handler
 * renews a token only while it is valid (30 days by default) and issues a new identity, with no
 * history, for an expired one: a visitor who comes back now and then keeps their conversations
 * only if the token is renewed while it is still good.
 */
const RENEW_AFTER_MS = DAY_MS;
/** Tokens kept for a later revocation, at most (the oldest give way). */
const MAX_WAITING_REVOCATIONS = 5;

/**
 * Where the records of the site's signed-in users are kept for an endpoint, each user's under
 * `<this>|<user id>` (its `|` escaped, see keyPart): apart from a visitor token's (under the endpoint itself), so that no
 * prefix of one lists the other's.
 */
export const signedInNamespace = (base: string) => `signed-in|${base}`;

/** Called when the user id changes: `next` undefined when nobody is signed in any more. */
export type IdentityChange = (previous: VisitorIdentity | undefined, next: VisitorIdentity | undefined) => void;

export class Visitor {
  /** The handler's base URL (as the transport has it). */
  readonly base: string;
  #identity: VisitorIdentity | undefined;
  /** The handler speaks for the site's login: its last `/visitor` answer had no token, or a 401. */
  #siteLogin = false;
  #issuing: Promise<VisitorIdentity> | undefined;
  #loaded: Promise<void> | undefined;

  readonly #transport: Transport;
  readonly #storage: KeyValueStorage;
  readonly #onChange: IdentityChange;
  constructor(transport: Transport, storage: KeyValueStorage, onChange: IdentityChange = () => {}) {
    this.#transport = transport;
    this.#storage = storage;
    this.#onChange = onChange;
    this.base = transport.base;
  }

  get #key() {
    return `identity|${this.base}`;
  }

  /** Whether the handler speaks for the site's own login (no visitor tokens). */
  get siteLogin() {
    return this.#siteLogin;
  }

  /** The handler speaks for the site's login and, as `/visitor` last said, nobody is signed in. */
  get signedOut() {
    return this.#siteLogin && !this.#identity;
  }

  /**
   * The namespace of this identity's outbox and unread count: the endpoint's for a visitor token
   * (as kept since before signed-in users existed), one per user id for the site's login.
   */
  get namespace() {
    return this.#siteLogin ? `${signedInNamespace(this.base)}|${keyPart(this.#identity?.userId ?? '')}` : this.base;
  }

  /**
   * The stored identity, if any, without waiting for the server. A token renewed more than a day
   * ago is renewed meanwhile ({@link RENEW_AFTER_MS}).
   */
  async stored(): Promise<VisitorIdentity | undefined> {
    this.#loaded ??= this.#storage.get<StoredIdentity>(this.#key).then(async (stored) => {
      if (this.#identity || !stored || typeof stored !== 'object') return;
      if (stored.token === null) {
        this.#siteLogin = true;
        if (typeof stored.userId === 'string' && stored.userId) this.#identity = { token: null, userId: stored.userId };
        return;
      }
      if (typeof stored.token !== 'string' || !stored.token || typeof stored.userId !== 'string' || !stored.userId) return;
      this.#identity = { token: stored.token, userId: stored.userId, renewedAt: stored.renewedAt };
      if (stored.renewedAt === undefined) {
        // Kept before renewals were noted: counted from now, without a call at start-up.
        this.#identity.renewedAt = Date.now();
        await this.#storage.set(this.#key, this.#identity);
      } else if (Date.now() - stored.renewedAt > RENEW_AFTER_MS) {
        // Offline or refused: the stored token stays, and the next start tries again.
        this.#issue(undefined).catch(() => undefined);
      }
    });
    await this.#loaded;
    return this.#identity;
  }

  /**
   * The identity whose records may be shown, and as whom a message or rating may be sent: the
   * stored one; for the site's login, the user `/visitor` names now (rejects with `signed-out`
   * when nobody is signed in), since the page's cookies may belong to someone else than when it
   * was stored. Asked afresh ({@link #askAfresh}): a send goes with the cookies of now.
   */
  async confirmed(signal?: AbortSignal): Promise<VisitorIdentity | undefined> {
    const stored = await this.stored();
    return this.#siteLogin ? this.#askAfresh(signal) : stored;
  }

  /** The identity, asking `/visitor` for one when there is none yet. */
  async ensure(signal?: AbortSignal): Promise<VisitorIdentity> {
    return (await this.stored()) ?? this.#issue(signal);
  }

  /** For the site's login: asks `/visitor` who is signed in now (the tab came back into view). */
  async recheck(signal?: AbortSignal) {
    await this.stored();
    if (this.#siteLogin) await this.#askAfresh(signal);
  }

  /**
   * Asks `/visitor` with the page's cookies of now. A call already on its way may have left with
   * the cookies of before (another user signed in on another page meanwhile): its answer is not
   * this question's, so the question is asked after it. Callers that ask together share the call.
   */
  async #askAfresh(signal?: AbortSignal): Promise<VisitorIdentity> {
    await this.#issuing?.catch(() => undefined);
    return this.#issue(signal);
  }

  /**
   * Asks `/visitor`: given the current token the handler renews it; for the site's login it names
   * the user signed in, and refuses (401) when nobody is.
   */
  #issue(signal?: AbortSignal): Promise<VisitorIdentity> {
    this.#issuing ??= (async () => {
      try {
        let body: Envelope<Partial<Record<'token' | 'userId', unknown>>> | undefined;
        try {
          const token = this.#identity?.token ?? undefined;
          body = await this.#transport.send('POST', '/visitor', { signal }, token);
        } catch (error) {
          // Only a handler that speaks for the site's login refuses /visitor: nobody is signed in.
          if (!(error instanceof RequestFailure) || error.status !== 401) throw error;
          await this.#adopt(undefined, true);
          throw new RequestFailure('signed-out', 401, error.detail);
        }
        const data = body?.data;
        const siteLogin = data?.token === null;
        if (!data || (typeof data.token !== 'string' && !siteLogin) || typeof data.userId !== 'string' || !data.userId) {
          throw new RequestFailure(
            'identity',
            200,
            "The handler's answer to POST /visitor has no visitor identity (a token, or null, and a userId): check that endpoint is the signing handler's base path.",
          );
        }
        const identity: VisitorIdentity = { token: siteLogin ? null : (data.token as string), userId: data.userId, renewedAt: Date.now() };
        await this.#adopt(identity, siteLogin);
        return identity;
      } finally {
        this.#issuing = undefined;
      }
    })();
    return this.#issuing;
  }

  /** Keeps what `/visitor` answered, and tells of a change of user id. */
  async #adopt(identity: VisitorIdentity | undefined, siteLogin: boolean) {
    const previous = this.#identity;
    const changed = identity?.userId !== previous?.userId || siteLogin !== this.#siteLogin;
    // The first-paint record must never outlive its visitor: unnamed before the identity
    // changes, named again once the new one is stored.
    if (changed) rememberVisitor(this.base, undefined);
    this.#identity = identity;
    this.#siteLogin = siteLogin;
    const stored: StoredIdentity = identity ?? { token: null, userId: null };
    await this.#storage.set(this.#key, stored);
    this.nameVisitor();
    if (changed) this.#onChange(previous, identity);
  }

  /**
   * Names the stored visitor beside the first-paint record (first-paint-record.ts), where the
   * identity is kept across reloads; where it lives in memory only, a reload has no visitor. A
   * user of the site's login is never named: the record is read in the first frame, before
   * `/visitor` could say who is signed in, so for them there is none.
   */
  nameVisitor() {
    rememberVisitor(this.base, this.#storage.persistent && !this.#siteLogin ? this.#identity?.userId : undefined);
  }

  /**
   * A call as the visitor: with their token, or (the site's login) with the page's credentials
   * only. A 401 asks `/visitor` once and repeats the call: with the renewed token (the same
   * visitor if the handler still can, a new one if not), or for the same signed-in user; a call
   * made for one user is never repeated for another.
   */
  async request<T>(method: 'GET' | 'POST', path: string, options: RequestOptions = {}): Promise<T> {
    const identity = await this.ensure(options.signal);
    try {
      return await this.#transport.send<T>(method, path, options, identity.token ?? undefined);
    } catch (error) {
      if (!(error instanceof RequestFailure) || error.status !== 401) throw error;
      const renewed = await this.#issue(options.signal);
      if (renewed.token === null && renewed.userId !== identity.userId) throw new RequestFailure('identity', 401, error.detail);
      return this.#transport.send<T>(method, path, options, renewed.token ?? undefined);
    }
  }

  /**
   * Revokes the visitor's token at the handler (revocations.ts, loaded now). The site's login has
   * no token: signing out is the site's business. A token the handler cannot be asked about now
   * (offline, or the revocation code cannot be fetched) is kept aside for a later connection.
   * Resolves to whether nothing is left to revoke.
   */
  async revoke(): Promise<boolean> {
    const identity = await this.stored();
    if (!identity?.token) return true;
    const { token } = identity;
    const code = await import('./revocations.js').catch(() => undefined);
    if (code && (await code.revokeAt(this.#transport, token))) return true;
    await this.#storage.set(this.#waitingKey, [...(await this.#waitingTokens()), token].slice(-MAX_WAITING_REVOCATIONS));
    return false;
  }

  /**
   * Revokes the tokens a reset could not revoke at the time, until `signal` aborts. Nearly every
   * connection has none waiting: the revocation code is fetched only when one does.
   */
  async revokeWaiting(signal?: AbortSignal) {
    const waiting = await this.#waitingTokens();
    if (!waiting.length || signal?.aborted) return;
    // Code that cannot be fetched now (offline) is asked for again on the next connection.
    const code = await import('./revocations.js').catch(() => undefined);
    if (!code) return;
    const left = await code.revokeEach(this.#transport, waiting, signal);
    await (left.length ? this.#storage.set(this.#waitingKey, left) : this.#storage.delete(this.#waitingKey));
  }

  /** The tokens kept aside, as stored (anything else in their place counts as none). */
  async #waitingTokens(): Promise<string[]> {
    const stored = await this.#storage.get<unknown>(this.#waitingKey);
    return Array.isArray(stored) ? stored.filter((token): token is string => typeof token === 'string') : [];
  }

  /** Where tokens wait to be revoked, apart from the identity (a reset forgets that). */
  get #waitingKey() {
    return `revoke|${this.base}`;
  }

  /** Forgets the identity here and in storage; the next call asks for a new one. */
  async forget() {
    await this.stored();
    rememberVisitor(this.base, undefined);
    this.#identity = undefined;
    this.#siteLogin = false;
    await this.#storage.delete(this.#key);
  }
}
