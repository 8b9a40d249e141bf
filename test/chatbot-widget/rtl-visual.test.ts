// Right-to-left layout, compared as screenshots with approved ones (test/screenshots/
// baseline; `npm run test:visual:update` approves a new look): Arabic and Hebrew panels laid out
// from the right, bubbles on the mirrored sides, the launcher in the mirrored corner. Drawn as
// every screenshot is (test/helpers/browser/visual.ts): test font, no animation, times hidden.
import { equal, mount, part, parts, unmountAll, waitForReplies } from '../helpers/browser/helpers.js';
import { frame, removeFrames, settle, useTestFont, visualDiff } from '../helpers/browser/visual.js';

afterEach(() => {
  unmountAll();
  removeFrames();
});

describe('<chatbot-widget> right to left, as screenshots', () => {
  for (const lang of ['ar', 'he']) {
    it(`lays out an inline conversation from the right (${lang})`, async () => {
      frame(360, 520, { id: `frame-${lang}` });
      const { el } = await mount({ mode: 'inline', lang, heading: lang === 'ar' ? 'المساعد' : 'העוזר', container: `#frame-${lang}` });
      await useTestFont(el);
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
    await useTestFont(el);
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
