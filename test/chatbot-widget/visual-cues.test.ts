// Visual cues, computed in real Chromium: the focus ring is in the accent's colour family with
// at least 3:1 against the panel (WCAG non-text contrast) in light and dark, quiet on the text
// field that takes focus when the panel opens; a code block that scrolls sideways shows a shade
// at each edge where code is cut off (scroll shadows), in light, dark and right-to-left.
// Screenshots cannot be taken from inside the page, so the checks read the computed styles the
// browser resolved (colours, layers, attachments); pixel measurements of screenshots are in the
// README (widget section).
import type { ChatbotWidget } from '../../src/browser/index.js';
import { assert, equal, mount, part, unmountAll, waitFor, waitForReplies } from '../helpers/browser/helpers.js';

afterEach(() => unmountAll());

type Rgba = [number, number, number, number];

/**
 * Every colour in a computed value, in order: `rgb()`/`rgba()`, and `color(srgb r g b / a)`
 * (how Chromium serializes a resolved `color-mix()`), as 0–255 channels.
 */
function colours(value: string): Rgba[] {
  return [...value.matchAll(/rgba?\(([^)]+)\)|color\(srgb ([^)]+)\)/g)].map((m) => {
    const scale = m[1] ? 1 : 255;
    const [r, g, b, a = 1] = (m[1] ?? m[2]!)
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return [r! * scale, g! * scale, b! * scale, a];
  });
}

/** `top` painted over the opaque `bottom`. */
const over = (top: Rgba, bottom: Rgba): Rgba => [0, 1, 2].map((i) => top[i]! * top[3] + bottom[i]! * (1 - top[3])).concat(1) as Rgba;

function luminance([r, g, b]: Rgba): number {
  const channel = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

function contrast(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** A code block that scrolls sideways, in a settled reply. */
async function scrollingCodeBlock(el: ChatbotWidget) {
  await el.send('layout-sample');
  await waitForReplies(el, 1);
  await el.updateComplete;
  const pre = await waitFor(() => part(el, 'message-bot')?.querySelector('pre'), 'the code block');
  assert(pre.scrollWidth > pre.clientWidth, 'the block scrolls sideways');
  return pre;
}

describe('<chatbot-widget> visual cues', () => {
  for (const theme of ['light', 'dark']) {
    it(`focus ring: the accent colour, 2px, at least 3:1 against the panel, ${theme} theme`, async () => {
      const { el } = await mount({ theme });
      // Opened by a click (not the keyboard): the text field takes focus and shows its quiet ring.
      part(el, 'launcher')!.click();
      await el.updateComplete;
      const input = await waitFor(
        () => (el.shadowRoot!.activeElement === part(el, 'input') ? part(el, 'input') : null),
        'the input to take focus',
      );
      const panel = part(el, 'panel')!;
      await Promise.all(panel.getAnimations().map((a) => a.finished));
      const style = getComputedStyle(input);
      const accent = colours(getComputedStyle(part(el, 'send-button')!).backgroundColor)[0]!;
      const ring = colours(style.outlineColor)[0]!;
      const background = colours(getComputedStyle(panel).backgroundColor)[0]!;

      assert(input.matches(':focus-visible'), 'Chromium shows focus on a text field focused on opening');
      equal(style.outlineStyle, 'solid');
      equal(style.outlineWidth, '2px', 'a 2px line, not a 3px ring');
      equal(style.outlineOffset, '-1px', "drawn over the field's border, not around it");
      equal(ring.slice(0, 3).join(), accent.slice(0, 3).join(), 'the focus colour is the accent');
      assert(ring[3] === 1, 'opaque');
      const ratio = contrast(ring, background);
      assert(ratio >= 3, `focus ring contrast ${ratio.toFixed(2)}:1 against the panel, needs 3:1`);
      equal(colours(style.borderColor)[0]!.slice(0, 3).join(), ring.slice(0, 3).join(), 'the border turns accent too');
    });
  }

  it('focus ring follows --chatbot-focus when a host sets it', async () => {
    const { el } = await mount({ open: '', style: '--chatbot-focus: rgb(0, 100, 0)' });
    const input = part(el, 'input')!;
    input.focus();
    equal(getComputedStyle(input).outlineColor, 'rgb(0, 100, 0)');
  });

  for (const [name, attributes] of [
    ['light', { mode: 'inline', style: 'height:560px;width:300px' }],
    ['dark', { mode: 'inline', theme: 'dark', style: 'height:560px;width:300px' }],
    ['right-to-left', { mode: 'inline', dir: 'rtl', style: 'height:560px;width:300px' }],
  ] as const) {
    it(`a code block that scrolls sideways shades the edges where code is cut off, ${name}`, async () => {
      const { el } = await mount({ ...attributes });
      const pre = await scrollingCodeBlock(el);
      const style = getComputedStyle(pre);
      equal(style.direction, 'ltr', 'code reads and scrolls left to right');
      // Shades fixed to the box, covers travelling with the code: the cover hides the shade at
      // the end the code has reached, so a shade shows exactly where more code is.
      equal(style.backgroundAttachment, 'local, local, scroll, scroll');
      equal(style.backgroundRepeat, 'no-repeat, no-repeat, no-repeat, no-repeat');
      const layers = style.backgroundImage.split(/,\s*(?=linear-gradient)/);
      equal(layers.length, 4, style.backgroundImage);
      const codeBackground = colours(style.backgroundColor)[0]!;
      const [coverLeft, , shadeLeft] = layers.map((layer) => colours(layer)[0]!);
      equal(coverLeft!.join(), codeBackground.join(), 'the covers are the code background');
      // The shade's darkest (or lightest) point, over the code background, must stand out.
      const ratio = contrast(over(shadeLeft!, codeBackground), codeBackground);
      assert(ratio >= 1.4, `the shade stands out from the code background: ${ratio.toFixed(2)}:1`);
      const positions = style.backgroundPosition.split(',').map((p) => p.trim().split(' ')[0]);
      equal(positions.join(), '0%,100%,0%,100%', 'left and right edges');
    });
  }
});
