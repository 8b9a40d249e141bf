// Search over every listed conversation: listing the sessions (opening the history pane) fetches
// their messages into the cache in the background, so the search finds a conversation the visitor
// never opened in this browser, then offline too; a session whose cached copy is current is not
// fetched again, and only the newest 50 are fetched.
import { sendKeys } from '@web/test-runner-commands';
import type { ChatbotWidget } from '../../src/browser/index.js';
import {
  assert,
  browserOnline,
  equal,
  freshNamespace,
  mount,
  network,
  part,
  parts,
  seed,
  storedIdentity,
  unmountAll,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';

const DAY = 86_400_000;

afterEach(() => {
  browserOnline(true);
  unmountAll();
});

/**
 * The sessions whose messages the page asked the handler for, in order, while recording; not the
 * one-message pages the history pane reads each session's first line from.
 */
function recordMessageFetches() {
  const original = window.fetch;
  const sessions: string[] = [];
  window.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input), document.baseURI);
    if (url.pathname.endsWith('/chatbot/messages') && url.searchParams.has('sessionId') && url.searchParams.get('pageSize') !== '1')
      sessions.push(url.searchParams.get('sessionId')!);
    return original(input, init);
  };
  return { sessions, stop: () => (window.fetch = original) };
}

/** A visitor who sent one message here, with `count` older sessions upstream (never opened here), the first about `topic`. */
async function visitorWithUnopenedSessions(count: number, topic: string) {
  const namespace = freshNamespace();
  const { el } = await mount({ open: '' }, namespace);
  await el.send('Where is my refund?');
  await waitForReplies(el, 1);
  const { userId } = (await storedIdentity(namespace))!;
  const sessionIds = Array.from({ length: count }, (_, i) => `unopened-${namespace}-${i}`);
  await seed(
    sessionIds.flatMap((sessionId, i) =>
      ['User', 'Bot'].map((senderType, b) => ({
        chatSessionId: sessionId,
        chatUserId: userId,
        senderType,
        text: senderType === 'User' ? (i === 0 ? topic : `Question ${i}`) : 'An answer.',
        createdAt: new Date(Date.now() - (i + 1) * DAY + b * 1_000).toISOString(),
      })),
    ),
  );
  return { el, namespace, sessionIds };
}

const results = (el: ChatbotWidget) => parts(el, 'search-result');

/** Opens the history pane and waits for its search box, which comes with the pane's code. */
async function openHistory(el: ChatbotWidget) {
  if (part(el, 'history')?.hidden !== false) part(el, 'history-button')!.click();
  await el.updateComplete;
  await waitFor(() => part(el, 'search-input'), "the pane's search box");
}

async function search(el: ChatbotWidget, query: string) {
  const input = part(el, 'search-input') as HTMLInputElement;
  input.focus();
  input.select();
  await sendKeys({ type: query });
}

describe('<chatbot-widget> search over every listed conversation', () => {
  it('finds a conversation never opened here, fetched when the sessions are listed, then offline after a reload', async () => {
    const { el, namespace, sessionIds } = await visitorWithUnopenedSessions(3, 'Zanzibar ferry timetable');
    const fetches = recordMessageFetches();
    try {
      await openHistory(el);
      // The visitor types at once: the results come as the conversations arrive.
      await search(el, 'zanzibar');
      const found = await waitFor(() => results(el)[0], 'the never-opened conversation found');
      equal(found.dataset.session, sessionIds[0]);
      assert(
        parts(el, 'message').every((m) => !m.textContent!.includes('Zanzibar')),
        'it was never opened',
      );
      await waitFor(() => sessionIds.every((id) => fetches.sessions.includes(id)), 'every listed session fetched');

      // Listed again, with one more conversation upstream, older than the others, so fetched
      // last: the others' cached copies are current, and they are not fetched again.
      part(el, 'history-button')!.click(); // closes the pane
      await el.updateComplete;
      const { userId } = (await storedIdentity(namespace))!;
      const older = `older-${namespace}`;
      await seed([
        {
          chatSessionId: older,
          chatUserId: userId,
          senderType: 'User',
          text: 'An older question',
          createdAt: new Date(Date.now() - 10 * DAY).toISOString(),
        },
      ]);
      const before = fetches.sessions.length;
      await openHistory(el);
      await waitFor(() => fetches.sessions.includes(older), 'the new conversation fetched');
      await fetch('/__beacons'); // the round trip of a fetch begun beside it
      equal(
        fetches.sessions
          .slice(before)
          .filter((id) => id !== older)
          .join(),
        '',
        'no session fetched twice',
      );
    } finally {
      fetches.stop();
    }

    // Offline, and a reload: nothing in memory, the search reads the cache.
    await network(namespace, 'down');
    browserOnline(false);
    el.remove();
    const { el: reloaded } = await mount({ open: '' }, namespace);
    // (The panel built open puts focus in its message field once painted; then the visitor moves on.)
    await waitFor(() => reloaded.shadowRoot!.activeElement === part(reloaded, 'input'), 'the message field focused');
    await openHistory(reloaded);
    await search(reloaded, 'zanzibar');
    const offline = await waitFor(() => results(reloaded)[0], 'found offline');
    equal(offline.dataset.session, sessionIds[0]);
  });

  it('fetches the newest 50 sessions only', async () => {
    const { el, sessionIds } = await visitorWithUnopenedSessions(52, 'Oldest topic');
    const fetches = recordMessageFetches();
    try {
      await openHistory(el);
      // The visitor's own latest session is the newest of the 53; the 49 seeded after it are fetched.
      const newest = sessionIds.slice(0, 49);
      await waitFor(() => newest.every((id) => fetches.sessions.includes(id)), 'the newest 50 sessions fetched', 30_000);
      await fetch('/__beacons');
      equal(fetches.sessions.filter((id) => sessionIds.slice(49).includes(id)).join(), '', 'none beyond the newest 50');
    } finally {
      fetches.stop();
    }
  });

  it('stops when the panel closes', async () => {
    const { el, sessionIds } = await visitorWithUnopenedSessions(30, 'A topic');
    const fetches = recordMessageFetches();
    try {
      await openHistory(el);
      await waitFor(() => fetches.sessions.some((id) => sessionIds.includes(id)), 'the first sessions fetched');
      el.hide();
      await el.updateComplete;
      const fetched = fetches.sessions.length;
      // Two round trips through the handler: what was under way is aborted, nothing new starts.
      await fetch('/__beacons');
      await fetch('/__beacons');
      equal(fetches.sessions.length, fetched, 'no session fetched after the panel closed');
      assert(fetched < sessionIds.length, `stopped short: ${fetched} of ${sessionIds.length}`);
    } finally {
      fetches.stop();
    }
  });
});
