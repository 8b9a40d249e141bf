/**
 * What makes a screenshot of the widget the same on every run: the bundled test fonts (Geist and
 * Geist Mono, test/helpers/browser/fonts) for its texts and its code, no animation or transition, no caret or focus ring, and times
 * hidden (they follow the clock). Screenshots are compared with the approved ones in
 * test/screenshots/baseline by `visualDiff`; `npm run test:visual:update` approves a new look.
 */
import { visualDiff } from '@web/test-runner-visual-regression';
import { executeServerCommand } from '@web/test-runner-commands';

export const TEST_FONT = 'Visual Test Sans';
/** Code blocks and inline code: the widget names the system's monospace fonts, which differ by machine. */
const TEST_MONO_FONT = 'Visual Test Mono';

let fontLoaded: Promise<void> | undefined;

/** Loads the test fonts into the page once (the widget's shadow roots use the document's fonts). */
export function loadTestFont(): Promise<void> {
  fontLoaded ??= (async () => {
    const faces = [
      new FontFace(TEST_FONT, `url(${new URL('./fonts/geist-latin.woff2', import.meta.url).href})`),
      new FontFace(TEST_MONO_FONT, `url(${new URL('./fonts/geist-mono-latin.woff2', import.meta.url).href})`),
    ];
    for (const face of faces) document.fonts.add(face);
    await Promise.all(faces.map((face) => face.load()));
  })();
  return fontLoaded;
}

const steady = new CSSStyleSheet();
steady.replaceSync(
  // A time's text follows the clock, and so does its width: hidden, at one fixed width, so what
  // sits beside it stays put.
  'time, .date { visibility: hidden; display: inline-block; inline-size: 5em; white-space: nowrap; overflow: hidden; vertical-align: bottom } ' +
    '* { caret-color: transparent !important; outline: none !important; animation: none !important; transition: none !important } ' +
    `pre, code { font-family: '${TEST_MONO_FONT}', monospace !important }`,
);

/** Draws an element of the package (widget or usage) in the test font, from now on. */
export async function useTestFont(el: HTMLElement): Promise<void> {
  await loadTestFont();
  el.style.setProperty('--chatbot-font', `'${TEST_FONT}'`);
}

/** The element as it settles: steady styles, nothing focused, every font and frame drawn. */
export async function settle(el: HTMLElement & { updateComplete?: Promise<unknown> }): Promise<void> {
  await loadTestFont();
  const root = el.shadowRoot!;
  if (!root.adoptedStyleSheets.includes(steady)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, steady];
  (root.activeElement as HTMLElement | null)?.blur();
  await el.updateComplete;
  await document.fonts.ready;
  await Promise.all(root.getAnimations().map((animation) => animation.finished.catch(() => undefined)));
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  // A panel focuses its field once drawn, which may come after the blur above: a focused field's
  // border takes the focus colour, drawn or not depending on whether this page has the window's
  // focus among the pages the runner has open.
  if (root.activeElement) {
    (root.activeElement as HTMLElement).blur();
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  }
}

/**
 * A box of a fixed size on the page; `floating` makes it the containing block of a floating
 * widget (whose launcher and panel are position: fixed), so they sit in its corner.
 */
export function frame(width: number, height: number, { floating = false, id = '' } = {}): HTMLDivElement {
  const box = document.createElement('div');
  box.className = 'visual-frame';
  if (id) box.id = id;
  box.style.width = `${width}px`;
  box.style.height = `${height}px`;
  box.style.background = '#f8fafc';
  if (floating) {
    box.style.transform = 'translate(0)';
    box.style.overflow = 'hidden';
  }
  document.body.append(box);
  return box;
}

export function removeFrames(): void {
  for (const box of document.querySelectorAll('.visual-frame')) box.remove();
}

/** True while the run approves new baselines (UPDATE_SCREENSHOTS=1), when nothing can differ. */
export async function approvingBaselines(): Promise<boolean> {
  return (await executeServerCommand<boolean, undefined>('visual-update')) === true;
}

/** Fails unless the screenshot of `element` differs from the baseline `name`. */
export async function expectVisualDifference(element: Element, name: string, change: string): Promise<void> {
  let differed = false;
  try {
    await visualDiff(element, name);
  } catch {
    differed = true;
  }
  if (!differed) throw new Error(`${change}: the screenshot still equals the baseline ${name}`);
}

/** 2030-01-01T00:00:00Z: the day's end every spent quota reports while {@link fixedQuotaReset} holds. */
export const FIXED_RESET = 1_893_456_000;

/**
 * The quota notice names the time writing is possible again (the next UTC midnight, from the
 * handler's `X-RateLimit-Reset`): answers with nothing left name a fixed instant instead, so the
 * notice reads the same on every day. Returns the restore.
 */
export function fixedQuotaReset(): () => void {
  const original = window.fetch;
  window.fetch = async (input, init) => {
    const response = await original(input, init);
    if (response.headers.get('X-RateLimit-Remaining') !== '0') return response;
    const headers = new Headers(response.headers);
    headers.set('X-RateLimit-Reset', String(FIXED_RESET));
    return new Response(await response.arrayBuffer(), { status: response.status, headers });
  };
  return () => (window.fetch = original);
}

export { visualDiff };
