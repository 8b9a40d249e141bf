// The history pane's search box in the element: its code fetched when the history pane opens, the visitor's
// messages of every cached conversation found offline and highlighted, a result opening its
// conversation at its message, and the keyboard path. (Ranking and words: search-index.test.ts.)
import { sendKeys } from '@web/test-runner-commands';
import {
  assert,
  browserOnline,
  equal,
  mount,
  network,
  part,
  parts,
  unmountAll,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';
import { visitorWithCachedSessions } from '../helpers/browser/cached-sessions.js';
import type { ChatbotWidget } from '../../src/browser/index.js';

/** Whether the page has fetched the search code (its own module here, its own chunk when built). */
const searchCodeLoaded = () => performance.getEntriesByType('resource').some((e) => e.name.includes('/search/search-index'));

const results = (el: ChatbotWidget) => parts(el, 'search-result');
const marks = (result: HTMLElement) => [...result.querySelectorAll('mark')].map((m) => m.textContent);
const status = (el: ChatbotWidget) => el.shadowRoot!.querySelector('[role="search"] [role="status"]')!.textContent!.trim();

async function search(el: ChatbotWidget, query: string) {
  await el.updateComplete;
  const input = part(el, 'search-input') as HTMLInputElement;
  input.focus();
  input.select();
  await sendKeys({ type: query });
  await waitFor(() => status(el) !== '', `the search for ${query}`);
}

describe('<chatbot-widget> history search', () => {
  afterEach(() => {
    browserOnline(true);
    unmountAll();
  });

  it("loads its code with the history pane, then finds the visitor's messages across conversations offline, highlighted", async () => {
    const { el, namespace } = await visitorWithCachedSessions('Where is my refund?', [
      ['Où est ma livraison ?', 'Refund the delivery fee'],
      ['我想预订机票', '<img src=x onerror=alert(1)> refund'],
    ]);
    await network(namespace, 'down');
    browserOnline(false);
    if (part(el, 'history')!.hidden) part(el, 'history-button')!.click();
    await el.updateComplete;
    await waitFor(searchCodeLoaded, 'the search code, fetched when the history pane opens (ahead of its use, in case the connection goes)');
    await search(el, 'LIVRAISON');
    equal(results(el).length, 1);
    equal(marks(results(el)[0]!).join(), 'livraison', 'the word found, accent-insensitive');
    equal(status(el), '1 result');
    assert(
      parts(el, 'session').every((s) => s.offsetParent === null),
      'results replace the session list',
    );

    await search(el, 'refund');
    equal(results(el).length, 3, 'all three conversations');
    equal(status(el), '3 results');
    assert(
      results(el).every((r) => marks(r).join().toLowerCase() === 'refund'),
      'each marks its word',
    );
    const hostile = results(el).find((r) => r.textContent!.includes('<img'));
    assert(hostile && !hostile.querySelector('img'), 'message text stays text');
    equal(results(el)[0]!.textContent!.includes('Where is my refund?'), true, 'the shortest, newest message first');

    await search(el, '机票');
    equal(marks(results(el)[0]!).join(), '机票');

    await search(el, 'nothing-like-this');
    equal(results(el).length, 0);
    equal(status(el), 'No results');
  });

  it('opens a result at its message: the conversation shown, the message in view and focused', async () => {
    const filler = Array.from({ length: 45 }, (_, i) => `filler message ${i}`);
    // 98 messages, all in the first page (so all cached); the needle far above the newest 40 bubbles.
    const { el, namespace, sessionIds } = await visitorWithCachedSessions(
      'hello',
      [[...filler.slice(0, 3), 'the needle', ...filler.slice(3)]],
      { 'page-size': '100' },
    );
    await network(namespace, 'down');
    browserOnline(false);
    if (part(el, 'history')!.hidden) part(el, 'history-button')!.click();
    await search(el, 'needle');
    const result = results(el)[0]!;
    equal(result.dataset.session, sessionIds[0]);
    result.click();
    const found = await waitFor(
      () => el.shadowRoot!.querySelector<HTMLElement>(`[part~="message"][data-key="${result.dataset.message}"]`),
      'the message rendered',
    );
    await waitFor(() => el.shadowRoot!.activeElement === found, 'the message focused');
    assert(found.hasAttribute('data-found'), 'the message marked');
    const list = part(el, 'messages')!.getBoundingClientRect();
    const box = found.getBoundingClientRect();
    assert(box.bottom > list.top && box.top < list.bottom, 'in view');
    assert(part(el, 'history')!.hidden, 'the pane closes');
  });

  it('works from the keyboard: Down and Tab reach the results, Enter opens one, Escape clears', async () => {
    const { el } = await visitorWithCachedSessions('first question', [['second question'], ['third question']]);
    if (part(el, 'history')!.hidden) part(el, 'history-button')!.click();
    await search(el, 'question');
    equal(results(el).length, 3);
    await sendKeys({ press: 'ArrowDown' });
    equal(el.shadowRoot!.activeElement, results(el)[0], 'Down: the first result');
    await sendKeys({ press: 'ArrowDown' });
    equal(el.shadowRoot!.activeElement, results(el)[1], 'Down: the next');
    await sendKeys({ press: 'ArrowUp' });
    await sendKeys({ press: 'ArrowUp' });
    equal(el.shadowRoot!.activeElement, part(el, 'search-input'), 'Up from the first: back to the box');
    await sendKeys({ press: 'Tab' });
    equal(el.shadowRoot!.activeElement, results(el)[0], 'Tab: the first result');
    await sendKeys({ press: 'Shift+Tab' });
    await sendKeys({ press: 'Escape' });
    equal((part(el, 'search-input') as HTMLInputElement).value, '', 'Escape clears');
    equal(results(el).length, 0);
    assert(!part(el, 'history')!.hidden && el.open, 'the pane and the panel stay open');
    await search(el, 'third');
    await sendKeys({ press: 'ArrowDown' });
    await sendKeys({ press: 'Enter' });
    await waitFor(() => el.shadowRoot!.activeElement?.getAttribute('part')?.includes('message'), 'the message opened and focused');
    assert(el.shadowRoot!.activeElement!.textContent!.includes('third question'));
  });

  it('forgets the search with the visitor: after reset() the pane opens with an empty box and no results', async () => {
    const { el } = await visitorWithCachedSessions('first question', [['second question']]);
    if (part(el, 'history')!.hidden) part(el, 'history-button')!.click();
    await search(el, 'question');
    equal(results(el).length, 2);
    await el.reset();
    await el.updateComplete;
    assert(part(el, 'history')!.hidden, 'the pane closes');
    part(el, 'history-button')!.click();
    await el.updateComplete;
    equal((part(el, 'search-input') as HTMLInputElement).value, '', 'the box is empty');
    equal(results(el).length, 0, 'no result of the visitor forgotten');
  });
  it('finds a message sent while the box held its index, without the box losing focus', async () => {
    const { el } = await mount({ open: '', mode: 'inline' });
    await el.send('warm up');
    await waitForReplies(el, 1);
    part(el, 'history-button')!.click();
    await waitFor(() => part(el, 'search-input'), 'the search box');
    await el.updateComplete;
    const input = part(el, 'search-input') as HTMLInputElement;
    input.focus(); // the index is built now, from what is cached
    await waitFor(searchCodeLoaded, 'the search code');
    await el.send('Which zebra stripes?');
    await waitForReplies(el, 2);
    equal(el.shadowRoot!.activeElement, input, 'the box kept its focus');
    await sendKeys({ type: 'zebra' });
    await waitFor(() => results(el).length === 1, 'the message sent meanwhile, found');
    equal(marks(results(el)[0]!).join(), 'zebra');
  });
});
