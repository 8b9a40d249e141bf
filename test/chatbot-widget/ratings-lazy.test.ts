// The code that sends ratings (outbox-ratings.ts) loads with the first rating to send, not on
// every `online` event of a visitor who never rated. Alone in its file: once loaded, a module
// stays loaded for the page.
import { equal, mount, part, quietFor, unmountAll, waitFor, waitForReplies } from '../helpers/browser/helpers.js';

const ratingsCodeLoaded = () => performance.getEntriesByType('resource').some((e) => e.name.includes('/conversation/outbox-ratings'));

afterEach(() => unmountAll());

describe('<chatbot-widget> ratings code', () => {
  it('is not loaded when the browser comes back online with no rating waiting, and is with one', async () => {
    const { el } = await mount({ open: '', mode: 'inline' });
    await el.send('nothing rated');
    await waitForReplies(el, 1);
    window.dispatchEvent(new Event('online'));
    await quietFor(500);
    equal(ratingsCodeLoaded(), false, 'not loaded for an online event with nothing to send');

    part(el, 'feedback-up')!.click();
    await waitFor(ratingsCodeLoaded, 'loaded with the first rating');
  });
});
