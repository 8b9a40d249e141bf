// The widget's states as screenshots, compared with approved ones (test/screenshots/
// baseline; `npm run test:visual:update` approves a new look and writes the README's pictures
// from them): the launcher with its unread badge, an empty panel with greeting and suggestions, a
// conversation with a code block, a table, a long link and an error, the history pane's search,
// the quota notice, a failed send, the dark theme, a 360 px phone, and <chatbot-usage>.
// Right-to-left layouts are in rtl-visual.test.ts.
import { sendKeys, setViewport } from '@web/test-runner-commands';
import {
  freshNamespace,
  mount,
  network,
  part,
  parts,
  typeAndSend,
  unmountAll,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';
import {
  converse,
  conversationWithError,
  darkConversation,
  launcherWithBadge,
  panelWithGreeting,
  widgetIn,
} from '../helpers/browser/visual-scenes.js';
import { mountUsage, unmountUsage } from '../helpers/browser/usage-helpers.js';
import { seedUsage } from '../helpers/browser/usage-seed.js';
import { fixedQuotaReset, frame, removeFrames, settle, useTestFont, visualDiff } from '../helpers/browser/visual.js';

afterEach(async () => {
  unmountAll();
  unmountUsage();
  removeFrames();
  await setViewport({ width: 800, height: 600 });
});

describe('<chatbot-widget> states, as screenshots', () => {
  it('the launcher with its unread badge', async () => {
    const { el, box } = await launcherWithBadge();
    await settle(el);
    await visualDiff(box, 'launcher-badge');
  });

  it('an empty panel with the greeting and suggestions', async () => {
    const { el, box } = await panelWithGreeting();
    await settle(el);
    await visualDiff(box, 'panel-greeting');
  });

  it('a conversation with a code block, a table, a long link, and an error', async () => {
    const { el, box } = await conversationWithError();
    await settle(el);
    await visualDiff(box, 'conversation');
  });

  it('a failed first send', async () => {
    const box = frame(380, 420);
    const { el, namespace } = await widgetIn(box, { mode: 'inline', heading: 'Help' });
    await waitFor(() => part(el, 'input'), 'the panel');
    await network(namespace, 'down');
    await typeAndSend(el, 'Hello?');
    await waitFor(() => part(el, 'retry-button'), 'the Retry button');
    await settle(el);
    await visualDiff(box, 'failed-send');
  });

  it('the dark theme', async () => {
    const { el, box } = await darkConversation();
    await settle(el);
    await visualDiff(box, 'dark-conversation');
  });

  it("the history pane's search results", async () => {
    const box = frame(400, 560);
    const { el } = await widgetIn(box, { mode: 'inline', heading: 'Help' });
    await converse(el);
    part(el, 'history-button')!.click();
    await el.updateComplete;
    // The pane lists the conversation first (fetching its messages into the cache it searches).
    await waitFor(() => part(el, 'session'), 'the conversation listed');
    // The index is built from the cache when the field takes focus, and again whenever a
    // conversation is cached (the one just sent may still be on its way to the cache).
    part(el, 'search-input')!.focus();
    await sendKeys({ type: 'style' });
    await waitFor(() => parts(el, 'search-result').length > 0, 'a search result');
    await settle(el);
    await visualDiff(box, 'history-search');
  });

  it('the quota notice once the day is spent', async () => {
    const box = frame(380, 420);
    const restoreFetch = fixedQuotaReset();
    try {
      const { el } = await widgetIn(box, { mode: 'inline', heading: 'Help' }, freshNamespace('daily'));
      for (let i = 1; i <= 5; i++) {
        await el.send(`message ${i}`);
        await waitForReplies(el, i);
      }
      await waitFor(() => part(el, 'quota-notice')?.textContent?.includes('2030'), 'the quota notice');
      await settle(el);
      await visualDiff(box, 'quota-notice');
    } finally {
      restoreFetch();
    }
  });

  it('a 360 px phone: the panel takes the screen', async () => {
    await setViewport({ width: 360, height: 640 });
    const { el } = await mount({ open: '', heading: 'Help' });
    await useTestFont(el);
    await converse(el);
    await settle(el);
    await visualDiff(part(el, 'panel')!, 'phone-360');
  });
});

describe('<chatbot-usage>, as a screenshot', () => {
  before(() => seedUsage());

  it('a year of figures', async () => {
    await setViewport({ width: 1100, height: 900 });
    const { el } = await mountUsage({ from: '2023-01-01', to: '2024-01-01' });
    el.style.setProperty('display', 'block');
    el.style.setProperty('width', '1040px');
    await useTestFont(el);
    await settle(el);
    await visualDiff(el, 'usage');
  });
});
