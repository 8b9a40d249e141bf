// A burst of requests against one of the handler's per-minute limits, and the exact answers it
// must get. The limits count in fixed UTC minutes (windowAt in src/server/budgets/rate-limits.ts):
// from a client whose count starts at zero (an address or identity no request came from), a
// limit of N answers a burst inside one minute with exactly N times 200 and then a 429, whose
// Retry-After is the seconds left of that minute.
import assert from 'node:assert/strict';

const MINUTE_MS = 60_000;
const minuteOf = (at: number) => Math.floor(at / MINUTE_MS);

/** Whole seconds from `at` to the end of its minute, at least 1: the Retry-After of a minute's refusal. */
const secondsLeftOfMinute = (at: number) => Math.max(1, Math.ceil((MINUTE_MS - (at % MINUTE_MS)) / 1000));

export interface LimitAnswer {
  status: number;
  retryAfter: string | null | undefined;
}

/** The `index`-th request of a burst (from 0), all from one client. */
export type Attempt = (index: number) => Promise<LimitAnswer>;

/**
 * Makes `limit + 1` attempts one after another from a new client (`newClient()` gives the
 * client's attempt) and asserts the answers: `limit` times 200, then one 429 whose Retry-After is
 * the seconds left of the minute. A burst that the turn of a minute splits proves nothing either
 * way; it is made again from another new client, rather than every burst waiting for a minute
 * with room. `describe` adds to a failure's message (a server's output).
 */
export async function assertMinuteLimit(
  limit: number,
  newClient: () => Attempt | Promise<Attempt>,
  { describe = () => '' }: { describe?: () => string } = {},
): Promise<void> {
  for (let burst = 0; burst < 3; burst++) {
    const attempt = await newClient();
    const answers: Array<LimitAnswer & { sentAt: number; answeredAt: number }> = [];
    for (let i = 0; i <= limit; i++) {
      const sentAt = Date.now();
      const answer = await attempt(i);
      answers.push({ ...answer, sentAt, answeredAt: Date.now() });
    }
    const refused = answers.at(-1)!;
    if (minuteOf(answers[0]!.sentAt) !== minuteOf(refused.answeredAt)) continue;
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [...Array(limit).fill(200), 429],
      `a limit of ${limit} a minute${describe()}`,
    );
    const seconds = Number(refused.retryAfter);
    assert.ok(
      seconds <= secondsLeftOfMinute(refused.sentAt) && seconds >= secondsLeftOfMinute(refused.answeredAt),
      `Retry-After ${refused.retryAfter}: the ${secondsLeftOfMinute(refused.answeredAt)} s left of the minute it was refused in`,
    );
    return;
  }
  assert.fail('three bursts in a row were split by the turn of a minute: each takes longer than a minute should allow');
}
