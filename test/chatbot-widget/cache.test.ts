// Stale-while-revalidate: the last conversation renders from IndexedDB at once (proved with the
// network down), revalidation merges by id, reset() forgets identity and cache, the rendered
// list stays bounded, and cached text is rendered as safely as fresh text.
import {
  absoluteEndpoint,
  assert,
  bubbleTexts,
  cachedCurrentConversation,
  endpointOf,
  equal,
  fakeMessage,
  forgetFirstPaintRecord,
  freshNamespace,
  idbGet,
  idbSet,
  idbStore,
  mount,
  mountWatched,
  network,
  part,
  parts,
  quietFor,
  readFirstPaintRecord,
  seed,
  storedIdentity,
  unmountAll,
  upstreamMessages,
  waitFor,
  waitForReplies,
  writeCachedConversation,
  writeFirstPaintRecord,
} from '../helpers/browser/helpers.js';
import { del as idbDel, keys as idbKeys } from 'idb-keyval';

afterEach(() => unmountAll());

/** The handler's answer to a read made with a given visitor token. */
async function statusWithToken(namespace: string, token: string) {
  const response = await fetch(`${endpointOf(namespace)}/sessions?page=1&pageSize=1`, { headers: { Authorization: `Bearer ${token}` } });
  return response.status;
}

/** A visitor's first page: one message sent, its reply cached, and the page left. */
async function sendAndLeave(namespace: string, text: string) {
  const { el } = await mount({ open: '' }, namespace);
  await el.send(text);
  await waitForReplies(el, 1);
  await waitFor(async () => (await cachedCurrentConversation(namespace))?.messages.length === 2, 'the conversation cached');
  unmountAll();
}

