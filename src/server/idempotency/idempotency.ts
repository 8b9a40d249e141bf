/**
 * Idempotency records: one per identity and `Idempotency-Key`, in the handler's store, built
 * from `add` (claim) and `swap` (complete, hand over, release) so that of any number of
 * requests with one key, on any number of instances, exactly one acts at a time.
 *
 * A record is, as JSON text:
 * - `pending`: an instance is sending; others wait for it until its lease ends, so a crashed
 *   instance cannot hold a key forever. The holder renews the lease before each upstream call it
 *   makes (every page of a look-up, the send), so a lease ends only when its holder stopped working;
 * - `done`: the first outcome (status and body text), answered to every repeat for 24 hours;
 * - `uncertain`: an attempt ended without a word from upstream (5xx, timeout, dropped connection)
 *   and may or may not be stored; the next request with the key looks upstream first.
 */
import { IDEMPOTENCY_KEY_HEADER } from '../../shared/headers.js';
import { DAY_MS, ID_PATTERN } from '../../shared/limits.js';
import type { ResolvedOptions } from '../core/options.js';
import { refuse, TEXT } from '../core/responses.js';

/** How long a key's outcome is kept. */
export const OUTCOME_TTL_MS = DAY_MS;
/** How often a waiting request looks at the store (an in-process completion wakes it at once). */
const POLL_MS = 100;
/** Uncertain attempts remembered per key: enough for a few retries through a bad connection. */
const MAX_ATTEMPTS = 8;
/**
 * Upstream calls a lease covers. Its holder renews it before each call, so one would do; the
 * others leave room for a slow store or a busy event loop between two renewals.
 */
const CALLS_PER_LEASE = 3;
const LEASE_MARGIN_MS = 5_000;

/** One attempt that reached upstream: when it began and ended (ms), and what it sent. */
export interface Attempt {
  startedAt: number;
  endedAt: number;
  content: string;
}

type PendingRecord = { state: 'pending'; owner: string; leaseUntil: number; startedAt: number; content: string; attempts: Attempt[] };
type IdempotencyRecord =
  | PendingRecord
  /** `body` is the answer's JSON itself, not JSON text in a string: escaping it again would cost memory. */
  | { state: 'done'; status: number; body: unknown }
  | { state: 'uncertain'; attempts: Attempt[] };

/** When a lease taken or renewed at `now` ends. */
function leaseEnd(options: ResolvedOptions, now: number): number {
  return now + options.upstreamTimeoutMs * CALLS_PER_LEASE + LEASE_MARGIN_MS;
}

/**
 * The holder's lease ended and another request took the key (this instance stalled past it): the
 * holder must not call upstream again for it.
 */
export class LostKey extends Error {
  constructor() {
    super('the idempotency key was taken over after its lease ended');
    this.name = 'LostKey';
  }
}

/** A finished outcome, to answer with. */
export interface Outcome {
  status: number;
  body: string;
}

/** The request's `Idempotency-Key`, undefined when absent; a 400 saying what a key may hold when malformed. */
export function idempotencyKeyOf(request: Request): string | undefined {
  const key = request.headers.get(IDEMPOTENCY_KEY_HEADER);
  if (key === null) return undefined;
  if (!ID_PATTERN.test(key)) refuse(400, TEXT.badIdempotencyKey);
  return key;
}

function parse(text: string): IdempotencyRecord | undefined {
  try {
    const record = JSON.parse(text) as IdempotencyRecord;
    return record && typeof record === 'object' && typeof record.state === 'string' ? record : undefined;
  } catch {
    return undefined;
  }
}

/** A kept outcome as answered: the body back to JSON text, the same as when it was recorded. */
function outcomeOf(record: { status: number; body: unknown }): Outcome {
  return { status: record.status, body: JSON.stringify(record.body) };
}

/** Requests of this process waiting on a key, woken when this process completes it. */
const waiters = new Map<string, Set<() => void>>();

function wake(recordKey: string): void {
  for (const resolve of waiters.get(recordKey) ?? []) resolve();
  waiters.delete(recordKey);
}

function nap(recordKey: string, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const set = waiters.get(recordKey) ?? new Set();
    waiters.set(recordKey, set);
    const done = () => {
      clearTimeout(timer);
      set.delete(done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    set.add(done);
  });
}

/** What `claim` found: an outcome to answer with, or the key is ours, maybe after uncertain attempts. */
export type Claim = { outcome: Outcome } | { owned: OwnedKey };

/** The idempotency record of one identity's key. */
export class IdempotencyRecordOf {
  readonly recordKey: string;

  readonly #options: ResolvedOptions;
  readonly key: string;
  constructor(options: ResolvedOptions, userId: string, key: string) {
    this.#options = options;
    this.key = key;
    this.recordKey = `${options.chatbotId}:idem:${userId}:${key}`;
  }

