// Two `npm start` processes on two ports with one CHATBOT_REDIS_URL, in front of one upstream
// (the first one's emulator): they act as one handler. A token from one works on the other, one
// identity's 10-sends-a-minute limit holds across both, an idempotent repeat is stored once, a
// revoked token is refused by both, ratings given on either are listed the same by both; a Redis
// that stops answers 503 with a line for the site owner.
// And a CHATBOT_REDIS_URL that is wrong stops npm start with one line.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startStack, type RunningStack } from '../helpers/start-stack.js';
import { startRedisServer, type RunningRedis } from '../helpers/redis-server.js';
import { refusedOrigin } from '../helpers/refused-port.js';
import { assertMinuteLimit } from '../helpers/minute-burst.js';

let redis: RunningRedis;
let first: RunningStack;
let second: RunningStack;

/** The emulator credentials the first stack prints, for pointing the second at the same upstream. */
function upstreamOf(stack: RunningStack): Record<string, string> {
  const line = /export (CHATBOT_API_BASE_URL=\S+ CHATBOT_ID=\S+ CHATBOT_API_KEY=\S+ CHATBOT_API_SECRET=\S+)/.exec(stack.output());
  assert.ok(line, `the first stack printed its emulator credentials:\n${stack.output()}`);
  return Object.fromEntries(line[1]!.split(' ').map((pair) => pair.split('=') as [string, string]));
}

async function call(
  stack: RunningStack,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${stack.origin}/chatbot${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? JSON.parse(text) : undefined, retryAfter: response.headers.get('Retry-After') };
}

async function newVisitor(stack: RunningStack): Promise<{ token: string; userId: string }> {
  const issued = await call(stack, 'POST', '/visitor', undefined, {});
  assert.equal(issued.status, 200, issued.text);
  return issued.json.data;
}

