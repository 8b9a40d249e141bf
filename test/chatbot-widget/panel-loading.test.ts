// A widget removed from the page while its panel's code is on its way: the panel is built when
// the code arrives, but works (connects, listens to the page and the keyboard) only once the
// widget is attached again. The code is held back for this page (web-test-runner.config.mjs),
// which is why this test has a file of its own: a page that has imported that code once never
// fetches it again.
import { executeServerCommand } from '@web/test-runner-commands';
import type { ChatbotWidget } from '../../src/chatbot-widget/chatbot-widget.js';
import {
  assert,
  equal,
  mountWatched,
  part,
  quietFor,
  typeAndSend,
  unmountAll,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';

before(() => executeServerCommand('hold-panel-code'));
after(() => executeServerCommand('release-panel-code'));
afterEach(() => unmountAll());

/** The panel's conversation, once its code has built it. */
const conversationOf = (el: ChatbotWidget) => (el as unknown as { panel?: { chat: { ready: boolean } } }).panel?.chat;

/** Requests the page made to the widget's endpoint. */
const requestsTo = (namespace: string) =>
  performance.getEntriesByType('resource').filter((entry) => entry.name.includes(`/t/${namespace}/`)).length;

describe('<chatbot-widget> removed while its panel loads', () => {
  it('builds the panel idle, and connects it and its keyboard once attached again', async () => {
    const namespace = `detached-${Date.now().toString(36)}`;
    const { el } = mountWatched({ open: '' }, namespace);
    await waitFor(() => el.shadowRoot!.querySelector('.loading'), 'the loading line');
    const parent = el.parentNode!;
    el.remove();
    await executeServerCommand('release-panel-code');
    const chat = await waitFor(() => conversationOf(el), 'the panel built');
    await el.updateComplete;
    await quietFor(500);
    equal(chat.ready, false, 'not connected while detached');
    equal(requestsTo(namespace), 0, 'no request to the endpoint while detached');

    parent.append(el);
    await waitFor(() => chat.ready, 'connected once attached');
    await typeAndSend(el, 'Hello again');
    await waitForReplies(el, 1);
    // The focus trap listens again: Escape closes the floating panel.
    part(el, 'input')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, composed: true }));
    await el.updateComplete;
    assert(!el.open, 'Escape closed the panel');
  });
});
