// <chatbot-usage> costs a page nearly nothing until it is used: the widget entry registers the
// element, but its view (chart, lists, styles) is requested only when the first one connects.
// A file of its own: it needs a page on which no other test has connected the element yet.
import '../../src/browser/index.js';
import { assert, equal, part, quietFor } from '../helpers/browser/helpers.js';
import { mountUsage, unmountUsage } from '../helpers/browser/usage-helpers.js';

afterEach(() => unmountUsage());

const viewRequests = () => performance.getEntriesByType('resource').filter((e) => e.name.includes('chatbot-usage/usage-view')).length;

describe('<chatbot-usage> loading', () => {
  it('is defined by the entry, and loads its view only when the first element connects', async () => {
    assert(customElements.get('chatbot-usage'), 'registered by the entry');
    const detached = document.createElement('chatbot-usage');
    await quietFor(100);
    equal(viewRequests(), 0, 'nothing loaded for a registered, unused element');
    assert(detached.shadowRoot === null || !part(detached, 'chart'), 'nothing rendered while detached');
    const { el } = await mountUsage({ from: '2023-01-01', to: '2023-02-01' });
    assert(viewRequests() >= 1, 'the view was loaded on connection');
    assert(part(el, 'chart') || part(el, 'error'), 'and rendered');
  });
});
