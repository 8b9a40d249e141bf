// axe-core on states the other suites do not check: a copy that failed (no clipboard at all),
// and the panel right to left, in Arabic and Hebrew, before and after the first message.
import { axeViolations } from '../helpers/browser/axe.js';
import { assert, equal, mount, part, parts, unmountAll, waitFor, waitForReplies } from '../helpers/browser/helpers.js';

afterEach(() => {
  delete (navigator as { clipboard?: unknown }).clipboard; // the browser's own again
  delete (document as { execCommand?: unknown }).execCommand;
  unmountAll();
});

describe('<chatbot-widget> accessibility of more states', () => {
  it('has no axe violations after a copy failed', async () => {
    // Neither the Clipboard API nor the hidden field's execCommand can copy.
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: undefined });
    (document as { execCommand?: unknown }).execCommand = () => false;
    const { el } = await mount({ open: '' });
    await el.send('markdown-sample');
    await waitForReplies(el, 1);
    part(el, 'code-copy-button')!.click();
    part(el, 'copy-button')!.click();
    await waitFor(() => part(el, 'error')?.textContent?.includes("Couldn't copy. Select the text to copy it."), 'the failure shown');
    equal((await axeViolations(el)).join('\n'), '');
  });

  const greetings = { ar: 'مرحبا! كيف يمكنني مساعدتك؟', he: 'שלום! איך אפשר לעזור?' };
  const prompts = { ar: '["ما الأسعار؟", "ساعات العمل؟"]', he: '["מה המחירים?", "שעות הפתיחה?"]' };
  for (const lang of ['ar', 'he'] as const) {
    it(`has no axe violations in ${lang === 'ar' ? 'Arabic' : 'Hebrew'}: greeting and suggestions, then a conversation`, async () => {
      const { el } = await mount({ open: '', lang, greeting: greetings[lang], suggestions: prompts[lang] });
      await waitFor(() => el.shadowRoot!.querySelector(`[part~="panel"][lang="${lang}"]`), `the ${lang} texts`);
      equal(getComputedStyle(part(el, 'panel')!).direction, 'rtl', 'laid out right to left');
      await waitFor(() => part(el, 'greeting') && parts(el, 'suggestion').length === 2, 'greeting and prompts');
      equal((await axeViolations(el)).join('\n'), '', 'empty conversation:');

      await el.send('rtl-sample');
      await waitForReplies(el, 1);
      await el.send('Where is my order?'); // a left-to-right message among them
      await waitForReplies(el, 2);
      assert(!part(el, 'greeting') && !part(el, 'suggestion'), 'the greeting and prompts are gone');
      equal((await axeViolations(el)).join('\n'), '', 'conversation:');
    });
  }
});
