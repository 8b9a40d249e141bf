// Right-to-left layout, compared as screenshots with approved ones (test/widget/screenshots/
// baseline; UPDATE_SCREENSHOTS=1 approves a new look): Arabic and Hebrew panels laid out from
// the right, bubbles on the mirrored sides, the launcher in the mirrored corner. Times (which
// change with the clock), focus rings and the caret are hidden so only layout is compared.
import { visualDiff } from '@web/test-runner-visual-regression';
import { equal, mount, part, parts, unmountAll, waitForReplies } from './support/helpers.js';
import type { ChatbotWidget } from '../../src/browser/index.js';

afterEach(() => unmountAll());

const steady = new CSSStyleSheet();
steady.replaceSync(
  'time { visibility: hidden } * { caret-color: transparent !important; outline: none !important; animation: none !important }',
);

/** The widget as it settles: no animation running, nothing focused, times hidden. */
async function settle(el: ChatbotWidget) {
  el.shadowRoot!.adoptedStyleSheets = [...el.shadowRoot!.adoptedStyleSheets, steady];
  (el.shadowRoot!.activeElement as HTMLElement | null)?.blur();
  await el.updateComplete;
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
}

function frame(width: number, height: number) {
  const box = document.createElement('div');
  box.className = 'visual-frame';
  box.style.width = `${width}px`;
  box.style.height = `${height}px`;
  document.body.append(box);
  return box;
}

describe('<chatbot-widget> right to left, as screenshots', () => {
  for (const lang of ['ar', 'he']) {
    it(`lays out an inline conversation from the right (${lang})`, async () => {
      frame(360, 520).id = `frame-${lang}`;
      const { el } = await mount({ mode: 'inline', lang, heading: lang === 'ar' ? 'المساعد' : 'העוזר', container: `#frame-${lang}` });
      await el.send('rtl-sample');
      await waitForReplies(el, 1);
      await settle(el);
      await visualDiff(el, `rtl-inline-${lang}`);
    });
  }

  it("gives each bubble its own text's direction, whatever the widget's language", async () => {
    const { el } = await mount({ mode: 'inline', lang: 'ar' });
    await el.send('Where is my order?');
    await waitForReplies(el, 1);
    await el.send('rtl-sample');
    await waitForReplies(el, 2);
    const direction = (message: Element) => getComputedStyle(message.querySelector('.bubble')!).direction;
    const [englishQuestion, englishAnswer, , arabicAnswer] = parts(el, 'message');
    equal(direction(englishQuestion!), 'ltr', 'an English question reads left to right');
    equal(direction(englishAnswer!), 'ltr', 'an English answer too');
    equal(direction(arabicAnswer!), 'rtl', 'an Arabic answer right to left');
    equal(getComputedStyle(part(el, 'panel')!).direction, 'rtl', 'the widget around them stays right to left');
  });

  it('opens the floating panel over the mirrored corner (ar)', async () => {
    const { el } = await mount({ lang: 'ar', open: '' });
    await el.send('rtl-sample');
    await waitForReplies(el, 1);
    await settle(el);
    await visualDiff(part(el, 'panel')!, 'rtl-floating-panel-ar');
    el.hide();
    await settle(el);
    await visualDiff(part(el, 'launcher')!, 'rtl-launcher-ar');
    const box = part(el, 'launcher')!.getBoundingClientRect();
    if (box.left > window.innerWidth / 2) throw new Error('the launcher should sit in the left corner of a right-to-left widget');
  });
});
