// The first paint after a reload: the newest messages come from the first-paint record in
// localStorage, drawn in the panel's first render (before IndexedDB has opened) only when it is
// the stored visitor's; as many bubbles as fill the list, no more.
import {
  absoluteEndpoint,
  assert,
  bubbleTexts,
  endpointOf,
  equal,
  fakeMessage,
  freshNamespace,
  idbSet,
  idbStore,
  mount,
  mountWatched,
  network,
  part,
  parts,
  quietFor,
  readFirstPaintRecord,
  unmountAll,
  waitFor,
  waitForReplies,
  writeCachedConversation,
  writeFirstPaintRecord,
} from '../helpers/browser/helpers.js';

afterEach(() => unmountAll());

/** A cached conversation of `count` messages, each `text(i)`, with its first-paint record. */
async function cachedConversation(count: number, text: (i: number) => string) {
  const namespace = freshNamespace();
  const messages = Array.from({ length: count }, (_, i) => ({ ...fakeMessage(i, 'cached-session', 'cached-visitor'), text: text(i) }));
  await writeCachedConversation(namespace, messages, undefined, undefined, { firstPaint: true });
  await network(namespace, 'down');
  return namespace;
}

/**
 * The first render that shows bubbles, laid out: how many, and whether they fill the list (the
 * list scrolled to its end shows no empty space above the first of them).
 */
async function firstPaint(attributes: Record<string, string>, namespace: string) {
  const { el, first } = mountWatched(attributes, namespace);
  const keys = await first; // in the task of that render, before the window widens
  const list = part(el, 'messages')!;
  list.scrollTop = list.scrollHeight;
  const firstBubble = parts(el, 'message')[0]!;
  const gapAbove = firstBubble.getBoundingClientRect().top - list.getBoundingClientRect().top;
  return { keys, fills: list.scrollHeight > list.clientHeight && gapAbove <= 0, gapAbove };
}

