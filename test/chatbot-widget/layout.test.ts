// Layout in real Chromium: bubbles never get wider than the message list (long code blocks
// scroll inside their bubble, long URLs and inline code wrap), Markdown soft line breaks are
// spaces, the visitor's one-line message is one line tall, and right-to-left pages mirror the
// widget without anything spilling out. Every check measures boxes with getBoundingClientRect.
import type { ChatbotWidget } from '../../src/browser/index.js';
import { assert, equal, mount, part, parts, unmountAll, waitFor, waitForReplies } from '../helpers/browser/helpers.js';

const LONG_URL = `https://example.com/${'a-path-segment-without-spaces/'.repeat(12)}end`;
const containers: HTMLElement[] = [];

afterEach(() => {
  unmountAll();
  for (const box of containers.splice(0)) box.remove();
});

/** A page element to mount into (removed after the test). */
function container(attributes: Record<string, string>) {
  const box = document.createElement('div');
  box.id = `box-${containers.length}-${Math.random().toString(36).slice(2, 7)}`;
  for (const [name, value] of Object.entries(attributes)) box.setAttribute(name, value);
  document.body.append(box);
  containers.push(box);
  return `#${box.id}`;
}

const rect = (el: Element) => el.getBoundingClientRect();
const fmt = (r: DOMRect) => `[${r.left.toFixed(1)}, ${r.right.toFixed(1)}]`;

/** Fails when `inner` reaches past `outer` on the left or the right (half a pixel of rounding allowed). */
function assertInside(inner: Element, outer: Element, what: string) {
  const a = rect(inner);
  const b = rect(outer);
  assert(a.left >= b.left - 0.5 && a.right <= b.right + 0.5, `${what} ${fmt(a)} lies outside ${fmt(b)}`);
}

/** Every message, bubble, code block and inline code box lies within the message list, which does not scroll sideways. */
function assertNothingOverflows(el: ChatbotWidget) {
  const list = part(el, 'messages')!;
  const messages = parts(el, 'message');
  assert(messages.length > 0, 'messages rendered');
  for (const message of messages) {
    const key = message.dataset.key;
    assertInside(message, list, `message ${key}`);
    const bubble = message.querySelector('.bubble')!;
    assertInside(bubble, list, `bubble of ${key}`);
    for (const inner of bubble.querySelectorAll('pre, :not(pre) > code, a, p'))
      assertInside(inner, bubble, `<${inner.localName}> in ${key}`);
  }
  assert(list.scrollWidth <= list.clientWidth + 1, `the list scrolls sideways: ${list.scrollWidth} > ${list.clientWidth}`);
}

/** Sends the reply with a long code block, a long URL and long inline code, and a long user URL. */
async function converseWithLongContent(el: ChatbotWidget) {
  await el.send('layout-sample');
  await waitForReplies(el, 1);
  await el.send(LONG_URL);
  await waitForReplies(el, 2);
  await el.updateComplete;
}

const lineHeight = (el: Element) => parseFloat(getComputedStyle(el).lineHeight);

