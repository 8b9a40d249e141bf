// The visitor token's life: revocation through the store (so every instance sharing it refuses
// the token), and renewal that ends 90 days after the identity was first issued.
import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { API_SECRET, CHATBOT_ID } from '../helpers/recording-upstream.js';
import { handlerOptions } from '../helpers/handler-options.js';
import { recordingUpstreamForFile } from '../helpers/stack-for-file.js';
import { createSigningHandler, MemoryStore, type SigningHandlerOptions } from '../../../src/server/index.js';
import { verifyVisitorToken, visitorKey } from '../../../src/server/identity/visitor-token.js';

const DAY = 86_400_000;
const upstream = await recordingUpstreamForFile();

describe('visitor token lifecycle', () => {
  let clock: number;
  beforeEach(() => {
    clock = Date.now();
  });

  const makeHandler = (options: Partial<SigningHandlerOptions> = {}) => createSigningHandler(handlerOptions(upstream, options));
  type Handler = ReturnType<typeof makeHandler>;
  const bearer = (token?: string): Record<string, string> => (token ? { Authorization: `Bearer ${token}` } : {});
  const issue = async (handler: Handler, token?: string) => {
    const response = await handler(
      new Request('http://localhost/chatbot/visitor', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...bearer(token) },
        body: '{}',
      }),
    );
    assert.equal(response.status, 200);
    return ((await response.json()) as { data: { token: string; userId: string } }).data;
  };
  const revoke = (handler: Handler, token?: string) =>
    handler(new Request('http://localhost/chatbot/visitor', { method: 'DELETE', headers: bearer(token) }));
  const sessions = (handler: Handler, token: string) =>
    handler(new Request('http://localhost/chatbot/sessions', { headers: bearer(token) }));
  const send = (handler: Handler, token: string) =>
    handler(
      new Request('http://localhost/chatbot/message', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...bearer(token) },
        body: '{"content":"hi"}',
      }),
    );

  it('DELETE /visitor revokes: 204 with no body, then 401 on every instance sharing the store', async () => {
    const shared = new MemoryStore();
    const one = makeHandler({ store: shared });
    const two = makeHandler({ store: shared });
    const elsewhere = makeHandler(); // its own store: it never heard of the revocation
    const visitor = await issue(one);
    assert.equal((await sessions(two, visitor.token)).status, 200, 'the other instance accepts the token before');

    const revoked = await revoke(one, visitor.token);
    assert.equal(revoked.status, 204);
    assert.equal(await revoked.text(), '');
    assert.equal(revoked.headers.get('Cache-Control'), 'no-store');

    for (const handler of [one, two]) {
      assert.equal((await sessions(handler, visitor.token)).status, 401);
      assert.equal((await send(handler, visitor.token)).status, 401);
    }
    assert.equal(upstream.requests.filter((r) => r.method === 'POST').length, 0, 'no send of a revoked identity reached upstream');
    assert.equal((await sessions(elsewhere, visitor.token)).status, 200, 'revocation lives in the store, not in the token');

    const renewed = await issue(two, visitor.token);
    assert.notEqual(renewed.userId, visitor.userId, 'a revoked token is not renewed: a new identity starts');
    assert.equal((await revoke(two, visitor.token)).status, 204, 'revoking again is fine (a reset may be retried)');
  });

  it('DELETE /visitor without a valid token is 401; with identify() there is nothing to revoke (204)', async () => {
    const handler = makeHandler();
    assert.equal((await revoke(handler)).status, 401);
    assert.equal((await revoke(handler, 'v1.forged.token')).status, 401);
    const member = makeHandler({ identify: () => ({ userId: 'member-1' }) });
    assert.equal((await revoke(member)).status, 204);
  });

  it('GET on /visitor is 405 naming both methods', async () => {
    const response = await makeHandler()(new Request('http://localhost/chatbot/visitor'));
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('Allow'), 'POST, DELETE, OPTIONS');
  });

  it('the revocation record lives as long as any token of the identity could, and no longer', async () => {
    let storeClock = clock;
    const store = new MemoryStore({ now: () => storeClock });
    const handler = makeHandler({ store, now: () => clock });
    const visitor = await issue(handler);
    await revoke(handler, visitor.token);
    storeClock += 89 * DAY;
    assert.equal(
      await store.get(`${CHATBOT_ID}:revoked:${visitor.userId}`),
      String(Math.floor(clock / 1000)),
      'still there near the end of the 90 days',
    );
    storeClock += 2 * DAY;
    assert.equal(await store.get(`${CHATBOT_ID}:revoked:${visitor.userId}`), undefined, 'gone once no token of it can be valid');
  });

  it('renewal ends 90 days after the identity was first issued; then a new identity starts', async () => {
    const handler = makeHandler({ now: () => clock });
    const key = await visitorKey(API_SECRET);
    const firstIssued = Math.floor(clock / 1000);
    let current = await issue(handler);
    const first = current.userId;
    for (const day of [25, 50, 75, 89]) {
      clock += (day - (clock - firstIssued * 1000) / DAY) * DAY;
      current = await issue(handler, current.token);
      assert.equal(current.userId, first, `renewed on day ${day}`);
      const claims = await verifyVisitorToken(key, current.token, Math.floor(clock / 1000), CHATBOT_ID);
      assert.equal(claims?.firstIssuedAt, firstIssued, 'the token carries its first-issue time');
      assert.ok(claims!.expiresAt <= firstIssued + 90 * 86_400, `day ${day}: no token outlives the 90 days`);
    }
    clock = firstIssued * 1000 + 90 * DAY + 1000;
    assert.equal((await sessions(handler, current.token)).status, 401, 'past 90 days the last token is no longer valid');
    const fresh = await issue(handler, current.token);
    assert.notEqual(fresh.userId, first, 'a new identity');
  });

  it('visitorTokenMaxAgeSeconds sets the cap, also for tokens issued under a longer one', async () => {
    const handler = makeHandler({ now: () => clock, visitorTokenMaxAgeSeconds: 3600, visitorTokenTtlSeconds: 3000 });
    let current = await issue(handler);
    const first = current.userId;
    clock += 2_900_000;
    current = await issue(handler, current.token);
    assert.equal(current.userId, first);
    const claims = await verifyVisitorToken(await visitorKey(API_SECRET), current.token, Math.floor(clock / 1000), CHATBOT_ID);
    assert.equal(claims!.expiresAt - claims!.firstIssuedAt, 3600, 'renewed only up to the cap, not 3,000 s more');

    // A token from before the owner shortened the cap: still valid, but past the new cap, not renewed.
    const longLived = await issue(makeHandler({ now: () => clock }));
    clock += 3_700_000;
    assert.ok(
      await verifyVisitorToken(await visitorKey(API_SECRET), longLived.token, Math.floor(clock / 1000), CHATBOT_ID),
      'still a valid token',
    );
    assert.notEqual((await issue(handler, longLived.token)).userId, longLived.userId);
    assert.throws(() => makeHandler({ visitorTokenMaxAgeSeconds: 0 }), /visitorTokenMaxAgeSeconds/);
  });
});
