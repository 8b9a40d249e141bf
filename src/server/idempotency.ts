/**
 * Idempotency records: one per identity and `Idempotency-Key`, in the handler's store, built
 * from `add` (claim) and `swap` (complete, hand over, release) so that of any number of
 * requests with one key, on any number of instances, exactly one acts at a time.
 *
 * A record is, as JSON text:
 * - `pending`: an instance is sending; others wait for it until its lease ends (upstream timeout
 *   times the calls it makes, plus a margin), so a crashed instance cannot hold a key forever;
 * - `done`: the first outcome (status and body text), answered to every repeat for 24 hours;
 * - `uncertain`: an attempt ended without a word from upstream (5xx, timeout, dropped connection)
 *   and may or may not be stored; the next request with the key looks upstream first.
 */
import { ID_PATTERN } from '../shared/limits.js';
import type { ResolvedOptions } from './options.js';
import { refuse, TEXT } from './responses.js';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Marks an answer given from a key's record (`true`): the send was not made again. */
export const REPLAYED_HEADER = 'Idempotency-Replayed';
/** How long a key's outcome is kept. */
export const OUTCOME_TTL_MS = 24 * 60 * 60 * 1000;
/** How often a waiting request looks at the store (an in-process completion wakes it at once). */
const POLL_MS = 100;
/** Uncertain attempts remembered per key: enough for a few retries through a bad connection. */
const MAX_ATTEMPTS = 8;
/** Upstream calls an owner may make while holding a key: look-up, send, look-up. */
const CALLS_PER_LEASE = 3;
const LEASE_MARGIN_MS = 5_000;

/** One attempt that reached upstream: when it began and ended (ms), and what it sent. */
export interface Attempt {
  startedAt: number;
  endedAt: number;
  content: string;
}

type IdempotencyRecord =
  | { state: 'pending'; owner: string; leaseUntil: number; startedAt: number; content: string; attempts: Attempt[] }
  /** `body` is the answer's JSON itself, not JSON text in a string: escaping it again would cost memory. */
  | { state: 'done'; status: number; body: unknown }
  | { state: 'uncertain'; attempts: Attempt[] };

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

  constructor(
    private readonly options: ResolvedOptions,
    userId: string,
    readonly key: string,
  ) {
    this.recordKey = `${options.chatbotId}:idem:${userId}:${key}`;
  }

  /**
   * The finished outcome of the key, waiting while another request holds it; undefined when the
   * key is free or uncertain (a request may act on it).
   */
  async settled(): Promise<Outcome | undefined> {
    for (;;) {
      const text = await this.options.store.get(this.recordKey);
      const record = text === undefined ? undefined : parse(text);
      if (record?.state === 'done') return outcomeOf(record);
      if (record?.state !== 'pending' || record.leaseUntil <= this.options.now()) return undefined;
      await nap(this.recordKey, Math.min(POLL_MS, record.leaseUntil - this.options.now()));
    }
  }

  /** Takes the key for a send of `content`: ours when free, uncertain or its holder's lease ended. */
  async claim(content: string): Promise<Claim> {
    const { store } = this.options;
    for (;;) {
      const now = this.options.now();
      const leaseUntil = now + this.options.upstreamTimeoutMs * CALLS_PER_LEASE + LEASE_MARGIN_MS;
      const owner = crypto.randomUUID();
      const pending = (attempts: Attempt[]) =>
        JSON.stringify({ state: 'pending', owner, leaseUntil, startedAt: now, content, attempts } satisfies IdempotencyRecord);
      const fresh = pending([]);
      if (await store.add(this.recordKey, fresh, now + OUTCOME_TTL_MS))
        return { owned: new OwnedKey(this, this.options, fresh, [], content) };
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
      if (await store.swap(this.recordKey, text, taken, now + OUTCOME_TTL_MS))
        return { owned: new OwnedKey(this, this.options, taken, attempts, content) };
    }
  }
}

/** A key this request holds: it must end in `finish`, `uncertain` or `release`. */
export class OwnedKey {
  private readonly startedAt: number;

  constructor(
    private readonly record: IdempotencyRecordOf,
    private readonly options: ResolvedOptions,
    private readonly value: string,
    /** Earlier attempts that may have been stored: look for them before sending. */
    readonly earlierAttempts: readonly Attempt[],
    readonly content: string,
  ) {
    this.startedAt = options.now();
  }

  get key(): string {
    return this.record.key;
  }

  /** This request's attempt, from when it took the key until now. */
  attempt(): Attempt {
    return { startedAt: this.startedAt, endedAt: this.options.now(), content: this.content };
  }

  /** Keeps the outcome for every repeat. */
  finish(outcome: Outcome): Promise<void> {
    // The body is JSON text already: spliced in as it is, it reads back as the same text.
    return this.replace(`{"state":"done","status":${outcome.status},"body":${outcome.body}}`);
  }

  /** Upstream said nothing definite: this attempt joins those the next request looks for. */
  uncertain(): Promise<void> {
    const attempts = [...this.earlierAttempts, this.attempt()].slice(-MAX_ATTEMPTS);
    return this.replace(JSON.stringify({ state: 'uncertain', attempts } satisfies IdempotencyRecord));
  }

  /** Nothing was sent this time: the key is as it was before (free, or uncertain as before). */
  release(): Promise<void> {
    if (this.earlierAttempts.length === 0) return this.replace(undefined);
    return this.replace(JSON.stringify({ state: 'uncertain', attempts: [...this.earlierAttempts] } satisfies IdempotencyRecord));
  }

  private async replace(next: string | undefined): Promise<void> {
    try {
      await this.options.store.swap(this.record.recordKey, this.value, next, this.options.now() + OUTCOME_TTL_MS);
    } finally {
      wake(this.record.recordKey);
    }
  }
}
