// The panel's snapshot as the panel keeps it: when the page is hidden (a reload, a link, another
// tab) with the panel showing the current conversation at its end, its visible DOM (no styles) goes
// to localStorage for the stored visitor, and the next load draws them in its first render until
// the panel replaces them. Never when the panel is not what the next load draws first, and gone
// whenever the conversation's first-paint record changes. (snapshot-loading.test.ts: the drawing
// side, with the panel's code held back.)
import type { ChatbotWidget } from '../../src/browser/index.js';
import {
  absoluteEndpoint,
  assert,
  bubbleTexts,
  equal,
  fakeMessage,
  freshNamespace,
  mount,
  network,
  part,
  readFirstPaintRecord,
  typeAndSend,
  unmountAll,
  waitFor,
  waitForReplies,
  writeCachedConversation,
} from '../helpers/browser/helpers.js';

afterEach(() => {
  pageHidden(false);
  unmountAll();
});

/** The page hidden (as when it goes, or another tab is chosen) or shown again. */
function pageHidden(hidden: boolean) {
  const doc = document as unknown as { visibilityState?: string; hidden?: boolean };
  if (hidden) {
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
  } else {
    delete doc.visibilityState;
    delete doc.hidden;
  }
  document.dispatchEvent(new Event('visibilitychange'));
}

/** The snapshot the endpoint's first-paint record carries: whose, its nodes, and their text. */
function storedSnapshot(namespace: string) {
  const text = localStorage.getItem(`chatbot-widget|paint|${absoluteEndpoint(namespace)}`);
  const record = text ? (JSON.parse(text) as { userId: string; snapshot?: unknown[] }) : undefined;
  if (!record?.snapshot) return undefined;
  return { visitor: record.userId, nodes: record.snapshot, text: JSON.stringify(record.snapshot) };
}

/** A cached conversation of 40 messages (`Message 0` … `Message 39`), offline, as a previous visit left it. */
async function cachedConversation() {
  const namespace = freshNamespace();
  const messages = Array.from({ length: 40 }, (_, i) => ({ ...fakeMessage(i, 'cached-session', 'cached-visitor'), text: `Message ${i}` }));
  await writeCachedConversation(namespace, messages, undefined, undefined, { firstPaint: true });
  await network(namespace, 'down');
  return namespace;
}

const ready = (el: ChatbotWidget) => (el as unknown as { panel?: { chat: { ready: boolean } } }).panel?.chat.ready;

/** Mounts the widget and waits until its panel has read the cache. */
async function mountReady(attributes: Record<string, string>, namespace: string) {
  const { el } = await mount(attributes, namespace);
  await waitFor(() => ready(el), 'the cache read');
  await el.updateComplete;
  return el;
}

/** Where the newest bubbles, the header and the message field are on screen (px, rounded), by bubble key. */
function layoutOf(root: ShadowRoot) {
  const box = (el: Element | null) => {
    const r = el!.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height].map(Math.round).join(',');
  };
  const bubbles = [...root.querySelectorAll<HTMLElement>('[part~="message"]')].slice(-3);
  return {
    bubbles: Object.fromEntries(bubbles.map((b) => [b.dataset.key, box(b)])) as Record<string, string>,
    header: box(root.querySelector('[part="header"]')),
    input: box(root.querySelector('[part="input"]')),
  };
}

/**
 * Mounts the widget open, watched from before its first render: answers the texts of the first
 * bubbles drawn, whether they were the snapshot's, and its layout (noted in the task of that render).
 */
function mountWatchingFirstBubbles(namespace: string) {
  const el = document.createElement('chatbot-widget') as ChatbotWidget;
  el.setAttribute('endpoint', `/t/${namespace}/chatbot`);
  el.setAttribute('open', '');
  const first = new Promise<{ snapshot: boolean; texts: string[]; layout: ReturnType<typeof layoutOf> }>((resolve) => {
    const observer = new MutationObserver(() => {
      const root = el.shadowRoot!;
      const bubbles = [...root.querySelectorAll('[part~="message"]')];
      if (!bubbles.length) return;
      observer.disconnect();
      resolve({
        snapshot: Boolean(root.querySelector('.snapshot[inert]')),
        texts: bubbles.map((b) => b.textContent!.trim()),
        layout: layoutOf(root),
      });
    });
    document.body.append(el);
    observer.observe(el.shadowRoot!, { childList: true, subtree: true });
  });
  return { el, first };
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));

