// The visitors' feedback in <chatbot-usage>, against the real handler and emulator: ratings given
// in a real <chatbot-widget> (on a handler of their own, so no other test's count in) show as up
// and down per month equal to the handler's month counts, and as rated answers, not helpful
// first, each with the question before it and its comment, as inert text; opening one shows its
// conversation; the CSV has up and down columns; axe-core finds nothing, light and dark.
import { assert, equal, freshNamespace, mount, part, parts, unmountAll, waitFor, waitForReplies } from '../helpers/browser/helpers.js';
import { listedRatings, ratingsByMonth } from '../helpers/browser/ratings.js';
import { mountUsage, unmountUsage } from '../helpers/browser/usage-helpers.js';
import { axeViolations } from '../helpers/browser/axe.js';
import type { ChatbotUsage } from '../../src/browser/index.js';
import { setViewport } from '@web/test-runner-commands';

const HOSTILE_COMMENT = '<img src=x onerror="window.__pwned=1">Too vague about refunds';
const thisMonth = () => new Date().toISOString().slice(0, 7);

afterEach(() => {
  unmountUsage();
  unmountAll();
});

/** Two answered questions in one session, the first rated down with a comment, the second up. */
async function rated() {
  const namespace = freshNamespace('rated');
  const { el } = await mount({ open: '', mode: 'inline' }, namespace);
  await el.send('What is the refund policy?');
  await waitForReplies(el, 1);
  await el.send('And the shipping time?');
  await waitForReplies(el, 2);
  const [first, second] = parts(el, 'message-bot');
  first!.querySelector<HTMLElement>('[part~="feedback-down"]')!.click();
  const field = await waitFor(() => el.shadowRoot!.querySelector<HTMLTextAreaElement>('form.feedback-comment textarea'), 'the comment box');
  field.value = HOSTILE_COMMENT;
  field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  await el.updateComplete;
  field.form!.requestSubmit();
  second!.querySelector<HTMLElement>('[part~="feedback-up"]')!.click();
  await waitFor(async () => {
    const listed = await listedRatings(namespace);
    return listed.length === 2 && listed.some((r) => r.comment === HOSTILE_COMMENT);
  }, 'both ratings listed');
  return { el, namespace, down: first!.dataset.key!, up: second!.dataset.key! };
}

const item = (el: ChatbotUsage, value: string) =>
  el.shadowRoot!.querySelector<HTMLElement>(`[part="feedback-item"][data-value="${value}"]`)!;
const said = (button: HTMLElement, line: string) =>
  button
    .querySelector(`.said.${line}`)
    ?.textContent?.replace(/^\s*\w+:\s*/, '')
    .trim();

