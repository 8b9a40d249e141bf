// Copy buttons on bot messages and code blocks: what lands on the clipboard (the Markdown source,
// the code), `chatbot-copy`, the polite announcement, the fallback when the Clipboard API is
// refused or missing (a hidden field copied with execCommand, inside the shadow root), the failure
// message when nothing can copy (the error line, seen and heard), and the keyboard path; axe-core
// on the copied and the failed states.
import type { ChatbotCopyDetail } from '../../src/browser/index.js';
import { axeViolations } from '../helpers/browser/axe.js';
import { assert, equal, mount, network, part, parts, unmountAll, waitFor, waitForReplies } from '../helpers/browser/helpers.js';
import { announcement, press, tabTo } from '../helpers/browser/keyboard.js';

/** Replaces the Clipboard API for one test: `writeText` records (or refuses with `refuse`). */
function fakeClipboard({ refuse = false } = {}) {
  const written: string[] = [];
  Object.defineProperty(navigator, 'clipboard', {
    configurable: true,
    value: {
      writeText: async (text: string) => {
        if (refuse) throw new DOMException('Write permission denied.', 'NotAllowedError');
        written.push(text);
      },
    },
  });
  return written;
}

function noClipboard() {
  Object.defineProperty(navigator, 'clipboard', { configurable: true, value: undefined });
}

/** What execCommand('copy') put on the clipboard: the copy event's target field holds it. */
function watchCopyEvents() {
  const copied: string[] = [];
  const listener = (event: Event) => copied.push((event.composedPath()[0] as HTMLTextAreaElement).value);
  document.addEventListener('copy', listener);
  return { copied, stop: () => document.removeEventListener('copy', listener) };
}

function copyEvents(el: HTMLElement) {
  const details: ChatbotCopyDetail[] = [];
  el.addEventListener('chatbot-copy', (event) => details.push(event.detail));
  return details;
}

let stopWatching: (() => void) | undefined;
afterEach(() => {
  delete (navigator as { clipboard?: unknown }).clipboard; // the browser's own again
  delete (document as { execCommand?: unknown }).execCommand;
  stopWatching?.();
  stopWatching = undefined;
  unmountAll();
});

describe('<chatbot-widget> copy', () => {
  it("copies a bot message's Markdown source with the Clipboard API, announces it and fires chatbot-copy", async () => {
    const written = fakeClipboard();
    const { el } = await mount({ open: '', mode: 'inline' });
    const events = copyEvents(el);
    await el.send('**bold** and `code`');
    await waitForReplies(el, 1);
    const bot = part(el, 'message-bot')!;
    equal(parts(el, 'copy-button').length, 1, 'one copy button, on the bot message only');
    const button = bot.querySelector<HTMLButtonElement>('[part~="copy-button"]')!;
    equal(button.getAttribute('aria-label'), 'Copy message');
    button.click();
    await waitFor(() => written.length === 1, 'the clipboard write');
    equal(written[0], 'You said: **bold** and `code`', 'the Markdown source');
    await waitFor(() => announcement(el) === 'Copied', 'the announcement');
    equal(events.length, 1, 'one chatbot-copy');
    equal(events[0]!.messageId, bot.dataset.key, 'the message id');
    equal((await axeViolations(el)).join('\n'), '');
  });

  it("copies a code block's code from its own button", async () => {
    const written = fakeClipboard();
    const { el } = await mount({ open: '', mode: 'inline' });
    const events = copyEvents(el);
    await el.send('markdown-sample');
    await waitForReplies(el, 1);
    const bot = part(el, 'message-bot')!;
    const buttons = parts(el, 'code-copy-button');
    equal(buttons.length, 1, 'one button for the one code block');
    equal(buttons[0]!.getAttribute('aria-label'), 'Copy code');
    buttons[0]!.click();
    await waitFor(() => written.length === 1, 'the clipboard write');
    equal(written[0], 'const x = 1 < 2;', 'the code only');
    equal(events[0]?.messageId, bot.dataset.key, 'chatbot-copy names the message');
  });

  it('falls back to copying a hidden field when the Clipboard API refuses, from the keyboard alone', async () => {
    fakeClipboard({ refuse: true });
    const watcher = watchCopyEvents();
    stopWatching = watcher.stop;
    const { el } = await mount({ open: '', mode: 'inline' });
    const events = copyEvents(el);
    await el.send('markdown-sample');
    await waitForReplies(el, 1);
    part(el, 'messages')!.focus();
    const button = await tabTo(el, 'code-copy-button');
    await press('Enter');
    await waitFor(() => announcement(el) === 'Copied', 'the announcement');
    equal(watcher.copied.join('|'), 'const x = 1 < 2;', 'the fallback copied the code');
    equal(events.length, 1, 'chatbot-copy');
    equal(el.shadowRoot!.activeElement, button, 'focus stays on the button');
    equal(el.shadowRoot!.querySelector('textarea:not([part])'), null, 'the hidden field is gone');
  });

  it('says the copy failed, where it is seen and heard, and fires nothing, when neither the Clipboard API nor the fallback can copy', async () => {
    noClipboard();
    (document as { execCommand?: unknown }).execCommand = () => false;
    const { el } = await mount({ open: '', mode: 'inline' });
    const events = copyEvents(el);
    await el.send('hello');
    await waitForReplies(el, 1);
    part(el, 'copy-button')!.click();
    // The error line: visible, and announced (role="alert"), with its Dismiss button.
    const error = await waitFor(() => part(el, 'error'), 'the error line');
    equal(error.querySelector('span')?.textContent, "Couldn't copy. Select the text to copy it.");
    equal(error.getAttribute('role'), 'alert', 'announced');
    assert(error.checkVisibility(), 'seen');
    equal(events.length, 0, 'no chatbot-copy');
    assert(!el.shadowRoot!.querySelector('.clipboard-buffer'), 'the hidden field is gone');
    equal((await axeViolations(el)).join('\n'), '', 'axe finds nothing with the failure shown');
    error.querySelector('button')!.click();
    await el.updateComplete;
    equal(part(el, 'error'), null, 'Dismiss clears it');

    // Shown again, then a copy that works clears it.
    part(el, 'copy-button')!.click();
    await waitFor(() => part(el, 'error'), 'the error line again');
    (document as { execCommand?: unknown }).execCommand = () => true;
    part(el, 'copy-button')!.click();
    await waitFor(() => announcement(el) === 'Copied', 'the copy that worked');
    await el.updateComplete;
    equal(part(el, 'error'), null, 'a copy that worked clears the failure');
  });

  it('gives the error line to a newer failure: a send that fails after a copy that failed', async () => {
    noClipboard();
    (document as { execCommand?: unknown }).execCommand = () => false;
    const { el, namespace } = await mount({ open: '', mode: 'inline' });
    await el.send('hello');
    await waitForReplies(el, 1);
    part(el, 'copy-button')!.click();
    await waitFor(() => part(el, 'error')?.textContent?.includes("Couldn't copy"), 'the copy failure');
    await network(namespace, 'down');
    try {
      await el.send('lost on the way');
      await waitFor(() => part(el, 'message-failed'), 'the failed send');
      const line = await waitFor(() => part(el, 'error'), 'the error line');
      assert(!line.textContent!.includes("Couldn't copy"), `the send's failure is said, not the copy's: ${line.textContent}`);
    } finally {
      await network(namespace, 'up');
    }
  });
});
