// Two tabs of one site stay in step through BroadcastChannel. Two widgets on one page on the
// same endpoint behave as two tabs: each has its own channel object, storage is shared.
import { bubbleTexts, freshNamespace, mount, unmountAll, waitFor, waitForReplies } from './support/helpers.js';

afterEach(() => unmountAll());

describe('<chatbot-widget> tabs', () => {
  it('shows in one tab what was sent in the other', async () => {
    const namespace = freshNamespace();
    const one = await mount({ open: '', mode: 'inline' }, namespace);
    await one.el.send('first from tab one');
    await waitForReplies(one.el, 1);
    const two = await mount({ open: '', mode: 'inline' }, namespace);
    await waitFor(() => bubbleTexts(two.el).includes('You said: first from tab one'), 'tab two restores the conversation');
    await one.el.send('second from tab one');
    await waitFor(() => bubbleTexts(two.el).includes('You said: second from tab one'), 'tab two hears of the new messages');
    await waitFor(() => bubbleTexts(two.el).join('|') === bubbleTexts(one.el).join('|'), 'both tabs show the same conversation');
  });
});