describe('<chatbot-usage> visitors’ feedback', () => {
  it('shows up and down per month, the rated answers down first with question and comment, and opens one', async () => {
    const { namespace, down, up } = await rated();
    const { el, errors } = await mountUsage({}, namespace);
    equal(errors.length, 0, 'no error');

    const shown = (name: string) => el.shadowRoot!.querySelector<HTMLInputElement>(`[part="range"] input[name="${name}"]`)!.value;
    const expected = await ratingsByMonth(namespace, { from: shown('from'), to: shown('to') });
    equal(expected.length, 12, 'the last twelve months by default');
    const rows = [...el.shadowRoot!.querySelectorAll<HTMLElement>('[part="feedback"] tbody tr')].map((row) => ({
      month: row.dataset.month,
      up: Number(row.dataset.up),
      down: Number(row.dataset.down),
    }));
    equal(
      JSON.stringify(rows),
      JSON.stringify(expected.map(({ month, up, down }) => ({ month, up, down }))),
      'one row a month, as the handler counts',
    );
    equal(JSON.stringify(rows.find((r) => r.month === thisMonth())), JSON.stringify({ month: thisMonth(), up: 1, down: 1 }));

    const items = parts(el, 'feedback-item');
    equal(items.map((i) => i.dataset.value).join(' '), 'down up', 'not helpful first');
    equal(items[0]!.dataset.messageId, down);
    equal(said(item(el, 'down'), 'question'), 'What is the refund policy?');
    equal(said(item(el, 'down'), 'answer'), 'You said: What is the refund policy?');
    equal(said(item(el, 'down'), 'comment'), HOSTILE_COMMENT, 'the comment shown as the visitor wrote it');
    equal(said(item(el, 'up'), 'question'), 'And the shipping time?');
    equal(item(el, 'up').querySelector('.said.comment'), null, 'no comment line without a comment');
    equal(el.shadowRoot!.querySelector('img'), null, 'visitor text stays text');
    equal((window as { __pwned?: unknown }).__pwned, undefined);

    item(el, 'down').click();
    await el.settled;
    equal(item(el, 'down').getAttribute('aria-pressed'), 'true');
    const detail = part(el, 'message-detail');
    assert(detail, 'the rated answer opened');
    equal(detail.querySelector('.text')!.textContent, 'You said: What is the refund policy?');
    equal(el.shadowRoot!.activeElement, detail, 'focus on it');
    const conversation = parts(el, 'message').map((m) => m.querySelector('.text')!.textContent);
    equal(
      JSON.stringify(conversation),
      JSON.stringify([
        'You said: And the shipping time?',
        'And the shipping time?',
        'You said: What is the refund policy?',
        'What is the refund policy?',
      ]),
      'its whole conversation, newest first',
    );
    equal(el.shadowRoot!.querySelector(`[part="message"][aria-pressed="true"]`)?.getAttribute('data-message-id'), down);
    assert(el.shadowRoot!.querySelector('[part="session"][aria-pressed="true"]'), 'its session chosen in the user’s sessions');
    assert(up, 'the up rating is listed too');
  });

  it('exports up and down columns in the CSV', async () => {
    const { el: widget, namespace } = await rated();
    // The thumbs up taken back: one down, no up.
    parts(widget, 'message-bot')[1]!.querySelector<HTMLElement>('[part~="feedback-up"]')!.click();
    await waitFor(async () => (await listedRatings(namespace)).length === 1, 'the up rating taken back');
    const { el } = await mountUsage({}, namespace);
    let saved: string | undefined;
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      saved = this.href;
    };
    try {
      part(el, 'export-button')!.click();
    } finally {
      HTMLAnchorElement.prototype.click = click;
    }
    assert(saved, 'a download started');
    const lines = (await (await fetch(saved)).text()).trim().split('\r\n');
    equal(lines[0], 'month (UTC),messages,user messages,distinct users,distinct sessions,tokens,up,down');
    const month = lines.find((line) => line.startsWith(`${thisMonth()},`))!;
    equal(month.split(',').slice(-2).join(','), '0,1', 'this month: no up, one down');
    equal(lines.at(-1)!.split(',').slice(-2).join(','), '0,1', 'the total row');
    assert(
      lines.slice(1, -1).every((line) => line.startsWith(thisMonth()) || line.endsWith(',0,0')),
      'other months have none',
    );
  });

  it('a long range scrolls its months inside the box, opening on the latest, under the column heads, and the rated answers start below it', async () => {
    const { el } = await mountUsage({ from: '2021-01-01', to: '2024-01-01' });
    const box = el.shadowRoot!.querySelector<HTMLElement>('.feedback .table-scroll')!;
    equal(box.querySelectorAll('tbody tr').length, 36);
    assert(box.scrollHeight > box.clientHeight + 100, 'three years of months are taller than the box');
    assert(box.scrollTop + box.clientHeight >= box.scrollHeight - 1, 'it opens on the latest months and the total, as the chart does');
    box.scrollTop = 0;
    box.scrollTop = box.scrollHeight;
    await new Promise(requestAnimationFrame);
    const head = box.querySelector('thead th')!.getBoundingClientRect();
    const frame = box.getBoundingClientRect();
    assert(Math.abs(head.top - frame.top) <= 2, `the column heads stay at the top of the box (${head.top} against ${frame.top})`);
    const rated = el.shadowRoot!.getElementById('rated-heading')!.getBoundingClientRect();
    assert(rated.top >= frame.bottom + 12, `a gap between the box and "Rated answers" (${rated.top - frame.bottom} px)`);
  });

  it('on a 360 px phone the feedback table fits its box: no sideways scrolling for three columns', async () => {
    await setViewport({ width: 360, height: 740 });
    try {
      const { el } = await mountUsage({ from: '2026-01-01', to: '2027-01-01' });
      const box = el.shadowRoot!.querySelector<HTMLElement>('.feedback .table-scroll')!;
      assert(box.scrollWidth <= box.clientWidth, `the table is ${box.scrollWidth} px wide in a ${box.clientWidth} px box`);
    } finally {
      await setViewport({ width: 800, height: 600 });
    }
  });

  for (const theme of ['light', 'dark']) {
    it(`has no axe violations with the feedback shown and an answer open, ${theme}`, async () => {
      const { namespace } = await rated();
      const { el } = await mountUsage({ theme }, namespace);
      equal((await axeViolations(el)).join('\n'), '');
      item(el, 'down').click();
      await el.settled;
      equal((await axeViolations(el)).join('\n'), '');
    });
  }
});