describe('<chatbot-widget> cache', () => {
  it('renders the last conversation from the cache without the network, then merges the server’s news by id', async () => {
    const namespace = freshNamespace();
    const first = await mount({ open: '' }, namespace);
    await first.el.send('remember me');
    await waitForReplies(first.el, 1);
    await waitFor(() => parts(first.el, 'message').every((m) => !m.dataset.key!.startsWith('local-')), 'server ids');
    // What the next first paint needs is in one record of this endpoint in localStorage (read
    // without waiting for IndexedDB), tagged with the visitor, who is named beside it.
    const paint = await waitFor(() => readFirstPaintRecord(namespace).record, 'the first-paint record');
    const { userId } = (await storedIdentity(namespace))!;
    equal(paint.userId, userId);
    equal(readFirstPaintRecord(namespace).visitor, userId, 'the stored visitor named beside the record');
    equal(paint.conversation.messages.map((m) => m.text).join('|'), 'remember me|You said: remember me');
    unmountAll();

    await network(namespace, 'down');
    const offline = await mount({ open: '' }, namespace);
    await waitFor(() => bubbleTexts(offline.el).join('|') === 'remember me|You said: remember me', 'the cached conversation');
    unmountAll();

    // Meanwhile a message arrived upstream in the same session (another device, say).
    await network(namespace, 'up');
    const identity = (await storedIdentity(namespace))!;
    const sessionId = (await idbGet<{ current: string }>(`index|${absoluteEndpoint(namespace)}|${identity.userId}|`, idbStore))!.current;
    await seed([
      {
        chatSessionId: sessionId,
        chatUserId: identity.userId,
        senderType: 'Bot',
        text: 'A follow-up from the team',
        createdAt: new Date().toISOString(),
      },
    ]);
    const online = await mount({ open: '' }, namespace);
    await waitFor(() => bubbleTexts(online.el).includes('A follow-up from the team'), 'the revalidated message');
    equal(bubbleTexts(online.el).join('|'), 'remember me|You said: remember me|A follow-up from the team', 'merged, nothing doubled');
  });

  it('reset() revokes the token at the handler, then forgets the identity, the cache and the outbox', async () => {
    const namespace = freshNamespace();
    const { el } = await mount({ open: '' }, namespace);
    await el.send('forget me');
    await waitForReplies(el, 1);
    const before = (await storedIdentity(namespace))!;
    equal(await statusWithToken(namespace, before.token), 200, 'the token works before the reset');
    await el.reset();
    equal(await statusWithToken(namespace, before.token), 401, 'the token is refused after the reset');
    equal(parts(el, 'message').length, 0, 'nothing shown');
    equal(await storedIdentity(namespace), undefined, 'identity gone');
    equal(await idbGet(`index|${absoluteEndpoint(namespace)}|${before.userId}|`, idbStore), undefined, 'cache gone');
    equal(readFirstPaintRecord(namespace).record, undefined, 'first-paint record gone');
    equal(readFirstPaintRecord(namespace).visitor, null, 'the visitor no longer named');
    unmountAll();
    const again = await mount({ open: '' }, namespace);
    await quietFor(200);
    equal(parts(again.el, 'message').length, 0, 'a reload shows nothing either');
    await again.el.send('a new start');
    await waitForReplies(again.el, 1);
    const after = (await storedIdentity(namespace))!;
    assert(after.userId !== before.userId, 'a new visitor');
  });

  it('reset() while the handler cannot be reached forgets here at once and revokes on the next connection', async () => {
    const namespace = freshNamespace();
    const first = await mount({ open: '' }, namespace);
    await first.el.send('forget me offline');
    await waitForReplies(first.el, 1);
    const before = (await storedIdentity(namespace))!;
    await network(namespace, 'down');
    await first.el.reset();
    equal(await storedIdentity(namespace), undefined, 'forgotten locally although not revoked');
    equal(parts(first.el, 'message').length, 0, 'nothing shown');
    unmountAll();
    await network(namespace, 'up');
    // Not revoked yet: the handler never heard of the reset.
    equal(await statusWithToken(namespace, before.token), 200, 'still valid at the handler meanwhile');
    await mount({ open: '' }, namespace);
    await waitFor(async () => (await statusWithToken(namespace, before.token)) === 401, 'revoked by the next connection');
  });

  it('a widget removed while it revokes a waiting token leaves the token for the next connection', async () => {
    const namespace = freshNamespace();
    const first = await mount({ open: '' }, namespace);
    await first.el.send('revoke me later');
    await waitForReplies(first.el, 1);
    const before = (await storedIdentity(namespace))!;
    await network(namespace, 'down');
    await first.el.reset(); // the token waits for a connection that reaches the handler
    unmountAll();
    await network(namespace, 'up');
    equal(await statusWithToken(namespace, before.token), 200, 'not revoked by the widget removed after its reset');
    // The next widget's revocation is held in the page until that widget is removed.
    const original = window.fetch;
    let asked = false;
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let sent: Promise<Response> | undefined;
    window.fetch = async (input, init) => {
      if (init?.method !== 'DELETE') return original(input, init);
      asked = true;
      await released;
      return (sent = original(input, init));
    };
    try {
      await mount({ open: '' }, namespace);
      await waitFor(() => asked, 'the revocation on its way');
      unmountAll();
      release();
      await waitFor(() => sent !== undefined, 'the held request let go');
      await sent!.catch(() => undefined); // answered, or refused by its aborted signal
      equal(await statusWithToken(namespace, before.token), 200, 'not revoked by a widget already removed');
    } finally {
      window.fetch = original;
      release();
    }
    await mount({ open: '' }, namespace);
    await waitFor(async () => (await statusWithToken(namespace, before.token)) === 401, 'revoked by the next connection');
  });

  it('keeps the DOM bounded with 2,000 cached messages and slides the window when scrolling up', async () => {
    const namespace = freshNamespace();
    const messages = Array.from({ length: 2_000 }, (_, i) => fakeMessage(i, 'cached-session', 'cached-visitor'));
    await writeCachedConversation(namespace, messages, undefined, undefined, { firstPaint: true });
    await network(namespace, 'down');
    const { el, first: firstRender } = mountWatched({ open: '', mode: 'inline', style: 'height:500px' }, namespace);
    // The first paint holds only the newest few bubbles (from the first-paint record)…
    const first = await firstRender;
    assert(first.length > 0 && first.length <= 16, `a narrow first window, got ${first.length}`);
    equal(first.at(-1), 'm001999', 'the newest message is in the first paint');
    // …then the window widens above them, and the whole cached history follows.
    await waitFor(() => parts(el, 'message').length === 40, 'the full window');
    const rendered = parts(el, 'message');
    equal(rendered.at(-1)!.dataset.key, 'm001999', 'the newest message is shown');
    const list = part(el, 'messages')!;
    let most = 0;
    await waitFor(
      async () => {
        list.scrollTop = 0;
        list.dispatchEvent(new Event('scroll'));
        await el.updateComplete;
        most = Math.max(most, parts(el, 'message').length);
        return parts(el, 'message')[0]!.dataset.key === 'm000000';
      },
      'the oldest message, scrolling up',
      15_000,
    );
    assert(most <= 150, `still bounded while scrolling, got ${most}`);
    equal(part(el, 'error'), null, 'the history came from the cache, no failed fetch (the network is down)');
  });

  it('draws a closed panel ahead, hidden, so that opening shows the newest messages at once', async () => {
    const namespace = freshNamespace();
    const messages = Array.from({ length: 2_000 }, (_, i) => fakeMessage(i, 'cached-session', 'cached-visitor'));
    await writeCachedConversation(namespace, messages, undefined, undefined, { firstPaint: true });
    await network(namespace, 'down');
    const { el } = await mount({}, namespace);
    const panel = part(el, 'panel')!;
    // Loaded when the page is idle, the panel draws the newest bubbles while still hidden…
    await waitFor(() => parts(el, 'message').some((m) => m.dataset.key === 'm001999'), 'the newest bubble, drawn while closed');
    assert(panel.hidden, 'the panel stays hidden');
    // Laid out but unseen: the page under it gets the pointer, and nothing in it takes focus.
    const box = panel.getBoundingClientRect();
    assert(box.height > 0, 'laid out while closed');
    const under = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    assert(under !== el, `the page under the closed panel is what a click reaches, got ${under?.tagName}`);
    const input = part(el, 'input') as HTMLTextAreaElement;
    input.focus();
    assert(el.shadowRoot!.activeElement !== input, 'the closed panel’s field cannot take focus');
    assert(!parts(el, 'message')[0]!.checkVisibility({ visibilityProperty: true }), 'its bubbles are not visible');
    assert(parts(el, 'message').length <= 16, `as few bubbles as fill the panel, got ${parts(el, 'message').length}`);
    const list = part(el, 'messages')!;
    const atBottom = () => list.scrollHeight - list.scrollTop - list.clientHeight < 4;
    // …so opening has only to show them, scrolled to the newest.
    el.show();
    await el.updateComplete;
    assert(!panel.hidden, 'shown');
    assert(list.scrollHeight > list.clientHeight, 'enough bubbles to scroll');
    assert(atBottom(), `scrolled to the newest message on opening (scrollTop ${list.scrollTop} of ${list.scrollHeight})`);
    // Scrolled back, then closed: the hidden panel returns to the newest bubbles for the next opening.
    await waitFor(() => parts(el, 'message').length === 40, 'the full window once shown');
    list.scrollTop = 0;
    list.dispatchEvent(new Event('scroll'));
    await waitFor(() => parts(el, 'message').length > 40, 'older bubbles, scrolling up');
    el.hide();
    await el.updateComplete;
    assert(panel.hidden, 'hidden again');
    assert(parts(el, 'message').length <= 16, `back to the newest few while closed, got ${parts(el, 'message').length}`);
    equal(parts(el, 'message').at(-1)!.dataset.key, 'm001999', 'the newest message last');
    el.show();
    await el.updateComplete;
    assert(atBottom(), 'at the newest message again when reopened');
  });

  it('refreshes the conversation once per opening: created open, and opened later', async () => {
    const namespace = freshNamespace();
    const first = await mount({ open: '' }, namespace);
    await first.el.send('hello');
    await waitForReplies(first.el, 1);
    unmountAll();
    // Each refresh starts with the page of sessions.
    const original = window.fetch;
    let refreshes = 0;
    window.fetch = (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (new URL(url, document.baseURI).pathname.endsWith('/chatbot/sessions')) refreshes++;
      return original(input, init);
    };
    const settle = () => new Promise((resolve) => setTimeout(resolve, 600));
    try {
      const { el } = await mount({ open: '' }, namespace);
      await waitFor(() => refreshes > 0, 'the refresh of a widget created open');
      await settle();
      equal(refreshes, 1, 'one refresh for a widget created open');
      el.hide();
      await el.updateComplete;
      el.show();
      await waitFor(() => refreshes > 1, 'the refresh of the next opening');
      await settle();
      equal(refreshes, 2, 'one more for the next opening');
    } finally {
      window.fetch = original;
    }
  });

  it('keeps the conversation on screen when a newer session’s messages cannot be fetched, and shows that session once they can', async () => {
    const namespace = freshNamespace();
    await sendAndLeave(namespace, 'in the first session');
    // The visitor began a newer session elsewhere: this device has never seen it.
    const { userId } = (await storedIdentity(namespace))!;
    const newer = `newer-${Math.random().toString(36).slice(2, 10)}`;
    await seed([
      {
        chatSessionId: newer,
        chatUserId: userId,
        senderType: 'User',
        text: 'from another device',
        createdAt: new Date(Date.now() + 60_000).toISOString(),
      },
    ]);
    // The connection drops as its messages are asked for.
    const original = window.fetch;
    let asked = 0;
    window.fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), document.baseURI);
      if (url.pathname.endsWith('/chatbot/messages') && url.searchParams.get('sessionId') === newer) {
        asked++;
        return Promise.reject(new TypeError('Failed to fetch'));
      }
      return original(input, init);
    };
    try {
      const { el } = await mount({ open: '' }, namespace);
      await waitFor(() => asked > 0, 'the newer session’s messages asked for');
      await quietFor(500); // what the failed fetch would leave on screen
      equal(bubbleTexts(el).join('|'), 'in the first session|You said: in the first session', 'still on screen');

      window.fetch = original; // back online: the next opening shows the newer session
      el.hide();
      await el.updateComplete;
      el.show();
      await waitFor(() => bubbleTexts(el).join('|') === 'from another device', 'the newer session');
    } finally {
      window.fetch = original;
    }
  });

  it('shows a new visitor nothing a refresh fetched for the one before: a token refused while the refresh waits', async () => {
    const namespace = freshNamespace();
    await sendAndLeave(namespace, 'only for the first visitor');
    // The device keeps the identity only: nothing is on screen when the next page starts.
    for (const key of await idbKeys<string>(idbStore)) {
      if (/^(conversation|index)\|/.test(key)) await idbDel(key, idbStore);
    }
    forgetFirstPaintRecord(namespace);
    const { token } = (await storedIdentity(namespace))!;
    // The refresh's page of messages is answered for the first visitor, and held back; so is
    // the new visitor's send, so that nothing of theirs is shown when that page is let through.
    const original = window.fetch;
    let held = false;
    let releasePage = () => {};
    let releaseSend = () => {};
    const pageGate = new Promise<void>((resolve) => (releasePage = resolve));
    const sendGate = new Promise<void>((resolve) => (releaseSend = resolve));
    window.fetch = async (input, init) => {
      const url = new URL(input instanceof Request ? input.url : String(input), document.baseURI);
      if (url.pathname.endsWith('/chatbot/message')) {
        const response = await original(input, init);
        if (response.ok) await sendGate;
        return response;
      }
      if (held || !url.pathname.endsWith('/chatbot/messages') || url.searchParams.get('pageSize') === '1') return original(input, init);
      held = true;
      const response = await original(input, init);
      await pageGate;
      return response;
    };
    try {
      const { el } = await mount({ open: '' }, namespace);
      await waitFor(() => held, 'the refresh asks for the messages');
      // Meanwhile the token is revoked (a reset in another tab, say): the next call is refused,
      // and the widget speaks for a new visitor.
      const revoked = await fetch(`${endpointOf(namespace)}/visitor`, { method: 'DELETE', headers: { Authorization: `Bearer ${token}` } });
      equal(revoked.ok, true, 'revoked');
      void el.send('the new visitor asks');
      await waitFor(async () => (await storedIdentity(namespace))?.token !== token, 'a new visitor');
      releasePage();
      await quietFor(500); // what the held page would show
      equal(bubbleTexts(el).join('|'), 'the new visitor asks', 'nothing of the first visitor shown');
      releaseSend();
      await waitFor(() => bubbleTexts(el).includes('You said: the new visitor asks'), 'the new visitor’s reply');
      equal(bubbleTexts(el).join('|'), 'the new visitor asks|You said: the new visitor asks', 'theirs only');
      const cached = await waitFor(async () => {
        const conversation = await cachedCurrentConversation(namespace);
        return conversation?.messages.length === 2 ? conversation : undefined;
      }, 'the new visitor’s conversation cached');
      equal(
        cached.messages.map((m) => m.text).join('|'),
        'the new visitor asks|You said: the new visitor asks',
        'nothing of the first stored as theirs',
      );
    } finally {
      releasePage();
      releaseSend();
      window.fetch = original;
    }
  });

  it('keeps the whole cached conversation when the revalidation follows a first paint of its newest messages', async () => {
    // A real visitor with 100 messages upstream, all of them in the cache (as after scrolling up).
    const namespace = freshNamespace();
    const first = await mount({ open: '' }, namespace);
    await first.el.send('hello');
    await waitForReplies(first.el, 1);
    const { userId } = (await storedIdentity(namespace))!;
    const base = absoluteEndpoint(namespace);
    const { current: sessionId } = await waitFor(
      () => idbGet<{ current: string }>(`index|${base}|${userId}|`, idbStore),
      'the cache index',
    );
    unmountAll();
    const start = Date.now() - 3_600_000;
    await seed(
      Array.from({ length: 98 }, (_, i) => ({
        chatSessionId: sessionId,
        chatUserId: userId,
        senderType: i % 2 ? 'Bot' : 'User',
        text: `earlier ${i}`,
        createdAt: new Date(start + i * 1_000).toISOString(),
      })),
    );
    const upstream = (await upstreamMessages(userId)).reverse();
    equal(upstream.length, 100);
    await idbSet(`conversation|${base}|${userId}|${sessionId}`, { sessionId, messages: upstream, totalItems: 100 }, idbStore);
    writeFirstPaintRecord(namespace, userId, { sessionId, messages: upstream.slice(-24), totalItems: 100 });

    const mounted = Date.now();
    const painted = await mountWatched({ open: '', 'page-size': '20' }, namespace).first;
    equal(painted.at(-1), upstream.at(-1)!.id, 'first paint from the record');
    // The revalidation merges the server's newest page and writes the conversation back.
    const written = () => idbGet<{ messages: unknown[] }>(`conversation|${base}|${userId}|${sessionId}`, idbStore);
    const savedAt = async () =>
      (await idbGet<{ entries: Record<string, [number, number]> }>(`index|${base}|${userId}|`, idbStore))!.entries[sessionId]![0];
    await waitFor(async () => (await savedAt()) >= mounted, 'the revalidation to write the cache');
    equal((await written())!.messages.length, 100, 'the stored conversation still holds every message');
  });

  it('a removed widget does no more work: a late update neither reconnects it nor writes the cache', async () => {
    const namespace = freshNamespace();
    const { el } = await mount({ open: '' }, namespace);
    await el.send('hello');
    await waitForReplies(el, 1);
    const { userId } = (await storedIdentity(namespace))!;
    const base = absoluteEndpoint(namespace);
    const { current: sessionId } = await waitFor(
      () => idbGet<{ current: string }>(`index|${base}|${userId}|`, idbStore),
      'the cache index',
    );
    el.remove();
    // What another tab (or another element) stored afterwards must stay as it is.
    const key = `conversation|${base}|${userId}|${sessionId}`;
    const other = { sessionId, messages: [], totalItems: 0, marker: 'written by someone else' };
    await idbSet(key, other, idbStore);
    // Lit still runs updates on a detached element: a property change (or any late async
    // continuation asking for one) must not bring the conversation back to life.
    el.heading = 'changed while detached';
    await el.updateComplete;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    equal((await idbGet<{ marker?: string }>(key, idbStore))?.marker, 'written by someone else', 'the detached widget rewrote the cache');
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
    await quietFor(100);
    equal((window as unknown as { __cachedPwned?: number }).__cachedPwned, undefined);
  });
});
