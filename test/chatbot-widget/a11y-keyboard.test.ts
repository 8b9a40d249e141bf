// A visitor on the keyboard alone, with real key presses: the transcript's download button in
// the header, and the history pane (opened, a session chosen, closed with Escape before the
// panel). The search box's keyboard path is in search.test.ts.
import { sendKeys } from '@web/test-runner-commands';
import { assert, equal, part, parts, unmountAll, waitFor } from '../helpers/browser/helpers.js';
import { visitorWithCachedSessions } from '../helpers/browser/cached-sessions.js';
import { recordDownloads } from '../helpers/browser/downloads.js';
import { press, tabTo } from '../helpers/browser/keyboard.js';

let downloads: ReturnType<typeof recordDownloads>;
beforeEach(() => {
  downloads = recordDownloads();
});
afterEach(() => {
  downloads.stop();
  unmountAll();
});

const focused = (el: HTMLElement) => el.shadowRoot!.activeElement as HTMLElement | null;

/** A visitor with an earlier conversation, typing in the field, who opens the history pane with Tab and Enter. */
async function historyOpenedByKeyboard() {
  const { el, sessionIds } = await visitorWithCachedSessions('the current question', [['a question from yesterday']]);
  const history = part(el, 'history')!;
  part(el, 'input')!.focus(); // where the visitor was typing
  const historyButton = await tabTo(el, 'history-button');
  await press('Enter');
  await waitFor(() => !history.hidden, 'the pane opened by Enter');
  return { el, sessionIds, history, historyButton };
}

/** Presses Escape and lets the widget redraw. */
async function escape(el: HTMLElement & { updateComplete: Promise<unknown> }) {
  await press('Escape');
  await el.updateComplete;
}

describe('<chatbot-widget> from the keyboard alone', () => {
  it('reaches the download button with Tab and saves the transcript with Enter, then with Space', async () => {
    const { el } = await visitorWithCachedSessions('saved from the keyboard', []);
    await waitFor(() => focused(el) === part(el, 'input'), 'focus in the message field, as on opening');
    const button = await tabTo(el, 'download-button');
    await press('Enter');
    await waitFor(() => downloads.files.length === 1, 'a download on Enter');
    assert(downloads.files[0]!.name.endsWith('.md'), downloads.files[0]!.name);
    const text = await downloads.files[0]!.text;
    assert(text.startsWith('# ') && text.includes('saved from the keyboard'), text);
    equal(focused(el), button, 'focus stays on the button');
    await press('Space');
    await waitFor(() => downloads.files.length === 2, 'a download on Space');
    assert((await downloads.files[1]!.text).includes('saved from the keyboard'));
  });

  it('opens the history pane, opens a session with Enter; Escape closes the pane, then the panel', async () => {
    const { el, sessionIds, history, historyButton } = await historyOpenedByKeyboard();
    equal(historyButton.getAttribute('aria-pressed'), 'true', 'the button says the pane is shown');
    // Tab goes from the header into the pane: its search box, then the sessions.
    await tabTo(el, 'session');
    while (focused(el)!.dataset.session !== sessionIds[0]) await tabTo(el, 'session', 1);
    await press('Enter');
    await waitFor(() => parts(el, 'message').some((m) => m.textContent!.includes('a question from yesterday')), 'the session shown');
    assert(history.hidden, 'the pane closes');
    equal(focused(el), part(el, 'messages'), 'focus on the messages of the session opened');

    // The pane again, from its button: Escape closes the pane only, a second one the panel.
    await tabTo(el, 'history-button');
    await press('Enter');
    await waitFor(() => !history.hidden, 'the pane opened again');
    await escape(el);
    assert(history.hidden, 'the first Escape closes the pane');
    assert(el.open, 'the panel stays open');
    equal(focused(el), historyButton, 'focus stays on the history button');
    await escape(el);
    equal(el.open, false, 'the second Escape closes the panel');
    equal(focused(el), part(el, 'launcher'), 'focus back on the launcher');
  });

  // Escape on a row of the pane hides the pane with the focused row in it: unless focus moves,
  // it falls to the page's body, and the second Escape never reaches the widget.
  it('with the history pane open, Tab goes round the header and the pane only: the conversation under it is inert', async () => {
    const { el, history } = await historyOpenedByKeyboard();
    const chat = el.shadowRoot!.querySelector<HTMLElement>('.chat')!;
    assert(chat.inert, 'the conversation is inert while the pane covers it');
    const reached = new Set<string>();
    for (let i = 0; i < 20; i++) {
      await press('Tab');
      const active = focused(el);
      assert(active, `focus left the widget after ${i + 1} presses of Tab`);
      assert(!chat.contains(active), `Tab reached ${active.getAttribute('part') ?? active.localName} under the pane`);
      reached.add(history.contains(active) ? 'pane' : 'header');
    }
    equal([...reached].sort().join(), 'header,pane', 'both the header and the pane were reached');
    await escape(el);
    assert(!chat.inert, 'the conversation is live again once the pane closes');
  });

  it('Escape on a row of the history pane returns focus to the history button, so a second Escape closes the panel', async () => {
    const { el, history, historyButton } = await historyOpenedByKeyboard();
    await tabTo(el, 'session');
    await escape(el);
    assert(history.hidden, 'the first Escape closes the pane');
    assert(el.open, 'the panel stays open');
    equal(focused(el), historyButton, `focus back on the history button, not on ${document.activeElement?.localName}`);
    await escape(el);
    equal(el.open, false, 'the second Escape closes the panel');
    equal(focused(el), part(el, 'launcher'), 'focus back on the launcher');
  });

  it('Escape in the search box clears it, then closes the pane with focus on the history button', async () => {
    const { el, history, historyButton } = await historyOpenedByKeyboard();
    const search = (await tabTo(el, 'search-input')) as HTMLInputElement;
    await sendKeys({ type: 'yesterday' });
    await waitFor(() => part(el, 'search-result'), 'a result');
    await escape(el);
    equal(search.value, '', 'the first Escape clears the search');
    assert(!history.hidden, 'the pane stays');
    await escape(el);
    assert(history.hidden, 'the second Escape closes the pane');
    equal(focused(el), historyButton, 'focus back on the history button');
    assert(el.open, 'the panel stays open');
  });
});
