/**
 * Realistic demo conversations for the emulator (`--demo-data N`) and its benchmarks: several named
 * users, sessions that follow the emulator's 30-minute rule, a question and then its reply, activity
 * that grows over the months, a few messages with an attachment URL.
 *
 * Deterministic: the same options (with `now` given) always yield the same records, from a small
 * seeded PRNG. Fast: every text comes from a fixed pool whose token counts are computed once per
 * call, so a million records take about a second (`npx tsx bench/demo-data.ts`).
 */
import { SESSION_GAP_MS } from './send.js';
import { countTokens } from './tokens.js';
import { ATTACHMENT_ANSWER, ATTACHMENT_QUESTIONS, FIRST_NAMES, FOLLOW_UPS, LAST_NAMES, OPENERS, TOPICS, type Topic } from './demo-texts.js';

/** One message of a seed file (JSON Lines): the shape `--seed` imports. */
export interface SeedRecord {
  chatbotId: string;
  chatSessionId: string;
  chatUserId: string;
  /** `User` or `Bot` here; a seed file may hold other senders. */
  senderType: string;
  text: string;
  /** ISO 8601 UTC. */
  createdAt: string;
  id?: string;
  userName?: string;
  url?: string;
  tokenCount?: number;
  /** Seconds the bot took to answer; on Bot messages only. */
  responseTime?: number | null;
}

interface DemoMessagesOptions {
  /** Exactly how many records to yield. */
  count: number;
  chatbotId: string;
  /** End of the period (default: the current time). Give it for reproducible output. */
  now?: Date;
  /** Length of the period, in calendar months before `now` (default 18). */
  months?: number;
  /** PRNG seed, any 32-bit integer (default 1). */
  seed?: number;
}

/** Sessions end this long before `now` at the latest, so no record lies in the future. */
const END_MARGIN_MS = 3 * 3_600_000;
/** Density of sessions over the period is proportional to GROWTH_FLOOR + t (t from 0 to 1): ~5x growth. */
const GROWTH_FLOOR = 0.25;

/** mulberry32: a tiny, fast, well-distributed 32-bit PRNG; returns floats in [0, 1). */
export function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A message waiting to be yielded, ordered by time and then by creation. */
interface Pending {
  time: number;
  order: number;
  record: SeedRecord;
}

/** A binary min-heap of pending messages: sessions overlap in time, so their messages are merged. */
class PendingQueue {
  #items: Pending[] = [];
  get size(): number {
    return this.#items.length;
  }
  peek(): Pending | undefined {
    return this.#items[0];
  }
  push(item: Pending): void {
    const items = this.#items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(item, items[parent]!)) break;
      items[i] = items[parent]!;
      i = parent;
    }
    items[i] = item;
  }
  pop(): Pending | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (top === undefined || last === undefined || items.length === 0) return top;
    let i = 0;
    for (;;) {
      const left = 2 * i + 1;
      if (left >= items.length) break;
      const right = left + 1;
      const child = right < items.length && before(items[right]!, items[left]!) ? right : left;
      if (!before(items[child]!, last)) break;
      items[i] = items[child]!;
      i = child;
    }
    items[i] = last;
    return top;
  }
}

function before(a: Pending, b: Pending): boolean {
  return a.time < b.time || (a.time === b.time && a.order < b.order);
}

/**
 * Yields `count` realistic messages of `chatbotId` over the `months` before `now`, in ascending
 * `createdAt` order, ready to be written as a seed file or imported.
 *
 * Each session belongs to one user and holds 1–4 exchanges: a `User` question, then the `Bot` reply
 * a few seconds later (with `responseTime`), the next question minutes later. A user's next
 * session starts at least 30 minutes after their previous one ended. Sessions become more frequent
 * over the months (about 5x from the first month to the last). When `count` is odd, the last
 * question has no reply yet. Records carry no `id`: the importer assigns them. Session ids are
 * `demo-<seed>-<now>-<n>` (base 36), user ids `demo-user-<n>`.
 *
 * @example
 * for (const record of generateDemoMessages({ count: 1000, chatbotId: 'demo', now: new Date('2025-01-01') })) {
 *   out.write(JSON.stringify(record) + '\n');
 * }
 */
export function generateDemoMessages(options: DemoMessagesOptions): Generator<SeedRecord> {
  const { count, chatbotId } = options;
  const months = options.months ?? 18;
  const seed = options.seed ?? 1;
  const now = options.now ?? new Date();
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a whole number >= 0, got ${count}.`);
  if (typeof chatbotId !== 'string' || chatbotId === '') throw new TypeError('chatbotId must be a non-empty string.');
  if (!Number.isInteger(months) || months < 1 || months > 1200)
    throw new RangeError(`months must be a whole number from 1 to 1200, got ${months}.`);
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}.`);
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new TypeError('now must be a valid Date.');
  return generate(count, chatbotId, now, months, seed);
}

