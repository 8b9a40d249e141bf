// Stale-while-revalidate: the last conversation renders from IndexedDB at once (proved with the
// network down), revalidation merges by id, reset() forgets identity and cache, the rendered
// list stays bounded, and cached text is rendered as safely as fresh text.
import {
  absoluteEndpoint,
  assert,
  bubbleTexts,
  equal,
  fakeMessage,
  freshNamespace,
  idbGet,
  idbStore,
  mount,
  network,
  part,
  parts,
  seed,
  storedIdentity,
  unmountAll,
  waitFor,
  waitForReplies,
  writeCachedConversation,
} from './support/helpers.js';

afterEach(() => unmountAll());

describe('<chatbot-widget> cache', () => {
  it('renders the last conversation from the cache without the network, then merges the server’s news by id', async () => {
    const namespace = freshNamespace();
    const first = await mount({ open: '' }, namespace);
    await first.el.send('remember me');
    await waitForReplies(first.el, 1);
    await waitFor(() => parts(first.el, 'message').every((m) => !m.dataset.key!.startsWith('local-')), 'server ids');
    unmountAll();

    await network(namespace, 'down');
    const offline = await mount({ open: '' }, namespace);
    await waitFor(() => bubbleTexts(offline.el).join('|') === 'remember me|You said: remember me', 'the cached conversation');
    unmountAll();

    // Meanwhile a message arrived upstream in the same session (another device, say).
    await network(namespace, 'up');
    const identity = (await storedIdentity(namespace))!;
    const sessionId = (await idbGet<{ current: string }>(`index|${absoluteEndpoint(namespace)}|${identity.userId}|`, idbStore))!.current;
    await seed([{ chatSessionId: sessionId, chatUserId: identity.userId, senderType: 'Bot', text: 'A follow-up from the team', createdAt: new Date().toISOString() }]);
    const online = await mount({ open: '' }, namespace);
    await waitFor(() => bubbleTexts(online.el).includes('A follow-up from the team'), 'the revalidated message');
    equal(bubbleTexts(online.el).join('|'), 'remember me|You said: remember me|A follow-up from the team', 'merged, nothing doubled');
  });

  it('reset() forgets the identity, the cache and the outbox', async () => {
    const namespace = freshNamespace();
    const { el } = await mount({ open: '' }, namespace);
    await el.send('forget me');
    await waitForReplies(el, 1);
    const before = (await storedIdentity(namespace))!;
    await el.reset();
    equal(parts(el, 'message').length, 0, 'nothing shown');
    equal(await storedIdentity(namespace), undefined, 'identity gone');
    equal(await idbGet(`index|${absoluteEndpoint(namespace)}|${before.userId}|`, idbStore), undefined, 'cache gone');
    unmountAll();
    const again = await mount({ open: '' }, namespace);
    await new Promise((resolve) => setTimeout(resolve, 200));
    equal(parts(again.el, 'message').length, 0, 'a reload shows nothing either');
    await again.el.send('a new start');
    await waitForReplies(again.el, 1);
    const after = (await storedIdentity(namespace))!;
    assert(after.userId !== before.userId, 'a new visitor');
  });

  it('keeps the DOM bounded with 2,000 cached messages and slides the window when scrolling up', async () => {
    const namespace = freshNamespace();
    const messages = Array.from({ length: 2_000 }, (_, i) => fakeMessage(i, 'cached-session', 'cached-visitor'));
    await writeCachedConversation(namespace, messages);
    await network(namespace, 'down');
    const { el } = await mount({ open: '', mode: 'inline', style: 'height:500px' }, namespace);
    await waitFor(() => parts(el, 'message').length > 0, 'cached bubbles');
    const rendered = parts(el, 'message');
    assert(rendered.length <= 150, `bounded DOM, got ${rendered.length}`);
    equal(rendered.at(-1)!.dataset.key, 'm001999', 'the newest message is shown');
    const list = part(el, 'messages')!;
    for (let i = 0; i < 80 && parts(el, 'message')[0]!.dataset.key !== 'm000000'; i++) {
      list.scrollTop = 0;
      list.dispatchEvent(new Event('scroll'));
      await el.updateComplete;
      assert(parts(el, 'message').length <= 150, 'still bounded while scrolling');
    }
    equal(parts(el, 'message')[0]!.dataset.key, 'm000000', 'the oldest message reached');
  });

  it('renders cached replies through the same safe Markdown: HTML in the cache never runs', async () => {
    const namespace = freshNamespace();
    const hostile = { ...fakeMessage(1, 'cached-session', 'cached-visitor'), text: '<img src=x onerror="window.__cachedPwned=1"> **ok**' };
    await writeCachedConversation(namespace, [fakeMessage(0, 'cached-session', 'cached-visitor'), hostile]);
    await network(namespace, 'down');
    const { el } = await mount({ open: '' }, namespace);
    const bubble = await waitFor(() => part(el, 'message-bot')?.querySelector('.bubble'), 'the cached reply');
    equal(bubble.querySelectorAll('img').length, 0);
    equal(bubble.querySelector('strong')?.textContent, 'ok');
    await new Promise((resolve) => setTimeout(resolve, 100));
    equal((window as unknown as { __cachedPwned?: number }).__cachedPwned, undefined);
  });
});
