// The handler's ratings on a store, run inside each store's own runtime (memory and Redis under
// Node, the Durable Object under workerd, Deno KV under Deno): ratings given over three months,
// changed and taken back, then listed by pages and filters and counted by month through the
// handler's own feedback code, which must answer alike on every store.
import assert from 'node:assert/strict';
import { resolveOptions } from '../../../src/server/core/options.js';
import { countRatingsByMonth, listRatings, rate } from '../../../src/server/feedback/ratings.js';
import type { HandlerStore } from '../../../src/server/stores/store.js';

export const FEEDBACK_LISTING_CASE_NAME = "the handler's ratings are listed by pages and filters and counted by month";

export async function feedbackListingCase(store: HandlerStore): Promise<void> {
  const chatbotId = `fb_${crypto.randomUUID().replaceAll('-', '')}`;
  const quiet = { warn: () => {}, error: () => {} };
  const options = resolveOptions({
    apiBaseUrl: 'https://upstream.invalid/api',
    apiKey: 'pk_x',
    apiSecret: 'sk_x',
    chatbotId,
    store,
    logger: quiet,
  });
  // 25 answers rated over January to March 2026, one every three and a half days: up, up, down, …
  const given = Array.from({ length: 25 }, (_, i) => ({
    messageId: `m${String(i).padStart(2, '0')}`,
    value: i % 3 === 2 ? ('down' as const) : ('up' as const),
    at: Date.UTC(2026, 0, 1) + i * 3.5 * 86_400_000,
  }));
  for (const { messageId, value, at } of given)
    await rate(options, { messageId, value, comment: `on ${at}`, chatUserId: `v_${messageId}`, chatSessionId: `s_${messageId}` }, at);
  const now = Date.UTC(2026, 2, 31);
  // Taken back and changed: m00 withdrawn, m01 changed to down on March 30.
  await rate(options, { messageId: 'm00', value: null, comment: null, chatUserId: 'v_m00', chatSessionId: 's_m00' }, now);
  await rate(
    options,
    { messageId: 'm01', value: 'down', comment: 'changed', chatUserId: 'v_m01', chatSessionId: 's_m01' },
    Date.UTC(2026, 2, 30),
  );

  const kept = [
    ...given
      .slice(2)
      .map(({ messageId }) => messageId)
      .reverse(),
  ];
  const first = await listRatings(options, { page: 1, pageSize: 10 }, now);
  assert.deepEqual(
    first.data.map((item) => item.messageId),
    ['m01', ...kept.slice(0, 9)],
  );
  assert.deepEqual([first.totalItems, first.totalPages, first.currentPage, first.pageSize], [24, 3, 1, 10]);
  assert.deepEqual(first.data[0], {
    messageId: 'm01',
    value: 'down',
    comment: 'changed',
    chatUserId: 'v_m01',
    chatSessionId: 's_m01',
    createdAt: '2026-03-30T00:00:00.000Z',
  });
  const last = await listRatings(options, { page: 3, pageSize: 10 }, now);
  assert.deepEqual(
    last.data.map((item) => item.messageId),
    kept.slice(19),
  );
  const downs = await listRatings(options, { value: 'down', page: 1, pageSize: 100 }, now);
  assert.deepEqual(
    downs.data.map((item) => item.messageId),
    ['m01', 'm23', 'm20', 'm17', 'm14', 'm11', 'm08', 'm05', 'm02'],
  );
  const february = await listRatings(options, { from: Date.UTC(2026, 1, 1), to: Date.UTC(2026, 2, 1), page: 1, pageSize: 100 }, now);
  assert.deepEqual(
    february.data.map((item) => item.messageId),
    ['m16', 'm15', 'm14', 'm13', 'm12', 'm11', 'm10', 'm09'],
  );
  assert.deepEqual(await countRatingsByMonth(options, Date.UTC(2026, 0, 1), Date.UTC(2026, 3, 1), now), [
    { month: '2026-01', up: 4, down: 3 }, // m02-m08: m00 withdrawn, m01 moved to March
    { month: '2026-02', up: 6, down: 2 }, // m09-m16
    { month: '2026-03', up: 5, down: 4 }, // m17-m24, and m01's down
  ]);
}
