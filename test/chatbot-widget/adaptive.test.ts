// The widget adapts to the visitor's device: with `prefers-reduced-motion: reduce` nothing
// animates or transitions, and under 480 px wide the floating panel takes the whole screen.
// Both are emulated by Playwright itself (emulateMedia, setViewport), as a real device would set them.
import { emulateMedia, setViewport } from '@web/test-runner-commands';
import type { ChatbotWidget } from '../../src/browser/index.js';
import { assert, equal, mount, part, unmountAll, waitFor } from '../helpers/browser/helpers.js';

const initialViewport = { width: innerWidth, height: innerHeight };

afterEach(async () => {
  unmountAll();
  await emulateMedia({ reducedMotion: 'no-preference' });
  await setViewport(initialViewport);
});

const seconds = (list: string) => list.split(',').map((value) => parseFloat(value) * (value.trim().endsWith('ms') ? 0.001 : 1));

/** The longest animation and transition duration of any element in the widget's shadow root. */
function longestMotion(el: ChatbotWidget) {
  let longest = 0;
  for (const node of [el, ...el.shadowRoot!.querySelectorAll('*')]) {
    const style = getComputedStyle(node);
    longest = Math.max(longest, ...seconds(style.animationDuration), ...seconds(style.transitionDuration));
  }
  return longest;
}

/** An open floating widget with the typing indicator running (its dots are animated). */
async function openWithTyping() {
  const { el } = await mount({});
  el.show();
  await el.updateComplete;
  await el.send('slow answer please');
  await waitFor(() => part(el, 'typing'), 'the typing indicator');
  return el;
}

describe('<chatbot-widget> on the visitor’s device', () => {
  it('animates without a motion preference (the control for the test below)', async () => {
    const el = await openWithTyping();
    assert(longestMotion(el) > 0.1, 'the panel, launcher and typing dots have motion by default');
    assert(el.shadowRoot!.getAnimations().length > 0, 'animations run');
  });

  it('rises into view when the visitor opens it, and is simply there on a page loaded with it open', async () => {
    const { el: loadedOpen } = await mount({ open: '' });
    equal(getComputedStyle(part(loadedOpen, 'panel')!).animationName, 'none', 'loaded open: its first frame shows it whole');
    const { el } = await mount({});
    el.show();
    await el.updateComplete;
    equal(getComputedStyle(part(el, 'panel')!).animationName, 'rise', 'opened');
    el.hide();
    await el.updateComplete;
    el.show();
    await el.updateComplete;
    equal(getComputedStyle(part(el, 'panel')!).animationName, 'rise', 'opened again');
  });

  it('honours prefers-reduced-motion: no animation or transition anywhere', async () => {
    await emulateMedia({ reducedMotion: 'reduce' });
    assert(matchMedia('(prefers-reduced-motion: reduce)').matches, 'the preference is emulated');
    const el = await openWithTyping();
    equal(longestMotion(el), 0, 'every animation and transition duration is 0');
    equal(el.shadowRoot!.getAnimations().length, 0, 'nothing runs');
    const launcher = part(el, 'launcher')!;
    equal(getComputedStyle(launcher).transitionDuration, '0s');
    equal(getComputedStyle(part(el, 'panel')!).animationName, 'none');
  });

  it('takes the whole screen with the floating panel under 480 px wide', async () => {
    await setViewport({ width: 400, height: 700 });
    const { el } = await mount({ open: '' });
    const panel = part(el, 'panel')!;
    await Promise.all(panel.getAnimations().map((a) => a.finished));
    const box = panel.getBoundingClientRect();
    equal([box.left, box.top, box.width, box.height].map(Math.round).join(','), '0,0,400,700', 'panel box');
    const close = part(el, 'close-button')!.getBoundingClientRect();
    assert(close.right <= 400 && close.top >= 0, 'the close button is on screen');
  });

  it('keeps the floating panel a window in the corner on a wide screen', async () => {
    await setViewport({ width: 1024, height: 768 });
    const { el } = await mount({ open: '' });
    const panel = part(el, 'panel')!;
    await Promise.all(panel.getAnimations().map((a) => a.finished));
    const box = panel.getBoundingClientRect();
    assert(box.width < 500 && box.left > 500, `a corner window, got ${box.left},${box.width}`);
  });
});