describe('<chatbot-widget> snapshot', () => {
  it('is kept when the page is hidden, and drawn by the next load until the panel replaces it', async () => {
    const namespace = await cachedConversation();
    const el = await mountReady({ open: '' }, namespace);
    equal(storedSnapshot(namespace), undefined, 'none while the page is shown');
    pageHidden(true);
    const stored = storedSnapshot(namespace);
    assert(stored, 'kept on hiding');
    equal(stored.visitor, 'cached-visitor', 'for the stored visitor');
    assert(
      stored.nodes.every((node) => typeof node === 'string' || Array.isArray(node)) && !stored.text.includes('{'),
      'nodes only: no styles (the next load draws with its own)',
    );
    assert(stored.text.includes('Message 39'), 'the newest message in it');
    assert(!stored.text.includes('"Message 0"') && !stored.text.includes('Message 10'), 'not the bubbles scrolled out of view above');
    assert(!stored.text.includes('"history"'), 'not what is hidden (the history pane)');
    pageHidden(false);
    el.remove();

    const { el: again, first } = mountWatchingFirstBubbles(namespace);
    const drawn = await first;
    assert(drawn.snapshot, 'the first bubbles drawn are the snapshot’s');
    assert(drawn.texts.at(-1)!.includes('Message 39'), `the newest last: ${drawn.texts.at(-1)}`);
    await waitFor(() => part(again, 'input') && !again.shadowRoot!.querySelector('.snapshot'), 'the panel in its place');
    assert(bubbleTexts(again).at(-1)!.includes('Message 39'), 'the panel shows the same newest message');
    // Where the snapshot had them, the panel has them: replacing it moves nothing on screen.
    await nextFrame();
    await nextFrame();
    // (Within a pixel: the list's end is where its content's fractional height puts it, and the
    // panel lays out a different number of bubbles above the window than the snapshot.)
    const panelLayout = layoutOf(again.shadowRoot!);
    const boxes = (layout: ReturnType<typeof layoutOf>): string[] => [...Object.values(layout.bubbles), layout.header, layout.input];
    equal(Object.keys(panelLayout.bubbles).join(' '), Object.keys(drawn.layout.bubbles).join(' '), 'the same newest bubbles');
    const apart = boxes(panelLayout).map((box, i) => {
      const other = boxes(drawn.layout)[i]!.split(',').map(Number);
      return Math.max(...box.split(',').map((n, j) => Math.abs(Number(n) - other[j]!)));
    });
    assert(Math.max(...apart) <= 1, `the same layout: ${JSON.stringify(drawn.layout)} then ${JSON.stringify(panelLayout)}`);
    again.remove();
  });

  it('is not kept when the next load would draw something else first', async () => {
    /** Shows or hides the typing indicator, as the send of a message does. */
    const typing = (el: ChatbotWidget, on: boolean) => {
      (el as unknown as { panel: { chat: { sender: { typing: boolean } } } }).panel.chat.sender.typing = on;
      el.requestUpdate();
    };
    const namespace = await cachedConversation();
    const el = await mountReady({ open: '' }, namespace);
    const cases: [string, () => Promise<void> | void, () => Promise<void> | void][] = [
      ['the history pane open', () => part(el, 'history-button')!.click(), () => part(el, 'history-button')!.click()],
      [
        'the list scrolled up from its end',
        async () => {
          const list = part(el, 'messages')!;
          list.scrollTop = 0;
          list.dispatchEvent(new Event('scroll'));
          await el.updateComplete;
        },
        async () => {
          const list = part(el, 'messages')!;
          list.scrollTop = list.scrollHeight;
          list.dispatchEvent(new Event('scroll'));
          await el.updateComplete;
        },
      ],
      ['the chat closed', () => el.hide(), () => el.show()],
      // The moment between a reply's arrival and the typing indicator going: nothing in the outbox.
      ['the typing indicator shown', () => typing(el, true), () => typing(el, false)],
    ];
    for (const [state, enter, leave] of cases) {
      await enter();
      await el.updateComplete;
      pageHidden(true);
      equal(storedSnapshot(namespace), undefined, `${state}: none`);
      pageHidden(false);
      await leave();
      await el.updateComplete;
      pageHidden(true);
      assert(storedSnapshot(namespace), `${state}, then back: kept`);
      pageHidden(false);
    }
    // Offline: a message not sent, and the error that says so.
    await typeAndSend(el, 'not sent');
    await waitFor(() => part(el, 'message-failed'), 'the send failed');
    pageHidden(true);
    equal(storedSnapshot(namespace), undefined, 'a message not sent: none');
  });

  it('is not put into a record another tab wrote since: the panel shows an older conversation', async () => {
    const namespace = await cachedConversation();
    await mountReady({ open: '' }, namespace);
    const key = `chatbot-widget|paint|${absoluteEndpoint(namespace)}`;
    const record = JSON.parse(localStorage.getItem(key)!) as { conversation: { messages: { id: string; text: string }[] } };
    record.conversation.messages.push({ ...record.conversation.messages.at(-1)!, id: 'from-another-tab', text: 'Newer' });
    localStorage.setItem(key, JSON.stringify(record));
    pageHidden(true);
    equal(storedSnapshot(namespace), undefined);
    assert(localStorage.getItem(key)!.includes('from-another-tab'), 'the other tab’s record stays');
  });

  it('writes nothing on hiding when there is nothing to put in or take out (the chat closed)', async () => {
    const namespace = await cachedConversation();
    await mountReady({}, namespace);
    const key = `chatbot-widget|paint|${absoluteEndpoint(namespace)}`;
    const writes: string[] = [];
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (this: Storage, name: string, value: string) {
      writes.push(name);
      setItem.call(this, name, value);
    };
    try {
      pageHidden(true);
    } finally {
      Storage.prototype.setItem = setItem;
    }
    equal(writes.filter((name) => name === key).length, 0, 'the record is not written again');
    assert(localStorage.getItem(key), 'and stays');
  });

  it('goes when the conversation changes (a reply), and on reset()', async () => {
    const namespace = freshNamespace();
    const { el } = await mount({ open: '' }, namespace);
    await typeAndSend(el, 'first question');
    await waitForReplies(el, 1);
    await waitFor(() => ready(el) && readFirstPaintRecord(namespace).record, 'the reply stored');
    pageHidden(true);
    await waitFor(() => storedSnapshot(namespace), 'kept on hiding');
    pageHidden(false);
    await typeAndSend(el, 'second question');
    await waitForReplies(el, 2);
    await waitFor(() => !storedSnapshot(namespace), 'gone once the conversation changed');
    await waitFor(() => readFirstPaintRecord(namespace).record?.conversation.messages.length === 4, 'the reply stored');
    pageHidden(true);
    assert(storedSnapshot(namespace)?.text.includes('second question'), 'kept again, with the reply');
    pageHidden(false);
    await el.reset();
    equal(storedSnapshot(namespace), undefined, 'gone with the visitor');
  });
});
