// A snapshot drawn while the panel's code cannot be fetched (every fetch of it fails on this
// page, as offline: web-test-runner.config.mjs, which is why this test has a file of its own):
// it goes, with its styles, and the panel's place says what went wrong.
import { executeServerCommand } from '@web/test-runner-commands';
import { absoluteEndpoint, assert, equal, freshNamespace, mountWatched, part, unmountAll, waitFor } from '../helpers/browser/helpers.js';

before(() => executeServerCommand('fail-panel-code'));
afterEach(() => unmountAll());

const HTML = 'http://www.w3.org/1999/xhtml';

describe('<chatbot-widget> snapshot, when the panel’s code fails to load', () => {
  it('is removed with its styles, and the error line shows', async () => {
    const plain = freshNamespace();
    const namespace = freshNamespace();
    localStorage.setItem(`chatbot-widget|visitor|${absoluteEndpoint(namespace)}`, 'me');
    const snapshot = [[HTML, 'div', [['part', 'message message-bot']], [[HTML, 'p', [], ['Snapshot bubble']]]]];
    const conversation = { sessionId: 'snapshot-session', messages: [], totalItems: 0 };
    localStorage.setItem(`chatbot-widget|paint|${absoluteEndpoint(namespace)}`, JSON.stringify({ userId: 'me', conversation, snapshot }));

    const { el: widget, first } = mountWatched({ open: '' }, namespace);
    await first; // the snapshot's bubble, in the first render
    await waitFor(() => widget.shadowRoot!.querySelector('.loading[role="alert"]'), 'the error line');
    equal(widget.shadowRoot!.querySelector('.snapshot'), null, 'no snapshot');
    const sheets = (el: Element) => el.shadowRoot!.adoptedStyleSheets.length;
    const { el: without } = mountWatched({ open: '' }, plain);
    await waitFor(() => without.shadowRoot!.querySelector('.loading[role="alert"]'), 'the error line without a snapshot');
    equal(sheets(widget), sheets(without), 'the element’s own styles only, as without a snapshot');
    assert(!part(widget, 'message'), 'nothing of it stays');
  });
});
