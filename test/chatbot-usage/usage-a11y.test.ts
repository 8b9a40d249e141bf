// <chatbot-usage> for everyone: axe-core finds nothing serious in light and dark, in the chart,
// the table and the whole drill-down open; and a keyboard alone (real key presses) reaches a
// user, a session and a message. axe-core's browser build sets window.axe.
import 'axe-core/axe.min.js';
import { sendKeys } from '@web/test-runner-commands';
import { assert, equal, part, parts } from '../helpers/browser/helpers.js';
import { mountUsage, unmountUsage } from '../helpers/browser/usage-helpers.js';
import { seedUsage } from '../helpers/browser/usage-seed.js';
import type { ChatbotUsage } from '../../src/browser/index.js';

declare global {
  interface Window {
    axe: typeof import('axe-core');
  }
}

before(() => seedUsage());
afterEach(() => unmountUsage());

const RANGE = { from: '2022-01-01', to: '2024-01-01' };

/** Violations of impact serious or critical. */
async function serious(el: ChatbotUsage) {
  const result = await window.axe.run(el, {
    runOnly: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'],
    rules: { region: { enabled: false } },
  });
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

async function openEverything(el: ChatbotUsage) {
  parts(el, 'user')[0]!.click();
  await el.settled;
  parts(el, 'session')[0]!.click();
  await el.settled;
  parts(el, 'message')[0]!.click();
  await el.settled;
}

/** Presses Tab until focus (inside the element's shadow root) is on an element matching `selector`. */
async function tabTo(el: ChatbotUsage, selector: string, limit = 80) {
  for (let i = 0; i < limit; i++) {
    await sendKeys({ press: 'Tab' });
    const active = el.shadowRoot!.activeElement;
    if (active?.matches(selector)) return active as HTMLElement;
  }
  throw new Error(`Tab never reached ${selector}`);
}

describe('<chatbot-usage> accessibility', () => {
  for (const theme of ['light', 'dark']) {
    it(`has no serious axe violations, chart and drill-down open, ${theme} theme`, async () => {
      const { el } = await mountUsage({ ...RANGE, theme });
      equal((await serious(el)).join('\n'), '');
      await openEverything(el);
      equal((await serious(el)).join('\n'), '');
    });
  }

  it('has no serious axe violations in the table view, a ten-year chart, or with an error shown', async () => {
    const { el } = await mountUsage({ from: '2014-01-01', to: '2024-01-01' });
    equal((await serious(el)).join('\n'), '');
    [...el.shadowRoot!.querySelectorAll('button')].find((b) => b.textContent === 'Table')!.click();
    await el.updateComplete;
    equal((await serious(el)).join('\n'), '');
    const failing = await mountUsage({ ...RANGE, 'admin-token': 'wrong-token' });
    assert(!part(failing.el, 'error')!.hidden);
    equal((await serious(failing.el)).join('\n'), '');
  });

  it('every bar has one sentence for screen readers: month, messages, users and sessions', async () => {
    const { el } = await mountUsage({ from: '2023-02-01', to: '2023-03-01' });
    const sentence = parts(el, 'bar')[0]!.querySelector('.sr-only')!.textContent!.replace(/\s+/g, ' ').trim();
    equal(sentence, 'February 2023: 4 messages, 1 distinct user, 2 sessions');
    // The visible figures are hidden from screen readers, which would otherwise hear them twice.
    for (const visible of parts(el, 'bar')[0]!.querySelectorAll('.figure, .month, .per-month'))
      equal(visible.getAttribute('aria-hidden'), 'true');
  });

  it('is usable with the keyboard alone: Tab and Enter reach a user, a session and a message', async () => {
    const { el } = await mountUsage(RANGE);
    el.focus();
    const user = await tabTo(el, '[part~="user"]');
    await sendKeys({ press: 'Enter' });
    await el.settled;
    equal(user.getAttribute('aria-pressed'), 'true', 'the user is chosen');
    equal(el.shadowRoot!.activeElement?.id, 'sessions-heading', 'focus moves to the sessions');
    await tabTo(el, '[part~="session"]');
    await sendKeys({ press: 'Enter' });
    await el.settled;
    equal(el.shadowRoot!.activeElement?.id, 'messages-heading', 'focus moves to the messages');
    const message = await tabTo(el, '[part~="message"]');
    await sendKeys({ press: 'Enter' });
    await el.settled;
    const detail = part(el, 'message-detail')!;
    equal(el.shadowRoot!.activeElement, detail, 'focus moves to the message');
    assert(detail.textContent!.includes(message.dataset.messageId!), 'the chosen message is shown');
  });
});
