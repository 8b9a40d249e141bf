/**
 * Realistic demo conversations for the emulator (`--demo-data N`) and its benchmarks: several named
 * users, sessions that follow the emulator's 30-minute rule, a question and then its reply, activity
 * that grows over the months, a few messages with an attachment URL.
 *
 * Deterministic: the same options (with `now` given) always yield the same records, from a small
 * seeded PRNG. Fast: every text comes from a fixed pool whose token counts are computed once per
 * call, so a million records take about a second (`npx tsx bench/demo-data.ts`).
 */
import { countTokens } from './tokens.js';

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

/** How long after a user's last message their next one opens a new session. */
const SESSION_GAP_MS = 30 * 60_000;
/** Sessions end this long before `now` at the latest, so no record lies in the future. */
const END_MARGIN_MS = 3 * 3_600_000;
/** Density of sessions over the period is proportional to GROWTH_FLOOR + t (t from 0 to 1): ~5x growth. */
const GROWTH_FLOOR = 0.25;

interface Topic {
  questions: string[];
  answer: string;
}

// The questions visitors ask the help bot of a product like this one, and the bot's answers.
const TOPICS: Topic[] = [
  {
    questions: ['How do I embed the widget?', 'How can I add the chat to my website?', 'where do i put the script tag'],
    answer:
      'Add `<script type="module" src="/chatbot-widget.js"></script>` to your page, then `<chatbot-widget endpoint="/chatbot" heading="Help"></chatbot-widget>` where you want it.',
  },
  {
    questions: ['Is my API secret safe?', 'Does the secret key end up in the browser?', 'Can visitors see my API key?'],
    answer:
      'Yes, it is safe: the secret stays on your server inside the signing handler, which signs every request. The browser never sees it.',
  },
  {
    questions: ['Can other visitors read my conversations?', 'Is my chat private?', 'who can see my messages'],
    answer: "Only you. Each visitor sees only their own conversations; the handler never lets anyone read another visitor's messages.",
  },
  {
    questions: ['How do I change the colours?', 'Can I make the chat match my brand?', 'how to change the font'],
    answer:
      'Set the `--chatbot-*` CSS custom properties on the element for colours, fonts, radius and size, or style parts with `::part()`.',
  },
  {
    questions: ['Is there a dark mode?', 'Does it support dark theme?'],
    answer: 'Yes: set `theme="dark"`, or `theme="auto"` to follow the visitor\'s system setting.',
  },
  {
    questions: ['Does it work with React?', 'Can I use this in my Next.js app?', 'How do I use the widget in Vue?'],
    answer:
      'Yes. Import `chatbot-widget` once and use the `<chatbot-widget>` tag like any element; listen to `chatbot-reply` and the other events for updates.',
  },
  {
    questions: ['What happens if I lose my connection?', 'Does it work offline?', "my message didn't send"],
    answer:
      'Messages typed offline wait in an outbox on your device and are sent when the connection returns. A failed one shows a retry button.',
  },
  {
    questions: ['Where can I find my old conversations?', 'How do I see my chat history?', "can I go back to yesterday's chat"],
    answer: 'Open the history from the header of the chat panel: every earlier session is listed there, newest first.',
  },
  {
    questions: ['How many messages can I send?', 'Is there a limit on messages?', 'I got a "too many requests" error'],
    answer: 'Each visitor can send 10 messages a minute and 100 a day by default. When a limit is reached, wait a moment and try again.',
  },
  {
    questions: ['Which languages does the widget support?', 'Can I translate the chat window?', 'Do you speak German?'],
    answer: 'Every text of the widget can be replaced through its `strings` property, so you can translate it into any language.',
  },
  {
    questions: ['How do I deploy the signing handler?', 'Can I run the handler on Cloudflare Workers?', 'Does it work with Express?'],
    answer: 'Use `createSigningHandler` from `chatbot-widget/server`: it runs on Express, Workers, Next.js, Deno and Bun.',
  },
  {
    questions: ['How do I open the chat from my own button?', 'Can I open the widget with JavaScript?'],
    answer:
      "Call `show()` on the element, for example `document.querySelector('chatbot-widget').show()`. `hide()` and `toggle()` work too.",
  },
  {
    questions: ['Can the chat fill a section of my page instead of floating?', 'how to make the chat inline'],
    answer: 'Set `mode="inline"`: the widget then fills its container instead of showing a launcher in the corner.',
  },
  {
    questions: ['What are your opening hours?', 'Can I talk to a human?'],
    answer: "I'm available around the clock. For anything I can't answer, leave your question here and the team will follow up.",
  },
  {
    questions: ['How much does it cost?', 'Is there a free plan?', 'What does premium include?'],
    answer:
      'The free tier includes 100 messages a day per chatbot; premium raises that to 10,000, and enterprise plans have custom limits.',
  },
  {
    questions: ['How do I reset the chat?', 'Can I delete my chat data from this device?'],
    answer: "The widget's `reset()` method forgets your identity and the cached conversations on this device.",
  },
  {
    questions: ['Does the bot understand Markdown?', 'Can the bot send links?'],
    answer:
      'Yes, replies may contain **Markdown**: links, lists and code blocks are shown formatted, and no HTML from a reply is ever run.',
  },
  {
    questions: ['Is the widget accessible?', 'Does it work with a screen reader?'],
    answer: 'Yes: it is keyboard-operable, labelled for screen readers, and its colours meet contrast guidelines.',
  },
];