describe('<chatbot-widget> layout', () => {
  for (const [name, attributes] of [
    ['floating', { open: '' }],
    ['inline in a narrow column', { mode: 'inline', style: 'height:560px;width:300px' }],
  ] as const) {
    it(`keeps every bubble within the message list, ${name}`, async () => {
      const { el } = await mount({ ...attributes });
      await converseWithLongContent(el);
      assertNothingOverflows(el);
      const pre = part(el, 'message-bot')!.querySelector('pre')!;
      assert(pre.scrollWidth > pre.clientWidth, 'the code block scrolls inside its bubble');
      // A sideways-scrolling region must be reachable by keyboard, and named.
      equal(pre.getAttribute('tabindex'), '0', 'the scrolling code block takes focus');
      equal(pre.getAttribute('role'), 'region');
      equal(pre.getAttribute('aria-label'), el.text.codeBlock);
      const code = [...part(el, 'message-bot')!.querySelectorAll('p code')].find((c) => c.textContent!.startsWith('someVeryLong'))!;
      assert(code.getClientRects().length > 1, 'long inline code wraps onto several lines');
    });
  }

  it('makes a code block focusable only while it scrolls, and re-checks when the list width changes', async () => {
    const { el } = await mount({ mode: 'inline', style: 'height:560px;width:300px' });
    await el.send('markdown-sample');
    await waitForReplies(el, 1);
    await el.send('layout-sample');
    await waitForReplies(el, 2);
    // Bubbles are re-created when their server copies arrive; measure the settled ones.
    await waitFor(() => parts(el, 'message').every((m) => !m.dataset.key!.startsWith('local-')), 'server ids');
    await el.updateComplete;
    const blocks = () => [...el.shadowRoot!.querySelectorAll('pre')];
    equal(blocks().length, 2);
    equal(blocks()[0]!.hasAttribute('tabindex'), false, 'a code block that fits is no tab stop');
    equal(blocks()[1]!.getAttribute('tabindex'), '0');
    el.style.width = '2400px';
    await waitFor(() => !blocks()[1]!.hasAttribute('tabindex'), 'the tab stop to go once the block fits');
    el.style.width = '300px';
    await waitFor(() => blocks()[1]!.getAttribute('tabindex') === '0', 'the tab stop back once it scrolls again');
  });

  it("keeps the page's inherited text styles out: a centred, spaced, upper-case, italic, vertical page still gets plain replies", async () => {
    const page = {
      'writing-mode': 'vertical-rl',
      'text-align': 'center',
      'text-indent': '40px',
      'text-transform': 'uppercase',
      'letter-spacing': '3px',
      'word-spacing': '10px',
      'white-space': 'pre',
      'font-style': 'italic',
      'font-weight': '700',
    };
    const style = Object.entries(page)
      .map(([name, value]) => `${name}:${value}`)
      .join(';');
    const { el } = await mount({ mode: 'inline', style: 'height:480px', container: container({ style }) });
    await el.send('hello');
    await waitForReplies(el, 1);
    const plain = {
      'writing-mode': 'horizontal-tb',
      'text-align': 'start',
      'text-indent': '0px',
      'text-transform': 'none',
      'letter-spacing': 'normal',
      'word-spacing': '0px',
      'white-space': 'normal',
      'font-style': 'normal',
      'font-weight': '400',
    };
    for (const shown of [part(el, 'message-bot')!.querySelector('p') ?? part(el, 'message-bot')!, part(el, 'header')!]) {
      const computed = getComputedStyle(shown);
      for (const [name, value] of Object.entries(plain)) equal(computed.getPropertyValue(name), value, `${name} of ${shown.tagName}`);
    }
  });

  it('renders a Markdown soft line break as a space, and hard breaks as line breaks', async () => {
    const { el } = await mount({ mode: 'inline', style: 'height:500px;width:700px' });
    await el.send('soft-break-sample');
    await waitForReplies(el, 1);
    const [soft, hard] = [...part(el, 'message-bot')!.querySelectorAll('p')];
    equal(soft!.querySelectorAll('br').length, 0, 'no <br> for a soft break');
    equal(soft!.textContent!.replace(/\s+/g, ' '), 'One sentence written across two source lines.');
    assert(rect(soft!).height < 1.5 * lineHeight(soft!), `one line when wide enough, got ${rect(soft!).height}px`);
    equal(hard!.querySelectorAll('br').length, 2, 'two trailing spaces and a backslash are hard breaks');
    assert(rect(hard!).height > 2.5 * lineHeight(hard!), 'the hard breaks make three lines');
  });

  it('sizes a one-line visitor message to one line, and keeps the visitor’s own line breaks', async () => {
    const { el } = await mount({ open: '' });
    await el.send('How do I embed the widget?');
    await waitForReplies(el, 1);
    const bubble = part(el, 'message-user')!.querySelector('.bubble')!;
    const lh = lineHeight(bubble);
    const height = rect(bubble).height;
    assert(height < 2.5 * lh, `a one-line bubble is ${height}px tall (line height ${lh}px)`);
    await el.send('first line\nsecond line\nthird line');
    await waitForReplies(el, 2);
    const multi = parts(el, 'message-user')[1]!.querySelector('.bubble')!;
    assert(multi.textContent!.includes('first line\nsecond line'), 'the text keeps its newlines');
    // Bubbles are re-created when their server copy arrives: measure the one in the DOM now.
    const lines = (rect(multi).height - (height - lh)) / lh;
    assert(Math.round(lines) === 3, `three lines shown, measured ${lines.toFixed(2)}`);
  });

  describe('right to left', () => {
    for (const where of ['on an ancestor', 'on the element']) {
      it(`mirrors the launcher corner and the bubbles with dir="rtl" ${where}, nothing overflows`, async () => {
        const attributes: Record<string, string> = where === 'on the element' ? { dir: 'rtl' } : { container: container({ dir: 'rtl' }) };
        const { el } = await mount(attributes);
        const launcher = part(el, 'launcher')!;
        assert(rect(launcher).right < innerWidth / 2, `the launcher sits in the left corner, at ${fmt(rect(launcher))}`);
        el.show();
        await el.updateComplete;
        const panel = part(el, 'panel')!;
        await Promise.all(panel.getAnimations().map((a) => a.finished));
        const box = rect(panel);
        assert(
          box.left >= 0 && box.right <= innerWidth && box.left < innerWidth - box.right,
          `the panel opens on the left, at ${fmt(box)}`,
        );
        await converseWithLongContent(el);
        const list = rect(part(el, 'messages')!);
        for (const user of parts(el, 'message-user')) {
          const r = rect(user);
          assert(r.left - list.left < list.right - r.right, `the visitor's bubble sits on the left, at ${fmt(r)} in ${fmt(list)}`);
        }
        for (const bot of parts(el, 'message-bot')) {
          const r = rect(bot);
          // A reply holding a code block takes the whole width (code-blocks.test.ts); the others sit on the right.
          if (bot.querySelector('pre')) continue;
          assert(list.right - r.right < r.left - list.left, `the assistant's bubble sits on the right, at ${fmt(r)} in ${fmt(list)}`);
        }
        assertNothingOverflows(el);
        const pre = part(el, 'message-bot')!.querySelector('pre')!;
        pre.scrollLeft = 10_000;
        assert(pre.scrollLeft > 0, 'the code block (left to right) scrolls to its line ends');
      });
    }
  });
});