describe('two npm start processes sharing one Redis', () => {
  before(async () => {
    redis = await startRedisServer();
    first = await startStack({ CHATBOT_REDIS_URL: redis.url });
    second = await startStack({ CHATBOT_REDIS_URL: redis.url, ...upstreamOf(first) });
  });
  after(async () => {
    await second?.stop();
    await first?.stop();
    await redis?.stop();
  });

  it('both say they keep the store on that Redis', () => {
    for (const stack of [first, second]) assert.match(stack.output(), new RegExp(`Store\\s+Redis at 127\\.0\\.0\\.1:${redis.port}`));
  });

  it('a visitor token issued by one works on the other', async () => {
    const visitor = await newVisitor(first);
    const sent = await call(second, 'POST', '/message', visitor.token, { content: 'hello from the second process' });
    assert.equal(sent.status, 200, sent.text);
    const listed = await call(first, 'GET', '/messages', visitor.token);
    assert.equal(listed.status, 200, listed.text);
    assert.ok(JSON.stringify(listed.json.data).includes('hello from the second process'));
  });

  it("one identity's 10 sends a minute hold across both processes", async () => {
    let refusal = '';
    // Alternating: each process sees at most 6, so with a store per process none would refuse.
    await assertMinuteLimit(10, async () => {
      const visitor = await newVisitor(first);
      return async (i) => {
        const sent = await call(i % 2 ? second : first, 'POST', '/message', visitor.token, { content: `message ${i}` });
        if (sent.status === 429) refusal = sent.text;
        return sent;
      };
    });
    assert.match(refusal, /sending messages too quickly/);
  });

  it('an idempotent repeat on the other process is answered from the first outcome and stored once', async () => {
    const visitor = await newVisitor(first);
    const key = randomUUID();
    const content = `exactly once ${key}`;
    const original = await call(first, 'POST', '/message', visitor.token, { content }, { 'Idempotency-Key': key });
    assert.equal(original.status, 200, original.text);
    const repeat = await call(second, 'POST', '/message', visitor.token, { content }, { 'Idempotency-Key': key });
    assert.equal(repeat.status, 200, repeat.text);
    assert.deepEqual(repeat.json, original.json);
    const listed = await call(second, 'GET', '/messages', visitor.token);
    const stored = (listed.json.data as { text?: string; content?: string }[]).filter((m) => (m.text ?? m.content) === content);
    assert.equal(stored.length, 1, JSON.stringify(listed.json.data));
  });

  it('ratings given on either process are one set: the latest wins across them, and both list and count the same', async () => {
    const visitor = await newVisitor(first);
    const answers: string[] = [];
    for (const content of ['first question to rate', 'second question to rate']) {
      const sent = await call(first, 'POST', '/message', visitor.token, { content }, { 'Idempotency-Key': randomUUID() });
      assert.equal(sent.status, 200, sent.text);
      answers.push(sent.json.stored[1].id);
    }
    const rate = (stack: RunningStack, messageId: string, value: string) =>
      call(stack, 'POST', '/feedback', visitor.token, { messageId, value });
    assert.equal((await rate(first, answers[0]!, 'up')).status, 204);
    assert.equal((await rate(second, answers[1]!, 'down')).status, 204);
    assert.equal((await rate(second, answers[0]!, 'down')).status, 204, 'the rating of the first process, changed on the second');
    const month = new Date().toISOString().slice(0, 7);
    const next = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 1)).toISOString().slice(0, 10);
    const views = [];
    for (const stack of [first, second]) {
      const admin = { 'X-Admin-Token': stack.adminToken };
      const listing = await call(stack, 'GET', '/admin/feedback?pageSize=100', undefined, undefined, admin);
      assert.equal(listing.status, 200, listing.text);
      const counts = await call(stack, 'GET', `/admin/feedback/count-by-month?from=${month}-01&to=${next}`, undefined, undefined, admin);
      assert.equal(counts.status, 200, counts.text);
      views.push({ listing: listing.json, counts: counts.json });
    }
    assert.deepEqual(views[1], views[0], 'both processes answer alike');
    const mine = (views[0]!.listing.data as { messageId: string; value: string }[]).filter((item) => answers.includes(item.messageId));
    assert.deepEqual(
      mine.map((item) => [item.messageId, item.value]),
      [
        [answers[0], 'down'],
        [answers[1], 'down'],
      ],
      'newest first, one rating per answer',
    );
    assert.deepEqual(views[0]!.counts.data, [{ month, up: 0, down: 2 }]);
  });

  it('a token revoked on one process is refused by both', async () => {
    const visitor = await newVisitor(second);
    assert.equal((await call(first, 'GET', '/sessions', visitor.token)).status, 200);
    const revoked = await call(second, 'DELETE', '/visitor', visitor.token);
    assert.equal(revoked.status, 204, revoked.text);
    assert.equal((await call(first, 'GET', '/sessions', visitor.token)).status, 401);
    assert.equal((await call(second, 'GET', '/sessions', visitor.token)).status, 401);
  });

  // Last two: they stop the shared Redis and start it again.
  it('when Redis stops, both answer 503 and tell the site owner in their log', async () => {
    const visitor = await newVisitor(first);
    await redis.stop();
    for (const stack of [first, second]) {
      const started = Date.now();
      const sent = await call(stack, 'POST', '/message', visitor.token, { content: 'while Redis is down' });
      assert.equal(sent.status, 503, sent.text);
      // Refused while the client reconnects (demo/redis.ts), not after the store's 2 s bound.
      assert.ok(Date.now() - started < 2_000, `answered in ${Date.now() - started} ms, not at once`);
      assert.doesNotMatch(sent.text, /redis|ECONNREFUSED|at .*\.ts/i, 'the visitor is not told the internals');
      const issued = await call(stack, 'POST', '/visitor', undefined, {});
      assert.equal(issued.status, 503, issued.text);
    }
    for (const stack of [first, second]) assert.match(stack.output(), /Redis at 127\.0\.0\.1:\d+ \(CHATBOT_REDIS_URL\) is unreachable/);
  });

  it('when Redis is back, both answer again and say so in their log', async () => {
    await redis.restart();
    for (const stack of [first, second]) {
      // The client reconnects with a back-off of at most 2 s.
      let status = 0;
      for (const deadline = Date.now() + 15_000; status !== 200 && Date.now() < deadline;) {
        status = (await call(stack, 'POST', '/visitor', undefined, {})).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
      }
      assert.equal(status, 200, stack.output());
      assert.match(stack.output(), /Redis at 127\.0\.0\.1:\d+ is back/);
    }
  });
});

describe('npm start with a wrong CHATBOT_REDIS_URL', () => {
  const failureOf = async (url: string): Promise<string> => {
    const error = await startStack({ CHATBOT_REDIS_URL: url }).then(
      async (stack) => {
        await stack.stop();
        return undefined;
      },
      (failure: Error) => failure,
    );
    assert.ok(error, 'npm start refused to start');
    return error.message.replace(/^npm start exited with \d+:\n/, '').trim();
  };

  it('stops with one line when no Redis answers there', async () => {
    const url = (await refusedOrigin()).replace('http:', 'redis:');
    const output = await failureOf(url);
    assert.equal(output.split('\n').length, 1, output);
    assert.match(output, /^npm start: CHATBOT_REDIS_URL: no Redis answers at 127\.0\.0\.2:\d+ \(.*ECONNREFUSED.*\)/);
  });

  it('stops with one line when the value is not a Redis URL, without repeating it', async () => {
    const output = await failureOf('http://:hunter2@example.com');
    assert.equal(output.split('\n').length, 1, output);
    assert.match(output, /^npm start: CHATBOT_REDIS_URL must be a Redis URL such as redis:\/\/127\.0\.0\.1:6379/);
    assert.doesNotMatch(output, /hunter2/);
  });
});