// A question that comes with a screenshot: the record gets a `url`.
const ATTACHMENT_QUESTIONS = [
  'Here is a screenshot of the error I get.',
  'The chat window looks cut off on my page, see the screenshot.',
  'Is this how the launcher should look? Screenshot attached.',
];
const ATTACHMENT_ANSWER =
  'Thanks for the screenshot! Check that the page loads `/chatbot-widget.js` as a module and that `endpoint` points at your signing handler.';

const OPENERS = ['', '', '', 'Hi! ', 'Hello, ', 'Quick question: ', 'Hey there. '];
const FOLLOW_UPS: [string, string][] = [
  ['Thanks!', "You're welcome! Anything else I can help you with?"],
  ['Thank you, that worked.', 'Glad it worked! Have a great day.'],
  ['ok great', 'Great! Let me know if you have more questions.'],
  [
    'Can you explain that in more detail?',
    "Of course. The docs have a step-by-step guide with examples; the short version is above, and I'm happy to answer anything specific.",
  ],
  ['And does that work on mobile too?', 'Yes, the widget adapts to small screens and works in every modern mobile browser.'],
];

const FIRST_NAMES = [
  'Ada',
  'Ben',
  'Chloé',
  'Dmitri',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kemal',
  'Lena',
  'Mateo',
  'Nadia',
  'Oskar',
  'Priya',
  'Quentin',
  'Rosa',
  'Sven',
  'Tariq',
  'Uma',
  'Viktor',
  'Wen',
  'Ximena',
  'Yusuf',
  'Zoë',
  'Amara',
  'Bruno',
  'Camille',
  'Diego',
  'Emre',
  'Freya',
  'Gabriel',
  'Hana',
  'Ivan',
  'Julia',
  'Kofi',
  'Lucía',
  'Malik',
  'Noor',
];
const LAST_NAMES = [
  'Lovelace',
  'Okafor',
  'Martin',
  'Petrov',
  'García',
  'Haddad',
  'Hopper',
  'Tanaka',
  'Silva',
  'Becker',
  'Yilmaz',
  'Schmidt',
  'Rossi',
  'Khan',
  'Nilsson',
  'Patel',
  'Dubois',
  'Moreno',
  'Larsen',
  'Aziz',
  'Chen',
  'Novak',
  'Kim',
  'Nguyen',
  'Müller',
  'Costa',
  'Ivanova',
  'Bianchi',
  'Mensah',
  'Fischer',
];

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
  private items: Pending[] = [];
  get size(): number {
    return this.items.length;
  }
  peek(): Pending | undefined {
    return this.items[0];
  }
  push(item: Pending): void {
    const items = this.items;
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
    const items = this.items;
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
