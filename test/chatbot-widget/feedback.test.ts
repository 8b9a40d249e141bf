// Thumbs up and down on bot messages: toggle buttons with aria-pressed, `chatbot-feedback` with
// 'up' or 'down' only (taking a rating back fires nothing), a polite thanks, the rating kept in
// IndexedDB (a reload shows it, another tab sees it, reset() forgets it), the keyboard path, and
// axe-core on the rated state.
import { entries } from 'idb-keyval';
import type { ChatbotFeedbackDetail } from '../../src/browser/index.js';
import { axeViolations } from '../helpers/browser/axe.js';
import {
  absoluteEndpoint,
  equal,
  freshNamespace,
  idbStore,
  mount,
  part,
  unmountAll,
  waitFor,
  waitForReplies,
} from '../helpers/browser/helpers.js';
import { announcement, press, tabTo } from '../helpers/browser/keyboard.js';

afterEach(() => unmountAll());

const pressed = (el: HTMLElement, value: 'up' | 'down') => part(el, `feedback-${value}`)?.getAttribute('aria-pressed');

function feedbackEvents(el: HTMLElement) {
  const details: ChatbotFeedbackDetail[] = [];
  el.addEventListener('chatbot-feedback', (event) => details.push(event.detail));
  return details;
}

/** The ratings kept for a namespace, as `{ messageId, value }` (`value` null: taken back, kept until the handler has it). */
async function storedRatings(namespace: string) {
  const prefix = `feedback|${absoluteEndpoint(namespace)}|`;
  return (await entries<string, { messageId: string; value: string | null }>(idbStore))
    .filter(([key]) => String(key).startsWith(prefix))
    .map(([, { messageId, value }]) => ({ messageId, value }));
}

describe('<chatbot-widget> feedback', () => {
  it('rates, switches and takes back a rating; fires chatbot-feedback for ratings only and thanks politely', async () => {
    const { el, namespace } = await mount({ open: '', mode: 'inline' });
    const events = feedbackEvents(el);
    await el.send('hello');
    await waitForReplies(el, 1);
    const messageId = part(el, 'message-bot')!.dataset.key!;
    equal(part(el, 'feedback-up')!.getAttribute('aria-label'), 'Helpful');
    equal(part(el, 'feedback-down')!.getAttribute('aria-label'), 'Not helpful');
    equal(`${pressed(el, 'up')} ${pressed(el, 'down')}`, 'false false', 'not rated yet');

    part(el, 'feedback-up')!.click();
    await el.updateComplete;
    equal(`${pressed(el, 'up')} ${pressed(el, 'down')}`, 'true false', 'up pressed');
    equal(JSON.stringify(events), JSON.stringify([{ messageId, value: 'up' }]));
    await waitFor(() => announcement(el) === 'Thanks for your feedback', 'the thanks');
    await waitFor(async () => JSON.stringify(await storedRatings(namespace)) === JSON.stringify([{ messageId, value: 'up' }]), 'stored');

    part(el, 'feedback-down')!.click();
    await el.updateComplete;
    equal(`${pressed(el, 'up')} ${pressed(el, 'down')}`, 'false true', 'switched to down');
    equal(events[1]?.value, 'down');

    part(el, 'feedback-down')!.click();
    await el.updateComplete;
    equal(`${pressed(el, 'up')} ${pressed(el, 'down')}`, 'false false', 'taken back');
    equal(events.length, 2, 'taking a rating back fires no event');
    await waitFor(
      async () => JSON.stringify(await storedRatings(namespace)) === JSON.stringify([{ messageId, value: null }]),
      'stored as taken back',
    );
  });

  it('keeps the rating over a reload, shows it in another tab, and reset() forgets it', async () => {
    const namespace = freshNamespace();
    const one = await mount({ open: '', mode: 'inline' }, namespace);
    await one.el.send('rate me');
    await waitForReplies(one.el, 1);
    const other = await mount({ open: '', mode: 'inline' }, namespace);
    await waitForReplies(other.el, 1);
    part(one.el, 'feedback-down')!.click();
    await waitFor(() => pressed(other.el, 'down') === 'true', 'the other tab shows the rating');
    equal((await storedRatings(namespace)).length, 1, 'one stored rating');

    unmountAll();
    const reloaded = await mount({ open: '', mode: 'inline' }, namespace);
    await waitForReplies(reloaded.el, 1);
    await waitFor(() => pressed(reloaded.el, 'down') === 'true', 'the reload shows the rating');
    equal(pressed(reloaded.el, 'up'), 'false');

    await reloaded.el.reset();
    equal((await storedRatings(namespace)).length, 0, 'reset() forgot the rating');
  });

  it('rates from the keyboard alone, and axe-core finds nothing in the rated state', async () => {
    const { el } = await mount({ open: '', mode: 'inline', theme: 'dark' });
    const events = feedbackEvents(el);
    await el.send('keyboard');
    await waitForReplies(el, 1);
    part(el, 'messages')!.focus();
    await tabTo(el, 'feedback-up');
    await press('Space');
    await waitFor(() => pressed(el, 'up') === 'true', 'up pressed with Space');
    await tabTo(el, 'feedback-down', 1);
    await press('Enter');
    await waitFor(() => pressed(el, 'down') === 'true', 'down pressed with Enter');
    equal(events.map((e) => e.value).join(' '), 'up down');
    equal((await axeViolations(el)).join('\n'), '');
  });
});