function* generate(count: number, chatbotId: string, now: Date, months: number, seed: number): Generator<SeedRecord> {
  const random = createRandom(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

  // Token counts of the fixed text pool, once: tokenizing every record would dominate the run time.
  const tokens = new Map<string, number>();
  const tokenCount = (text: string): number => {
    let n = tokens.get(text);
    if (n === undefined) tokens.set(text, (n = countTokens(text)));
    return n;
  };
  for (const topic of TOPICS) {
    tokenCount(topic.answer);
    for (const question of topic.questions) for (const opener of OPENERS) tokenCount(opener + question);
  }

  const startDate = new Date(now.getTime());
  startDate.setUTCMonth(startDate.getUTCMonth() - months);
  const start = startDate.getTime();
  const span = Math.max(0, now.getTime() - END_MARGIN_MS - start);
  // Inverse of the growth CDF F(t) = (a t + t²/2) / (a + 1/2): even positions u become times t
  // that crowd towards the end of the period.
  const a = GROWTH_FLOOR;
  const timeAt = (u: number): number => start + span * (-a + Math.sqrt(a * a + 2 * u * (a + 0.5)));

  const userCount = Math.min(20_000, Math.max(3, Math.ceil(count / 25)));
  const userFreeAt = new Float64Array(userCount); // earliest start of each user's next session
  const userId = (u: number): string => `demo-user-${u + 1}`;
  const userName = (u: number): string =>
    `${FIRST_NAMES[u % FIRST_NAMES.length]} ${LAST_NAMES[Math.floor(u / FIRST_NAMES.length) % LAST_NAMES.length]}`;

  const queue = new PendingQueue();
  let planned = 0;
  let order = 0;
  let sessionIndex = 0;
  let lastStart = start;
  // The end time is part of session ids so that demo data generated again later (say, on the next
  // start against the same database) opens new sessions instead of joining the old ones.
  const sessionPrefix = `demo-${(seed >>> 0).toString(36)}-${Math.floor(now.getTime() / 1000).toString(36)}-`;

  while (planned < count || queue.size > 0) {
    if (planned >= count) {
      yield queue.pop()!.record;
      continue;
    }

    // Plan the next session: its size, its place on the timeline, its user.
    const roll = random();
    const exchanges = roll < 0.35 ? 1 : roll < 0.7 ? 2 : roll < 0.9 ? 3 : 4;
    const size = Math.min(exchanges * 2, count - planned);
    let sessionStart = Math.max(lastStart, Math.floor(timeAt((planned + random() * size) / count)));
    // Some users are far more active than others: squaring skews picks towards low indexes.
    let user = Math.floor(random() * random() * userCount);
    for (let tries = 0; userFreeAt[user]! > sessionStart && tries < userCount; tries++) user = (user + 1) % userCount;
    if (userFreeAt[user]! > sessionStart) sessionStart = userFreeAt[user]!; // everyone busy: wait for this one
    lastStart = sessionStart;

    // Everything up to the new session's start can go out now: later sessions start no earlier.
    while (queue.size > 0 && queue.peek()!.time <= sessionStart) yield queue.pop()!.record;

    const chatSessionId = sessionPrefix + (sessionIndex++).toString(36);
    const chatUserId = userId(user);
    const name = userName(user);
    let time = sessionStart;
    let previous: Topic | undefined;
    for (let i = 0; i < size; i += 2) {
      let question: string;
      let answer: string;
      let url: string | undefined;
      if (i === 0 && random() < 0.03) {
        question = pick(ATTACHMENT_QUESTIONS);
        answer = ATTACHMENT_ANSWER;
        url = `https://example.com/uploads/${chatSessionId}.png`;
      } else if (i > 0 && random() < 0.45) {
        [question, answer] = pick(FOLLOW_UPS);
      } else {
        let topic = pick(TOPICS);
        if (topic === previous) topic = TOPICS[(TOPICS.indexOf(topic) + 1) % TOPICS.length]!;
        previous = topic;
        question = (i === 0 ? pick(OPENERS) : '') + pick(topic.questions);
        answer = topic.answer;
      }
      const questionRecord: SeedRecord = {
        chatbotId,
        chatSessionId,
        chatUserId,
        senderType: 'User',
        text: question,
        createdAt: new Date(time).toISOString(),
        userName: name,
        tokenCount: tokenCount(question),
      };
      if (url) questionRecord.url = url;
      queue.push({ time, order: order++, record: questionRecord });
      if (i + 1 >= size) break;

      // A reply takes 0.4 s to a few seconds, mostly short; it is always strictly later.
      const responseTime = Math.round((0.4 + random() * random() * 6) * 1000) / 1000;
      time += Math.max(1, Math.round(responseTime * 1000));
      queue.push({
        time,
        order: order++,
        record: {
          chatbotId,
          chatSessionId,
          chatUserId,
          senderType: 'Bot',
          text: answer,
          createdAt: new Date(time).toISOString(),
          tokenCount: tokenCount(answer),
          responseTime,
        },
      });
      // The visitor reads and types for 20 seconds to 8 minutes: well inside one session.
      time += 20_000 + Math.floor(random() * 460_000);
    }
    planned += size;
    // `time` is now at or past the session's last message; the user's next session needs a pause
    // of 30 minutes (the emulator's rule) plus a minute, so no rounding can merge two sessions.
    userFreeAt[user] = time + SESSION_GAP_MS + 60_000;
  }
}
