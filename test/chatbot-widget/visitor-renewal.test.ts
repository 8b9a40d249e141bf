// A visitor keeps their identity, and with it their conversations, for as long as they come back
// within a token's life: the handler renews a valid token but starts a new identity for an
// expired one, so the widget renews a token older than a day when it starts, in the background.
import type { ChatbotWidget } from '../../src/browser/index.js';
import {
  absoluteEndpoint,
  equal,
  idbSet,
  idbStore,
  mount,
  storedIdentity,
  typeAndSend,
  unmountAll,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';

afterEach(() => unmountAll());

const DAY_MS = 24 * 60 * 60 * 1000;

/** The identity record as the widget keeps it. */
type Kept = { token: string; userId: string; renewedAt?: number };

/** A widget that has sent once, so its identity is stored; then removed. */
async function visitedOnce(): Promise<{ namespace: string; kept: Kept }> {
  const { el, namespace } = await mount({ open: '' });
  await typeAndSend(el as ChatbotWidget, 'hello');
  await waitForReplies(el, 1);
  const kept = (await storedIdentity(namespace)) as Kept;
  unmountAll();
  return { namespace, kept };
}

describe('<chatbot-widget> visitor token renewal', () => {
  it('a token renewed more than a day ago is renewed when the widget starts, for the same visitor', async () => {
    const { namespace, kept } = await visitedOnce();
    equal(typeof kept.renewedAt, 'number', 'the renewal time is kept with the identity');
    await idbSet(`identity|${absoluteEndpoint(namespace)}`, { ...kept, renewedAt: Date.now() - 2 * DAY_MS }, idbStore);

    // Open, so the panel's code (which keeps the identity) starts at once, not when the page is idle.
    await mount({ open: '' }, namespace);
    // Renewed within the same second, the handler may sign the very same token: the renewal time
    // tells a renewal apart.
    const renewed = (await waitFor(async () => {
      const now = (await storedIdentity(namespace)) as Kept;
      return Date.now() - now.renewedAt! < 60_000 ? now : undefined;
    }, 'a renewed identity')) as Kept;
    equal(renewed.userId, kept.userId, 'the same visitor');
  });

  it('a token renewed within the day is used as it is: no call at start-up', async () => {
    const { namespace, kept } = await visitedOnce();
    const visitorCalls: string[] = [];
    const originalFetch = window.fetch;
    window.fetch = (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (url.endsWith('/visitor')) visitorCalls.push(url);
      return originalFetch(input, init);
    };
    try {
      const { el } = await mount({ open: '' }, namespace);
      await typeAndSend(el as ChatbotWidget, 'again');
      await waitForReplies(el, 2);
      equal(visitorCalls.length, 0, 'no /visitor call');
      equal(((await storedIdentity(namespace)) as Kept).token, kept.token, 'the same token');
    } finally {
      window.fetch = originalFetch;
    }
  });
});
