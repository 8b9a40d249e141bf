// A burst of requests against one of the handler's per-minute limits, and the exact answers it
// must get. The limits count in fixed UTC minutes (windowAt in src/server/budgets/rate-limits.ts),
// so whatever a test counts against one has to fall inside one minute: `untilMinuteHasLeft` waits
// for the next minute when too little of this one is left. From a client whose count starts at
// `spent` (zero for a fresh address or identity), a limit of N then answers exactly N - spent
// times 200 and a 429, whose Retry-After is the seconds left of that minute.
import assert from 'node:assert/strict';

const MINUTE_MS = 60_000;

/** Resolves once at least `seconds` are left of the current UTC minute: at once, or as the next one begins. */
export async function untilMinuteHasLeft(seconds: number): Promise<void> {
  const left = MINUTE_MS - (Date.now() % MINUTE_MS);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/** Whole seconds from `at` to the end of its minute, at least 1: the Retry-After of a minute's refusal. */
const secondsLeftOfMinute = (at: number) => Math.max(1, Math.ceil((MINUTE_MS - (at % MINUTE_MS)) / 1000));

export interface LimitAnswer {
  status: number;
  retryAfter: string | null | undefined;
}

/**
 * Makes `limit - spent + 1` attempts one after another (`attempt(i)`, from 0) and asserts the
 * answers: `limit - spent` times 200, then one 429 whose Retry-After is the seconds left of the
 * minute. Call `untilMinuteHasLeft` first, before the `spent` requests if there are any: all of
 * them must fall in one minute. `describe` adds to a failure's message (a server's output).
 */
export async function assertMinuteLimit(
  limit: number,
  attempt: (index: number) => Promise<LimitAnswer>,
  { spent = 0, describe = () => '' }: { spent?: number; describe?: () => string } = {},
): Promise<void> {
  const answers: Array<LimitAnswer & { sentAt: number; answeredAt: number }> = [];
  for (let i = 0; i < limit - spent + 1; i++) {
    const sentAt = Date.now();
    const answer = await attempt(i);
    answers.push({ ...answer, sentAt, answeredAt: Date.now() });
  }
  const refused = answers.at(-1)!;
  assert.equal(
    Math.floor(refused.answeredAt / MINUTE_MS),
    Math.floor(answers[0]!.sentAt / MINUTE_MS),
    'the burst fell in one minute (give untilMinuteHasLeft more seconds)',
  );
  assert.deepEqual(
    answers.map((answer) => answer.status),
    [...Array(limit - spent).fill(200), 429],
    `a limit of ${limit} a minute${spent ? `, ${spent} spent before` : ''}${describe()}`,
  );
  const seconds = Number(refused.retryAfter);
  assert.ok(
    seconds <= secondsLeftOfMinute(refused.sentAt) && seconds >= secondsLeftOfMinute(refused.answeredAt),
    `Retry-After ${refused.retryAfter}: the ${secondsLeftOfMinute(refused.answeredAt)} s left of the minute it was refused in`,
  );
}
