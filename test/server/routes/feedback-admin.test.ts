// The site owner's view of the ratings, through real HTTP with the real emulator upstream:
// GET {base}/admin/feedback (newest first, filtered by from/to/value, paged like upstream's
// listings) and /admin/feedback/count-by-month, admin only, with a clear 400 for each bad value.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startFeedbackStack, type FeedbackStack } from '../helpers/feedback-stack.js';

describe('GET /admin/feedback and /admin/feedback/count-by-month', () => {
  let stack: FeedbackStack;
  /** The ratings given, oldest first: [messageId, value, when]. */
  const given: [string, 'up' | 'down', number][] = [];

  before(async () => {
    // Ratings over three months: January (2 up), February (1 up, 2 down), March (1 down), given
    // as the visitors' answers came, each by the clock of its day.
    stack = await startFeedbackStack(Date.UTC(2026, 0, 20, 9));
    const plan: [number, 'up' | 'down'][] = [
      [Date.UTC(2026, 0, 20, 9), 'up'],
      [Date.UTC(2026, 0, 31, 23, 59), 'up'],
      [Date.UTC(2026, 1, 1), 'down'],
      [Date.UTC(2026, 1, 14, 12), 'up'],
      [Date.UTC(2026, 1, 20, 8), 'down'],
      [Date.UTC(2026, 2, 3, 10), 'down'],
    ];
    for (const [when, value] of plan) {
      stack.clock.now = when;
      const visitor = await stack.visitor();
      const { answerId } = await stack.ask(visitor.token, `Question of ${new Date(when).toISOString()}`);
      const response = await stack.rate(visitor.token, { messageId: answerId, value, comment: `said on ${when}` });
      assert.equal(response.status, 204, response.text);
      given.push([answerId, value, when]);
    }
    stack.clock.now = Date.UTC(2026, 2, 10);
  });
  after(() => stack.close());

  const ids = (items: { messageId: string }[]) => items.map((item) => item.messageId);
  const newestFirst = () => given.map(([id]) => id).reverse();

  it('lists every rating newest first, in the envelope and paging of upstream listings', async () => {
    const response = await stack.admin('/feedback');
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers['cache-control'], 'no-store');
    const { data, ...paging } = response.json;
    assert.deepEqual(paging, { error: null, totalItems: 6, pageSize: 20, currentPage: 1, totalPages: 1 });
    assert.deepEqual(ids(data), newestFirst());
    assert.deepEqual(Object.keys(data[0]).sort(), ['chatSessionId', 'chatUserId', 'comment', 'createdAt', 'messageId', 'value']);
    assert.equal(data[0].createdAt, new Date(given[5]![2]).toISOString());
    assert.equal(data[0].comment, `said on ${given[5]![2]}`);
  });

  it('pages: page and pageSize pick the slice, totals stay; past the end an empty page', async () => {
    const second = await stack.admin('/feedback?page=2&pageSize=4');
    assert.deepEqual(ids(second.json.data), newestFirst().slice(4));
    assert.deepEqual([second.json.totalItems, second.json.pageSize, second.json.currentPage, second.json.totalPages], [6, 4, 2, 2]);
    const past = await stack.admin('/feedback?page=3&pageSize=4');
    assert.deepEqual(past.json.data, []);
    assert.equal(past.json.totalItems, 6);
  });

  it('filters by value and by [from, to), and the totals count only what the filters keep', async () => {
    const downs = await stack.admin('/feedback?value=down');
    assert.deepEqual(
      ids(downs.json.data),
      given
        .filter(([, value]) => value === 'down')
        .map(([id]) => id)
        .reverse(),
    );
    assert.equal(downs.json.totalItems, 3);
    const february = await stack.admin('/feedback?from=2026-02-01&to=2026-03-01');
    assert.deepEqual(ids(february.json.data), [given[4]![0], given[3]![0], given[2]![0]], 'from included, to excluded');
    const februaryUps = await stack.admin('/feedback?from=2026-02-01&to=2026-03-01&value=up&pageSize=1');
    assert.deepEqual(ids(februaryUps.json.data), [given[3]![0]]);
    assert.equal(februaryUps.json.totalItems, 1);
    const since = await stack.admin(`/feedback?from=${encodeURIComponent('2026-02-14T12:00:00+00:00')}`);
    assert.deepEqual(ids(since.json.data), newestFirst().slice(0, 3), 'from alone; an offset sent as %2B');
  });

  it('counts up and down per month, ascending, every month of the range, a cut month only in part', async () => {
    const whole = await stack.admin('/feedback/count-by-month?from=2025-12-01&to=2026-05-01');
    assert.equal(whole.status, 200, whole.text);
    assert.deepEqual(whole.json, {
      data: [
        { month: '2025-12', up: 0, down: 0 },
        { month: '2026-01', up: 2, down: 0 },
        { month: '2026-02', up: 1, down: 2 },
        { month: '2026-03', up: 0, down: 1 },
        { month: '2026-04', up: 0, down: 0 },
      ],
      error: null,
    });
    const cut = await stack.admin('/feedback/count-by-month?from=2026-01-31&to=2026-02-15');
    assert.deepEqual(cut.json.data, [
      { month: '2026-01', up: 1, down: 0 },
      { month: '2026-02', up: 1, down: 1 },
    ]);
  });

  it('a bad query value is a 400 that names it', async () => {
    const cases: [string, RegExp][] = [
      ['/feedback?value=sideways', /value parameter must be up or down/],
      ['/feedback?from=yesterday', /from parameter must be an ISO 8601 date/],
      ['/feedback?to=2026-02-30', /to parameter must be an ISO 8601 date/],
      ['/feedback?from=2026-03-01&to=2026-02-01', /to parameter must be later than from/],
      ['/feedback?pageSize=101', /pageSize parameter must be a whole number from 1 to 100/],
      ['/feedback?page=0', /page parameter must be a whole number/],
      ['/feedback?value=up&value=down', /only once/],
      ['/feedback/count-by-month?from=2026-01-01', /Give both from and to/],
      ['/feedback/count-by-month?from=2026-01-01&to=2026-01-01', /later than from/],
      ['/feedback/count-by-month?from=1900-01-01&to=2026-01-01', /at most 1200 months/],
    ];
    for (const [path, said] of cases) {
      const response = await stack.admin(path);
      assert.equal(response.status, 400, `${path}: ${response.text}`);
      assert.match(response.json.error, said, path);
    }
  });

  it('403 without the admin token, or with a wrong one, on both routes; a visitor token is no admin token', async () => {
    const visitor = await stack.visitor();
    for (const path of ['/feedback', '/feedback/count-by-month?from=2026-01-01&to=2026-02-01']) {
      const attempts: Record<string, string>[] = [
        {},
        { 'X-Admin-Token': 'wrong-token-0123456789abcdef' },
        { Authorization: `Bearer ${visitor.token}` },
      ];
      for (const headers of attempts) {
        const response = await stack.admin(path, headers);
        assert.equal(response.status, 403, `${path} ${JSON.stringify(headers)}`);
        assert.equal(response.json.data, null);
      }
    }
  });
});
