// A message longer than the handler takes (4,000 characters, counted in code points as upstream
// counts them) is never cut off unseen: the field keeps all of it, a counter near the limit says
// how much is used, past it the field says it is too long and nothing is sent until it is short
// enough. Through the real handler and emulator, in real Chromium.
import { sendKeys } from '@web/test-runner-commands';
import { assert, equal, mount, part, parts, recordSends, unmountAll, waitFor, waitForReplies } from '../helpers/browser/helpers.js';

afterEach(() => unmountAll());

/**
 * Replaces what the message field holds with `text` as an edit by the visitor (the browser's
 * editing, which a `maxlength` would cut), in one input event, as a paste does.
 */
async function paste(el: HTMLElement & { updateComplete: Promise<unknown> }, text: string) {
  const input = part(el, 'input') as HTMLTextAreaElement;
  input.focus();
  input.select();
  document.execCommand('insertText', false, text);
  await el.updateComplete;
  return input;
}

const counter = (el: HTMLElement) => el.shadowRoot!.querySelector<HTMLElement>('.message-count')!;
const alertText = (el: HTMLElement) => counter(el).querySelector('[role="alert"]')!.textContent!.trim();

describe('<chatbot-widget> a message longer than the handler takes', () => {
  it('keeps all of a 6,000-character paste, says it is too long and sends nothing, then sends it once short enough', async () => {
    const sends = recordSends();
    try {
      const { el } = await mount({ open: '', mode: 'inline' });
      await waitFor(() => part(el, 'input'), 'the panel');
      const input = await paste(el, 'z'.repeat(6_000));
      equal(input.value.length, 6_000, 'nothing cut off');
      assert(!counter(el).hidden, 'the counter shows');
      equal(counter(el).querySelector('[id="message-count"]')!.textContent!.trim(), '6,000 of 4,000 characters');
      equal(alertText(el), 'Too long: at most 4,000 characters.');
      equal(input.getAttribute('aria-invalid'), 'true');
      assert(input.getAttribute('aria-describedby')!.split(' ').includes('message-count'), 'the counter describes the field');
      assert((part(el, 'send-button') as HTMLButtonElement).disabled, 'Send waits');
      await sendKeys({ press: 'Enter' });
      await el.updateComplete;
      equal(parts(el, 'message').length, 0, 'Enter sends nothing either');
      equal(sends.attempts.length, 0, 'no request');
      equal(input.value.length, 6_000, 'and the text stays');

      await paste(el, `${'z'.repeat(3_999)}!`);
      equal(alertText(el), '', 'no longer too long');
      equal(counter(el).querySelector('[id="message-count"]')!.textContent!.trim(), '4,000 of 4,000 characters');
      assert(!(part(el, 'send-button') as HTMLButtonElement).disabled, 'Send is back');
      (part(el, 'send-button') as HTMLButtonElement).click();
      await waitForReplies(el, 1);
      equal(sends.attempts.length, 1);
      assert(counter(el).hidden, 'the empty field has no counter');
    } finally {
      sends.stop();
    }
  });

  it('counts characters, not UTF-16 units: 4,000 emoji are not too long; below 90 % of the limit no counter shows', async () => {
    const { el } = await mount({ open: '', mode: 'inline' });
    await waitFor(() => part(el, 'input'), 'the panel');
    const input = await paste(el, '😀'.repeat(4_000));
    equal(input.value.length, 8_000, 'eight thousand UTF-16 units');
    equal(alertText(el), '');
    equal(input.getAttribute('aria-invalid'), null);
    assert(!(part(el, 'send-button') as HTMLButtonElement).disabled);
    await paste(el, 'z'.repeat(3_599));
    assert(counter(el).hidden, 'no counter at 3,599');
    equal(input.getAttribute('aria-describedby'), null);
    await paste(el, 'z'.repeat(3_600));
    assert(!counter(el).hidden, 'a counter from 3,600');
  });
});
