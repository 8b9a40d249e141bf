// The history pane and paging: the visitor's sessions newest first with date and first line,
// infinite scroll, opening a session, older messages loading at the top without a jump.
import {
  assert,
  bubbleTexts,
  equal,
  mount,
  part,
  parts,
  seed,
  storedIdentity,
  unmountAll,
  upstreamMessages,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';
import type { ChatbotWidget } from '../../src/browser/index.js';

afterEach(() => unmountAll());

const DAY = 86_400_000;

async function visitorWithHistory(sessions: number, perSession: number, attributes: Record<string, string> = {}) {
  const { el, namespace } = await mount({ open: '', 'page-size': '10', ...attributes });
  await el.send('today');
  await waitForReplies(el, 1);
  const { userId } = (await storedIdentity(namespace))!;
  const records = [];
  for (let s = 0; s < sessions; s++) {
    for (let m = 0; m < perSession; m++) {
      records.push({
        chatSessionId: `past-${namespace}-${s}`,
        chatUserId: userId,
        senderType: m % 2 === 0 ? 'User' : 'Bot',
        text: `session ${s} message ${m}`,
        createdAt: new Date(Date.now() - (s + 1) * DAY + m * 1_000).toISOString(),
      });
    }
  }
  await seed(records);
  return { el, namespace, userId };
}

const sessionButtons = (el: ChatbotWidget) => parts(el, 'session');

describe('<chatbot-widget> history', () => {
  it('lists the sessions newest first with date and first line, and pages on scroll', async () => {
    const { el } = await visitorWithHistory(14, 2);
    (part(el, 'history-button') as HTMLButtonElement).click();
    await waitFor(() => sessionButtons(el).length === 10, 'the first page of sessions');
    const history = part(el, 'history')!;
    assert(!history.hidden, 'the pane is shown');
    await waitFor(() => sessionButtons(el)[1]!.textContent!.includes('session 0 message 0'), 'first lines');
    assert(sessionButtons(el)[0]!.textContent!.includes('today'), 'the current session first');
    history.scrollTop = history.scrollHeight;
    await waitFor(() => sessionButtons(el).length === 15, 'the second page after scrolling');
    const lines = sessionButtons(el)
      .slice(1)
      .map((b) => /session (\d+)/.exec(b.textContent!)?.[1]);
    await waitFor(() => sessionButtons(el).every((b) => !b.textContent!.includes('…')), 'every first line');
    equal(
      sessionButtons(el)
        .slice(1)
        .map((b) => /session (\d+)/.exec(b.textContent!)![1])
        .join(','),
      '0,1,2,3,4,5,6,7,8,9,10,11,12,13',
      `order ${lines}`,
    );
  });

  it('opens a past session and returns to the current conversation', async () => {
    const { el } = await visitorWithHistory(2, 4);
    (part(el, 'history-button') as HTMLButtonElement).click();
    await waitFor(() => sessionButtons(el).length === 3, 'sessions');
    sessionButtons(el)[2]!.click();
    await waitFor(
      () => bubbleTexts(el).join('|') === 'session 1 message 0|session 1 message 1|session 1 message 2|session 1 message 3',
      'the past session',
    );
    assert(part(el, 'history')!.hidden, 'the pane closes');
    (el.shadowRoot!.querySelector('.viewing button') as HTMLButtonElement).click();
    await waitFor(() => bubbleTexts(el).join('|') === 'today|You said: today', 'the current conversation again');
  });

  // On the visitor's current conversation, as it opens: the history pane is never opened, so its
  // background fetch of listed sessions (which would load this one whole) does not start.
  it('loads older messages when scrolled to the top, keeping the view in place', async () => {
    const attributes = { mode: 'inline', style: 'height:420px', 'page-size': '10' };
    const { el: first, namespace } = await mount({ ...attributes, open: '' });
    await first.send('today');
    await waitForReplies(first, 1);
    const { userId } = (await storedIdentity(namespace))!;
    const [today] = await upstreamMessages(userId);
    const start = Date.now() - DAY;
    const older = Array.from({ length: 44 }, (_, m) => ({
      chatSessionId: today!.chatSessionId,
      chatUserId: userId,
      senderType: m % 2 === 0 ? 'User' : 'Bot',
      text: `earlier message ${m}`,
      createdAt: new Date(start + m * 1_000).toISOString(),
    }));
    await seed(older);
    unmountAll();

    // The same visitor comes back: the newest page of the 46 messages, and a way to older ones.
    const { el } = await mount({ ...attributes, open: '' }, namespace);
    await waitFor(() => parts(el, 'message').length === 10 && bubbleTexts(el)[0] === 'earlier message 36', 'the newest page');
    assert(part(el, 'load-older'), 'a way to load older messages');
    const list = part(el, 'messages')!;
    await waitFor(() => list.scrollHeight > list.clientHeight, 'a scrollable list');
    const anchor = parts(el, 'message')[0]!;
    const key = anchor.dataset.key;
    list.scrollTop = 0;
    const before = anchor.getBoundingClientRect().top;
    list.dispatchEvent(new Event('scroll'));
    await waitFor(() => parts(el, 'message').length === 20, 'the next older page');
    await el.updateComplete;
    const same = el.shadowRoot!.querySelector<HTMLElement>(`[data-key="${key}"]`)!;
    assert(Math.abs(same.getBoundingClientRect().top - before) < 2, `no jump: ${before} → ${same.getBoundingClientRect().top}`);
    equal(bubbleTexts(el)[0], 'earlier message 26');
  });
});