  /**
   * The finished outcome of the key, waiting while another request holds it; undefined when the
   * key is free or uncertain (a request may act on it).
   */
  async settled(): Promise<Outcome | undefined> {
    for (;;) {
      const text = await this.#options.store.get(this.recordKey);
      const record = text === undefined ? undefined : parse(text);
      if (record?.state === 'done') return outcomeOf(record);
      if (record?.state !== 'pending' || record.leaseUntil <= this.#options.now()) return undefined;
      await nap(this.recordKey, Math.min(POLL_MS, record.leaseUntil - this.#options.now()));
    }
  }

  /** Takes the key for a send of `content`: ours when free, uncertain or its holder's lease ended. */
  async claim(content: string): Promise<Claim> {
    const { store } = this.#options;
    for (;;) {
      const now = this.#options.now();
      const owner = crypto.randomUUID();
      const pending = (attempts: Attempt[]): PendingRecord => ({
        state: 'pending',
        owner,
        leaseUntil: leaseEnd(this.#options, now),
        startedAt: now,
        content,
        attempts,
      });
      const fresh = pending([]);
      if (await store.add(this.recordKey, JSON.stringify(fresh), now + OUTCOME_TTL_MS))
        return { owned: new OwnedKey(this, this.#options, fresh, [], content) };
      const text = await store.get(this.recordKey);
      if (text === undefined) continue;
      const record = parse(text);
      if (record?.state === 'done') return { outcome: outcomeOf(record) };
      if (record?.state === 'pending' && record.leaseUntil > now) {
        const outcome = await this.settled();
        if (outcome) return { outcome };
        continue;
      }
      // Uncertain, or a holder that never finished (its instance crashed or lost the store):
      // whatever it sent may be stored, so its attempt is looked for before sending again.
      const attempts =
        record?.state === 'uncertain'
          ? record.attempts
          : record?.state === 'pending'
            ? [...record.attempts, { startedAt: record.startedAt, endedAt: record.leaseUntil, content: record.content }]
            : [];
      const taken = pending(attempts.slice(-MAX_ATTEMPTS));
      if (await store.swap(this.recordKey, text, JSON.stringify(taken), now + OUTCOME_TTL_MS))
        return { owned: new OwnedKey(this, this.#options, taken, attempts, content) };
    }
  }
}

/** A key this request holds: it must end in `finish`, `uncertain` or `release`. */
export class OwnedKey {
  readonly #startedAt: number;
  /** The record as this request last wrote it: every change swaps from exactly this text. */
  #value: string;

  readonly #record: IdempotencyRecordOf;
  readonly #options: ResolvedOptions;
  #pending: PendingRecord;
  /** Earlier attempts that may have been stored: look for them before sending. */
  readonly earlierAttempts: readonly Attempt[];
  readonly content: string;
  constructor(
    record: IdempotencyRecordOf,
    options: ResolvedOptions,
    pending: PendingRecord,
    earlierAttempts: readonly Attempt[],
    content: string,
  ) {
    this.#record = record;
    this.#options = options;
    this.#pending = pending;
    this.earlierAttempts = earlierAttempts;
    this.content = content;
    this.#startedAt = options.now();
    this.#value = JSON.stringify(pending);
  }

  get key(): string {
    return this.#record.key;
  }

  /** This request's attempt, from when it took the key until now. */
  attempt(): Attempt {
    return { startedAt: this.#startedAt, endedAt: this.#options.now(), content: this.content };
  }

  /**
   * Extends the lease from now, before an upstream call: the key stays this request's for as long
   * as it works, however many pages a look-up reads. The attempt keeps its start, so a request that
   * takes the key after a crash looks for this attempt's send over all the time it held the key.
   * Rejects with {@link LostKey} when the key is no longer this request's.
   */
  async renew(): Promise<void> {
    const renewed: PendingRecord = { ...this.#pending, leaseUntil: leaseEnd(this.#options, this.#options.now()) };
    const value = JSON.stringify(renewed);
    if (!(await this.#options.store.swap(this.#record.recordKey, this.#value, value, this.#options.now() + OUTCOME_TTL_MS)))
      throw new LostKey();
    this.#pending = renewed;
    this.#value = value;
  }

  /**
   * The answer for a request whose key another request took: that request's outcome once it has
   * one; when it ends without one (its attempt too was uncertain), a 503 to try again, which then
   * looks upstream for both attempts before sending.
   */
  async takenOver(): Promise<Outcome> {
    const outcome = await this.#record.settled();
    if (outcome) return outcome;
    refuse(503, TEXT.keyTakenOver, { 'Retry-After': '1' });
  }

  /** Keeps the outcome for every repeat. */
  finish(outcome: Outcome): Promise<void> {
    // The body is JSON text already: spliced in as it is, it reads back as the same text.
    return this.#replace(`{"state":"done","status":${outcome.status},"body":${outcome.body}}`);
  }

  /** Upstream said nothing definite: this attempt joins those the next request looks for. */
  uncertain(): Promise<void> {
    const attempts = [...this.earlierAttempts, this.attempt()].slice(-MAX_ATTEMPTS);
    return this.#replace(JSON.stringify({ state: 'uncertain', attempts } satisfies IdempotencyRecord));
  }

  /** Nothing was sent this time: the key keeps the state it had (free, or uncertain). */
  release(): Promise<void> {
    if (this.earlierAttempts.length === 0) return this.#replace(undefined);
    return this.#replace(JSON.stringify({ state: 'uncertain', attempts: [...this.earlierAttempts] } satisfies IdempotencyRecord));
  }

  async #replace(next: string | undefined): Promise<void> {
    try {
      await this.#options.store.swap(this.#record.recordKey, this.#value, next, this.#options.now() + OUTCOME_TTL_MS);
    } finally {
      wake(this.#record.recordKey);
    }
  }
}
