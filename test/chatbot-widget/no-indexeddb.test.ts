// Private modes without IndexedDB: the widget still chats, uncached. The page's indexedDB is
// taken away before the widget loads (the only thing stubbed in this file).
import { assert, equal, mount, unmountAll, waitForReplies, bubbleTexts, readFirstPaintRecord } from '../helpers/browser/helpers-no-idb.js';
import { quietFor } from '../helpers/browser/helpers.js';

afterEach(() => unmountAll());

describe('<chatbot-widget> without IndexedDB', () => {
  it('sends and shows the reply', async () => {
    equal(typeof (window as unknown as { indexedDB?: unknown }).indexedDB, 'undefined', 'indexedDB is gone');
    const { el, namespace } = await mount({ open: '' });
    await el.send('private mode');
    await waitForReplies(el, 1);
    assert(bubbleTexts(el).includes('You said: private mode'));
    // The identity lives as long as the page: so does everything else. Nothing is left in
    // localStorage for a reload, which will be another visitor.
    await quietFor(300);
    const { record, visitor } = readFirstPaintRecord(namespace);
    equal(visitor, null, 'no visitor named in localStorage');
    equal(record, undefined, 'no first-paint record in localStorage');
  });
});
