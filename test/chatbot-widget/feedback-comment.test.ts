// The comment box a thumbs down opens: labelled, focused, written and sent from the keyboard
// alone, the comment reaching the handler's admin listing with the rating; a counter, and past
// 500 characters a refusal said aloud with Send held back; Skip and Escape close it without a
// comment (the panel stays open), focus back on the thumbs down; axe-core finds nothing in it,
// dark and right to left.
import { sendKeys } from '@web/test-runner-commands';
import type { ChatbotWidget } from '../../src/browser/index.js';
import { axeViolations } from '../helpers/browser/axe.js';
import { equal, freshNamespace, mount, part, unmountAll, waitFor, waitForReplies } from '../helpers/browser/helpers.js';
import { announcement, press } from '../helpers/browser/keyboard.js';
import { listedRatings } from '../helpers/browser/ratings.js';

afterEach(() => unmountAll());

async function answered(attributes: Record<string, string> = {}) {
  const namespace = freshNamespace('rated');
  const { el } = await mount({ open: '', mode: 'inline', ...attributes }, namespace);
  return answeredIn(el, namespace);
}

async function answeredIn(el: ChatbotWidget, namespace: string) {
  await el.send('rate this answer');
  await waitForReplies(el, 1);
  return { el, namespace, messageId: part(el, 'message-bot')!.dataset.key! };
}

const box = (el: HTMLElement) => el.shadowRoot!.querySelector<HTMLFormElement>('form.feedback-comment');
const field = (el: HTMLElement) => box(el)?.querySelector('textarea') ?? null;
const sendButton = (el: HTMLElement) => box(el)!.querySelector<HTMLButtonElement>('[type="submit"]')!;
const focused = (el: HTMLElement) => el.shadowRoot!.activeElement;

/** Presses Tab until focus is on `target`. */
async function tabUntil(el: HTMLElement, target: () => Element | null, max = 10) {
  for (let i = 0; i < max && focused(el) !== target(); i++) await press('Tab');
  equal(focused(el), target(), 'reached by Tab');
}

describe('<chatbot-widget> comment after a thumbs down', () => {
  it('opens focused and labelled, is written and sent from the keyboard, and the comment reaches the listing', async () => {
    const { el, namespace, messageId } = await answered();
    part(el, 'messages')!.focus();
    part(el, 'feedback-down')!.focus();
    await press('Enter');
    await waitFor(() => field(el) && focused(el) === field(el), 'the comment field, focused');
    equal(field(el)!.labels[0]?.textContent?.trim(), 'What was wrong or missing? (optional)');
    equal(el.shadowRoot!.getElementById(field(el)!.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent, '0 of 500 characters');
    // The thumbs down is sent at once, before any comment.
    await waitFor(async () => (await listedRatings(namespace))[0]?.value === 'down', 'the rating listed at once');

    await sendKeys({ type: 'The answer skipped the second step.' });
    await waitFor(() => box(el)!.querySelector('.counter')!.textContent === '35 of 500 characters', 'the counter follows');
    await tabUntil(el, () => sendButton(el));
    await press('Enter');
    await waitFor(() => !box(el), 'closed once sent');
    await waitFor(() => focused(el) === part(el, 'feedback-down'), 'focus back on the thumbs down');
    await waitFor(() => announcement(el) === 'Thanks for your feedback', 'thanked');
    await waitFor(
      async () =>
        JSON.stringify((await listedRatings(namespace)).map(({ messageId: id, value, comment }) => ({ id, value, comment }))) ===
        JSON.stringify([{ id: messageId, value: 'down', comment: 'The answer skipped the second step.' }]),
      'the comment listed with the rating',
    );
  });

  it('says when the comment is too long and holds Send back; Skip and Escape close it, the panel stays', async () => {
    // Floating, where Escape elsewhere in the panel closes it.
    const namespace = freshNamespace('rated');
    const { el } = await answeredIn((await mount({ open: '' }, namespace)).el, namespace);
    part(el, 'feedback-down')!.click();
    await waitFor(() => field(el), 'the box');
    const textarea = field(el)!;
    textarea.value = 'x'.repeat(501);
    textarea.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await el.updateComplete;
    equal(textarea.getAttribute('aria-invalid'), 'true');
    equal(sendButton(el).disabled, true, 'Send waits');
    equal(box(el)!.querySelector('[role="alert"]')!.textContent, 'Too long: at most 500 characters.');
    equal(box(el)!.querySelector('.counter')!.textContent, '501 of 500 characters');
    textarea.value = 'x'.repeat(500);
    textarea.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
    await el.updateComplete;
    equal(`${textarea.getAttribute('aria-invalid')} ${sendButton(el).disabled}`, 'false false', 'at the limit it can be sent');
    equal(box(el)!.querySelector('[role="alert"]')!.textContent, '');

    textarea.focus();
    await press('Escape');
    await waitFor(() => !box(el), 'Escape closes the box');
    equal(el.open, true, 'and not the panel');
    await waitFor(() => focused(el) === part(el, 'feedback-down'), 'focus back on the thumbs down');

    part(el, 'feedback-up')!.click();
    part(el, 'feedback-down')!.click();
    await waitFor(() => field(el), 'opened again by a new thumbs down');
    [...box(el)!.querySelectorAll('button')].find((b) => b.textContent === 'Skip')!.click();
    await waitFor(() => !box(el), 'Skip closes it');
    await waitFor(async () => {
      const [rating] = await listedRatings(namespace);
      return rating?.value === 'down' && rating.comment === null;
    }, 'the thumbs down stands, without a comment');
  });

  for (const [lang, label] of [
    ['en', 'What was wrong or missing? (optional)'],
    ['ar', 'ما الخطأ أو الناقص؟ (اختياري)'],
  ] as const) {
    it(`has no axe violations open, dark theme, ${lang}`, async () => {
      const { el } = await answered({ theme: 'dark', lang });
      part(el, 'feedback-down')!.click();
      await waitFor(() => field(el), 'the box');
      equal(field(el)!.labels[0]?.textContent?.trim(), label, 'in the widget’s language');
      equal(getComputedStyle(box(el)!).direction, lang === 'ar' ? 'rtl' : 'ltr');
      equal((await axeViolations(el)).join('\n'), '');
    });
  }
});