describe('<chatbot-widget> first paint', () => {
  it('draws as many of the newest bubbles as fill the list, and few more', async () => {
    const cases: [string, Record<string, string>, (i: number) => string, number][] = [
      ['floating, one-line messages', { open: '' }, (i) => `Short message ${i}`, 12],
      // Each fills half the list: the first paint's minimum, 6, and no more.
      ['floating, long replies', { open: '' }, (i) => `Reply ${i} ${'word '.repeat(120)}`, 6],
      ['inline and wide, one-line messages', { mode: 'inline', style: 'display:block;width:900px;height:560px' }, (i) => `Line ${i}`, 14],
      ['inline, Markdown lists', { mode: 'inline', style: 'display:block;height:560px' }, (i) => `Item ${i}:\n\n- one\n- two\n- three`, 8],
      // The replies' long line of code scrolls sideways in its bubble: one line high, not many.
      [
        'inline and tall, one-line code blocks',
        { mode: 'inline', style: 'display:block;height:1200px' },
        (i) => (i % 2 ? `Code ${i}:\n\n\`\`\`json\n{"data":"${'x'.repeat(3_000)}"}\n\`\`\`` : `Question ${i}`),
        16,
      ],
    ];
    for (const [name, attributes, text, most] of cases) {
      const namespace = await cachedConversation(200, text);
      const painted = await firstPaint(attributes, namespace);
      assert(painted.fills, `${name}: the first bubbles leave ${painted.gapAbove.toFixed(0)} px empty above them`);
      equal(painted.keys.at(-1), 'm000199', `${name}: the newest message is in it`);
      assert(painted.keys.length <= most, `${name}: at most ${most} bubbles for the first paint, got ${painted.keys.length}`);
      // …then the window widens above them.
      await waitFor(() => parts(document.querySelector('chatbot-widget')!, 'message').length === 40, `${name}: the full window`);
      unmountAll();
    }
  });

  it('ignores a first-paint record left by another visitor of the endpoint', async () => {
    const namespace = freshNamespace();
    const mine = [fakeMessage(0, 'cached-session', 'cached-visitor'), fakeMessage(1, 'cached-session', 'cached-visitor')];
    await writeCachedConversation(namespace, mine);
    const stranger = { ...fakeMessage(2, 'other-session', 'someone-else'), id: 'stranger', text: 'not yours' };
    // The stored visitor is named beside the record: a record of anyone else is never drawn.
    writeFirstPaintRecord(namespace, 'someone-else', { sessionId: 'other-session', messages: [stranger], totalItems: 1 }, 'cached-visitor');
    await network(namespace, 'down');
    const { el, first: firstRender } = mountWatched({ open: '' }, namespace);
    const first = await firstRender;
    equal(first.join(','), 'm000000,m000001', 'the first paint is the visitor’s own cache');
    await quietFor(100);
    equal(bubbleTexts(el).join('|'), 'Question number 0|Answer number 1');
  });

  it('takes down a first-paint record that names another visitor than the identity stored, once that is read', async () => {
    const namespace = freshNamespace();
    // A visitor with nothing cached yet; the identity in IndexedDB is the one that counts.
    await idbSet(`identity|${absoluteEndpoint(namespace)}`, { token: 'not-a-valid-token', userId: 'cached-visitor' }, idbStore);
    // Record and name agree with each other, not with that identity (a change the record missed).
    const stranger = { ...fakeMessage(2, 'other-session', 'someone-else'), id: 'stranger', text: 'not yours' };
    writeFirstPaintRecord(namespace, 'someone-else', { sessionId: 'other-session', messages: [stranger], totalItems: 1 });
    await network(namespace, 'down');
    const { el, first } = mountWatched({ open: '' }, namespace);
    equal((await first).join(','), 'stranger', 'drawn at first (the record and its name agree)');
    await waitFor(() => parts(el, 'message').length === 0, 'the other visitor’s messages taken down');
    equal(readFirstPaintRecord(namespace).record, undefined, 'the other visitor’s record is gone');
    equal(readFirstPaintRecord(namespace).visitor, 'cached-visitor', 'the stored visitor named');
  });

  it('ignores a first-paint record that is not one (not JSON, not a conversation) and paints from IndexedDB', async () => {
    for (const broken of ['{not json', 'null', '[1,2]', '{"userId":"cached-visitor","conversation":{"messages":"no"}}']) {
      const namespace = freshNamespace();
      await writeCachedConversation(namespace, [fakeMessage(0, 'cached-session', 'cached-visitor')]);
      localStorage.setItem(`chatbot-widget|visitor|${absoluteEndpoint(namespace)}`, 'cached-visitor');
      localStorage.setItem(`chatbot-widget|paint|${absoluteEndpoint(namespace)}`, broken);
      await network(namespace, 'down');
      const { el } = await mount({ open: '' }, namespace);
      await waitFor(() => bubbleTexts(el).join('|') === 'Question number 0', `the cached conversation despite ${broken}`);
      unmountAll();
    }
  });

  it('draws the newest messages in the panel’s first render, from localStorage, before IndexedDB answers', async () => {
    const namespace = freshNamespace();
    const messages = Array.from({ length: 40 }, (_, i) => fakeMessage(i, 'cached-session', 'cached-visitor'));
    await writeCachedConversation(namespace, messages, undefined, undefined, { firstPaint: true });
    await network(namespace, 'down');
    const { first, drawnEmpty } = mountWatched({ open: '' }, namespace);
    equal((await first).at(-1), 'm000039', 'the newest message first');
    equal(drawnEmpty(), false, 'the list was drawn empty before the cached messages came');
  });

  it('a renewed identity (the stored token refused) unnames the old visitor: their record is never drawn again', async () => {
    const namespace = await cachedConversation(4, (i) => `Old visitor's message ${i}`);
    await network(namespace, 'up');
    const { el } = await mount({ open: '' }, namespace);
    // The stored token is not valid: the send gets a 401, and a new identity from the handler.
    await el.send('hello again');
    await waitForReplies(el, 1);
    const { visitor, record } = await waitFor(() => {
      const stored = readFirstPaintRecord(namespace);
      return stored.record?.userId === stored.visitor && stored.visitor !== 'cached-visitor' ? stored : undefined;
    }, 'the new visitor named, with a record of their own');
    assert(visitor, 'a visitor named');
    equal(record!.conversation.messages.map((m) => m.text).join('|'), 'hello again|You said: hello again');
    unmountAll();
    const { first } = mountWatched({ open: '' }, namespace);
    equal((await first).length, 2, 'a reload draws the new visitor’s conversation only');
  });

  it('keeps the first-paint record small: long replies leave fewer messages in it', async () => {
    const namespace = freshNamespace();
    const { el } = await mount({ open: '' }, namespace);
    // Five sends of 4,000 characters (the longest the handler takes), each answered at length.
    for (let i = 1; i <= 5; i++) {
      await el.send(`${i} ${'x'.repeat(3_990)}`);
      await waitForReplies(el, i);
    }
    const newest = () => readFirstPaintRecord(namespace).record?.conversation.messages.at(-1)?.text ?? '';
    await waitFor(() => newest().startsWith('You said: 5 '), 'the record of the newest reply');
    const stored = localStorage.getItem(`chatbot-widget|paint|${absoluteEndpoint(namespace)}`)!;
    assert(stored.length <= 32_768, `at most 32 kB of text, got ${stored.length}`);
    const kept = readFirstPaintRecord(namespace).record!.conversation.messages.length;
    assert(kept > 0 && kept < 10, `fewer than the ten messages, the newest ones, got ${kept}`);
  });

  it('the recipe of docs/widget.md keeps the panel open across a tab’s page loads, its newest bubbles drawn at once', async () => {
    const docs = await (await fetch('/docs/widget.md')).text();
    const recipe = /across them[\s\S]*?```js\n([\s\S]*?)```/.exec(docs)?.[1] ?? '';
    assert(recipe.includes('sessionStorage'), 'the recipe in docs/widget.md');
    const namespace = await cachedConversation(40, (i) => `Message ${i}`);
    sessionStorage.removeItem('chat-open');
    /** A page load: the element in the page, then the page's script (the recipe) before it renders. */
    const load = () => {
      const el = document.createElement('chatbot-widget');
      el.setAttribute('endpoint', endpointOf(namespace));
      document.body.append(el);
      new Function(recipe)(); // the docs' own snippet, run as the page's script
      return el;
    };
    const first = load();
    await first.updateComplete;
    equal(first.open, false, 'closed on the first page');
    first.show();
    await first.updateComplete;
    first.remove();
    const second = load();
    equal(second.open, true, 'the next page opens it before its first render');
    await waitFor(() => bubbleTexts(second).at(-1) === 'Message 39', 'the newest message drawn');
    second.hide();
    await second.updateComplete;
    second.remove();
    const third = load();
    await third.updateComplete;
    equal(third.open, false, 'closed again on the page after it was closed');
    third.remove();
    sessionStorage.removeItem('chat-open');
  });
});
