// Two tabs of one site stay in step through BroadcastChannel. Two widgets on one page on the
// same endpoint behave as two tabs: each has its own channel object, storage is shared.
import {
  absoluteEndpoint,
  bubbleTexts,
  equal,
  freshNamespace,
  mount,
  quietFor,
  recordSends,
  storedIdentity,
  storedOutbox,
  unmountAll,
  upstreamMessages,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';

let recording: ReturnType<typeof recordSends> | undefined;

afterEach(() => {
  recording?.stop();
  recording = undefined;
  unmountAll();
});

/**
 * Two tabs of one visitor (two widgets on one namespace): tab one is sending "slow question"
 * (its reply takes 1.5 s upstream) and tab two shows it pending. The sends are recorded.
 */
async function slowSendInTabOne() {
  const sends = (recording = recordSends());
  const namespace = freshNamespace();
  const one = await mount({ open: '', mode: 'inline' }, namespace);
  await one.el.send('warm up'); // the visitor exists in both tabs
  await waitForReplies(one.el, 1);
  const two = await mount({ open: '', mode: 'inline' }, namespace);
  await waitFor(() => bubbleTexts(two.el).includes('You said: warm up'), 'tab two restores the conversation');
  // Tab two's first read of storage is done, and with it the look for pending messages a tab
  // makes when it starts: from here on only a `left` note makes it send tab one's message.
  await waitFor(() => (two.el as unknown as { panel?: { chat: { ready: boolean } } }).panel?.chat.ready, 'tab two connected');
  await one.el.send('slow question');
  await waitFor(() => sends.attempts.length === 2, 'tab one sending it');
  await waitFor(() => bubbleTexts(two.el, 'message-pending').includes('slow question'), 'tab two shows it pending');
  return { namespace, one: one.el, two: two.el, attempts: sends.attempts };
}

describe('<chatbot-widget> tabs', () => {
  it('shows in one tab what was sent in the other', async () => {
    const namespace = freshNamespace();
    const one = await mount({ open: '', mode: 'inline' }, namespace);
    await one.el.send('first from tab one');
    await waitForReplies(one.el, 1);
    const two = await mount({ open: '', mode: 'inline' }, namespace);
    await waitFor(() => bubbleTexts(two.el).includes('You said: first from tab one'), 'tab two restores the conversation');
    await one.el.send('second from tab one');
    await waitFor(() => bubbleTexts(two.el).includes('You said: second from tab one'), 'tab two hears of the new messages');
    await waitFor(() => bubbleTexts(two.el).join('|') === bubbleTexts(one.el).join('|'), 'both tabs show the same conversation');
  });

  it('sends what a tab left pending when it went away, with its key, and stores it once', async () => {
    const { namespace, one, two, attempts } = await slowSendInTabOne();
    one.remove(); // tab one goes away mid-send: its request is aborted, the entry stays pending
    await waitFor(() => bubbleTexts(two, 'message-bot').includes('Done, slowly.'), 'tab two sent it and shows the reply', 10_000);
    equal(attempts.length, 3, 'sent again once, by tab two');
    equal(attempts[2]!.key, attempts[1]!.key, 'with the same key');
    const identity = await storedIdentity(namespace);
    const stored = (await upstreamMessages(identity!.userId)).filter((m) => m.text === 'slow question');
    equal(stored.length, 1, 'stored once upstream');
    await waitFor(async () => (await storedOutbox(namespace)).length === 0, 'the outbox empty');
    equal(bubbleTexts(two, 'message-pending').length, 0, 'nothing left pending in tab two');
  });

  it('a widget moved in the page goes on sending its own message: its reply event fires on it, no other tab sends', async () => {
    const { one, two, attempts } = await slowSendInTabOne();
    const repliedOn: string[] = [];
    one.addEventListener('chatbot-reply', () => repliedOn.push('one'));
    two.addEventListener('chatbot-reply', () => repliedOn.push('two'));
    const box = document.createElement('div');
    document.body.append(box);
    box.append(one); // removed and put back in one task (a framework moving it)
    try {
      await waitFor(() => bubbleTexts(one, 'message-bot').includes('Done, slowly.'), 'the reply in the moved widget', 10_000);
      equal(repliedOn.join(','), 'one');
      equal(
        attempts.filter((a) => a.content === 'slow question').length,
        2,
        'sent again once (by the moved widget, its send was aborted by the move)',
      );
    } finally {
      box.remove();
    }
  });

  it('without Web Locks the tabs left do not all send what a closed tab left: it waits for their next send', async () => {
    const locks = Object.getOwnPropertyDescriptor(Navigator.prototype, 'locks');
    Object.defineProperty(Navigator.prototype, 'locks', { configurable: true, get: () => undefined });
    try {
      const { one, attempts } = await slowSendInTabOne();
      one.remove();
      await quietFor(600);
      equal(attempts.length, 2, 'not sent by tab two');
    } finally {
      if (locks) Object.defineProperty(Navigator.prototype, 'locks', locks);
    }
  });

  it('tells the other tabs when its page is hidden for good with messages pending, and only then', async () => {
    const namespace = freshNamespace();
    const one = await mount({ open: '', mode: 'inline' }, namespace);
    await one.el.send('warm up');
    await waitForReplies(one.el, 1);
    const notes: string[] = [];
    const channel = new BroadcastChannel(`chatbot-widget|${absoluteEndpoint(namespace)}`);
    channel.onmessage = (event: MessageEvent<{ type: string }>) => notes.push(event.data.type);
    try {
      window.dispatchEvent(new PageTransitionEvent('pagehide'));
      await quietFor(100);
      equal(notes.includes('left'), false, 'nothing pending: no note');
      void one.el.send('slow question');
      await waitFor(() => bubbleTexts(one.el, 'message-pending').includes('slow question'), 'pending');
      // Kept for the back button: it may come back and go on sending itself.
      window.dispatchEvent(new PageTransitionEvent('pagehide', { persisted: true }));
      await quietFor(100);
      equal(notes.includes('left'), false, 'kept in the back/forward cache: no note');
      window.dispatchEvent(new PageTransitionEvent('pagehide'));
      await waitFor(() => notes.includes('left'), 'the note that the tab left');
    } finally {
      channel.close();
    }
  });
});
