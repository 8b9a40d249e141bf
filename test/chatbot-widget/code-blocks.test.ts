// Code answers in narrow panels, in real Chromium: a reply holding a code block takes the list's
// whole width; a line of 120 characters is never cut off but reached by scrolling the block
// (mouse, touch or keyboard: the block takes focus and has a name); the copy button sits in the
// block's own bar and covers no code. At panel widths of 320, 380 and 480 px and on a phone
// (the floating panel full-screen), left to right and right to left, light and dark.
import { setViewport } from '@web/test-runner-commands';
import type { ChatbotWidget } from '../../src/browser/index.js';
import { axeViolations } from '../helpers/browser/axe.js';
import { LONG_CODE_LINE } from '../helpers/browser/code-sample.js';
import { assert, equal, mount, part, parts, unmountAll, waitFor, waitForReplies } from '../helpers/browser/helpers.js';
import { press, tabTo } from '../helpers/browser/keyboard.js';

const initialViewport = { width: innerWidth, height: innerHeight };
const DESKTOP = { width: 1024, height: 768 };
const PHONE = { width: 360, height: 740 };

afterEach(async () => {
  unmountAll();
  await setViewport(initialViewport);
});

const fmt = (r: DOMRect) => `[${r.left.toFixed(1)}–${r.right.toFixed(1)} × ${r.top.toFixed(1)}–${r.bottom.toFixed(1)}]`;
const overlaps = (a: DOMRect, b: DOMRect) => a.left < b.right && a.right > b.left && a.top < b.bottom && a.bottom > b.top;

/** The box of `text` in the code element's text, as laid out now (scrolled or not). */
function textRect(code: Element, text: string): DOMRect {
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
    const start = node.data.indexOf(text);
    if (start < 0) continue;
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, start + text.length);
    return range.getBoundingClientRect();
  }
  throw new Error(`"${text}" is not in the code`);
}

/** An open floating widget showing the long-line reply, its code block settled (server copy, focusable). */
async function widgetWithLongCode(attributes: Record<string, string>): Promise<{ el: ChatbotWidget; pre: HTMLElement }> {
  const { el } = await mount({ open: '', ...attributes });
  await el.send('long-code-line');
  await waitForReplies(el, 1);
  // Bubbles are re-created when their server copies arrive; measure the settled ones.
  await waitFor(() => parts(el, 'message').every((m) => !m.dataset.key!.startsWith('local-')), 'server ids');
  await el.updateComplete;
  const panel = part(el, 'panel')!;
  await Promise.all(panel.getAnimations().map((a) => a.finished));
  const pre = await waitFor(() => {
    const block = part(el, 'code-block');
    return block?.getAttribute('tabindex') === '0' ? block : undefined;
  }, 'the scrolling code block to take focus');
  return { el, pre };
}

const cases = [
  ...[320, 380, 480].map((width) => ({ name: `a ${width} px panel`, viewport: DESKTOP, style: `--chatbot-width:${width}px`, width })),
  { name: 'a 360×740 phone (the panel full-screen)', viewport: PHONE, style: '', width: PHONE.width },
];

describe('<chatbot-widget> code blocks', () => {
  for (const { name, viewport, style, width } of cases) {
    for (const dir of ['ltr', 'rtl'] as const) {
      it(`shows every character of a 120-character line and keeps the copy button off the code: ${name}, ${dir}`, async () => {
        await setViewport(viewport);
        const { el, pre } = await widgetWithLongCode({ dir, ...(style ? { style } : {}) });
        const panel = part(el, 'panel')!.getBoundingClientRect();
        assert(Math.abs(panel.width - width) <= 1, `the panel is ${panel.width}px wide, not ${width}px`);

        // The reply holding the block takes the list's whole width.
        const list = part(el, 'messages')!;
        const message = part(el, 'message-bot')!;
        const padding = parseFloat(getComputedStyle(list).paddingInlineStart) + parseFloat(getComputedStyle(list).paddingInlineEnd);
        assert(
          Math.abs(message.getBoundingClientRect().width - (list.clientWidth - padding)) <= 1,
          `the reply is ${message.getBoundingClientRect().width}px of the list's ${list.clientWidth - padding}px`,
        );

        // Named and focusable, as a region that scrolls.
        equal(pre.getAttribute('role'), 'region');
        equal(pre.getAttribute('aria-label'), el.text.codeBlock);

        // The long line is reachable by scrolling: its end lies outside the block, then inside.
        const code = pre.querySelector('code')!;
        const ending = LONG_CODE_LINE.slice(-10);
        assert(pre.scrollWidth > pre.clientWidth, `the block scrolls sideways (${pre.scrollWidth} > ${pre.clientWidth})`);
        const box = pre.getBoundingClientRect();
        assert(textRect(code, ending).right > box.right, 'the line end starts out of view (the block is narrower than the line)');
        pre.scrollLeft = pre.scrollWidth;
        await new Promise(requestAnimationFrame);
        const end = textRect(code, ending);
        assert(end.left >= box.left && end.right <= box.right, `the line's end ${fmt(end)} is inside the block ${fmt(box)} once scrolled`);
        pre.scrollLeft = 0;

        // The copy button sits on the block and covers no line of code.
        const button = part(el, 'code-copy-button')!.getBoundingClientRect();
        const block = pre.closest('.code-block')!.getBoundingClientRect();
        assert(
          button.left >= block.left && button.right <= block.right && button.top >= block.top && button.bottom <= block.bottom,
          `the button ${fmt(button)} sits on the block ${fmt(block)}`,
        );
        // (The code's closing line break makes an empty box of no width: no text to cover.)
        const lines = [...code.getClientRects()].filter((line) => line.width > 0);
        equal(lines.length, 2, 'two lines of code');
        for (const line of lines) assert(!overlaps(button, line), `the button ${fmt(button)} covers the code line ${fmt(line)}`);
      });
    }
  }

  it('is reached with Tab and scrolled with the arrow keys, right to left on a phone', async () => {
    await setViewport(PHONE);
    const { el, pre } = await widgetWithLongCode({ dir: 'rtl' });
    equal(await tabTo(el, 'code-block'), pre, 'Tab reaches the block');
    equal(pre.scrollLeft, 0, 'it starts at the lines’ beginnings');
    await press('ArrowRight');
    await waitFor(() => pre.scrollLeft > 0, 'ArrowRight to scroll the block');
    // Each press scrolls a step, as far as the lines' ends and no further.
    const code = pre.querySelector('code')!;
    const endInView = () => textRect(code, LONG_CODE_LINE.slice(-10)).right <= pre.getBoundingClientRect().right;
    for (let presses = 0; presses < 60 && !endInView(); presses++) {
      const before = pre.scrollLeft;
      await press('ArrowRight');
      await waitFor(() => pre.scrollLeft > before || endInView(), 'each ArrowRight to scroll on');
    }
    assert(endInView(), 'the arrow keys bring the line ends into view');
  });

  for (const theme of ['light', 'dark']) {
    it(`has no axe violations with the block focused in a 320 px panel, right to left, ${theme} theme`, async () => {
      await setViewport(DESKTOP);
      const { el, pre } = await widgetWithLongCode({ dir: 'rtl', theme, style: '--chatbot-width:320px' });
      pre.focus();
      equal((await axeViolations(el)).join('\n'), '');
    });
  }
});
