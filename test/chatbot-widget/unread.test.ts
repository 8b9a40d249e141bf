// The launcher's unread badge: bot replies that arrive while the panel is closed are counted,
// the same number shows in every tab (two widgets on one endpoint act as two tabs: each has
// its own BroadcastChannel, IndexedDB is shared), opening the panel anywhere clears it
// everywhere, the count survives a reload, and it is announced politely.
import { axeViolations } from '../helpers/browser/axe.js';
import { equal, freshNamespace, mount, part, parts, quietFor, unmountAll, waitFor, waitForReplies } from '../helpers/browser/helpers.js';
import type { ChatbotWidget } from '../../src/browser/index.js';

afterEach(() => unmountAll());

const badge = (el: ChatbotWidget) => part(el, 'unread-badge')?.textContent?.trim() ?? '';
const announced = (el: ChatbotWidget) => el.shadowRoot!.querySelector('#unread')!.textContent!.trim();

describe('<chatbot-widget> unread badge', () => {
  it('counts replies that arrive while closed, in every tab, and clears them everywhere on open', async () => {
    const namespace = freshNamespace();
    const one = await mount({}, namespace);
    const two = await mount({}, namespace);
    equal(badge(one.el), '', 'nothing unread at first');

    await one.el.send('first while closed');
    await waitFor(() => badge(one.el) === '1', 'one unread reply in the tab that sent');
    equal(announced(one.el), '1 unread reply', 'announced in a polite status');
    equal(part(one.el, 'launcher')!.getAttribute('aria-describedby'), 'unread', 'the launcher is described by the count');
    await waitFor(() => badge(two.el) === '1', 'the same number in the other tab');

    await two.el.send('second while closed');
    await waitFor(() => badge(one.el) === '2' && badge(two.el) === '2', 'two unread replies in both tabs');
    equal(announced(two.el), '2 unread replies');

    two.el.show();
    await two.el.updateComplete;
    await waitFor(() => badge(one.el) === '' && badge(two.el) === '', 'opening one tab clears the badge in both');
    equal(announced(one.el), '', 'nothing left to announce');
  });

  it("shows the number in the language's digits, as it is announced", async () => {
    const { el } = await mount({ lang: 'fa' });
    await el.send('while closed, in Persian');
    await waitFor(() => badge(el) === '۱', `the badge in Persian digits: "${badge(el)}"`);
    equal(announced(el).includes('۱'), true, `the announcement has the same digit: "${announced(el)}"`);
  });

  it('does not count replies the visitor sees, and keeps the count across a reload', async () => {
    const namespace = freshNamespace();
    const first = await mount({ open: '' }, namespace);
    await first.el.send('seen as it arrives');
    await waitForReplies(first.el, 1);
    first.el.hide();
    await first.el.updateComplete;
    equal(badge(first.el), '', 'a reply shown in the open panel is not unread');

    await first.el.send('arrives while closed');
    await waitFor(() => badge(first.el) === '1', 'the reply to a send made while closed is unread');
    first.el.remove();
    const reloaded = await mount({}, namespace);
    await waitFor(() => badge(reloaded.el) === '1', 'the count comes back after a reload');
    equal((await axeViolations(reloaded.el)).join('\n'), '', 'axe finds nothing with the badge shown');

    reloaded.el.show();
    await reloaded.el.updateComplete;
    reloaded.el.hide();
    await reloaded.el.updateComplete;
    equal(parts(reloaded.el, 'unread-badge').length, 0, 'seen once opened');
  });

  it('forgets the count with the visitor on reset()', async () => {
    const namespace = freshNamespace();
    const { el } = await mount({}, namespace);
    await el.send('to be forgotten');
    await waitFor(() => badge(el) === '1', 'one unread');
    await el.reset();
    await waitFor(() => badge(el) === '', 'no badge after reset');
    el.remove();
    const again = await mount({}, namespace);
    await again.el.updateComplete;
    await quietFor(300);
    equal(badge(again.el), '', 'nothing unread comes back after a reload');
  });
});
