/**
 * WCAG 2 contrast between two colours: relative luminance from sRGB (each channel linearised
 * with the sRGB transfer function, then weighted 0.2126, 0.7152, 0.0722) and the ratio
 * (L1 + 0.05) / (L2 + 0.05). Text needs 4.5:1 for AA. Pure: the studio turns any CSS colour into
 * sRGB bytes in the browser first (colour-probe.ts).
 */
export type Rgb = readonly [number, number, number];

export const AA_TEXT_CONTRAST = 4.5;

function linear(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function relativeLuminance([r, g, b]: Rgb): number {
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** From 1 (the same) to 21 (black on white), whichever of the two is lighter. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `#rgb` or `#rrggbb`, else undefined. */
export function parseHex(text: string): Rgb | undefined {
  const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(text.trim())?.[1];
  if (!hex) return undefined;
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as unknown as Rgb;
}

/**
 * The colour pairs the widget draws text with, as custom properties: text, then the background
 * it sits on. The names are the element's own `--chatbot-*` properties.
 */
export const TEXT_PAIRS: readonly { text: string; background: string; where: string }[] = [
  { text: '--chatbot-text', background: '--chatbot-background', where: 'text on the panel' },
  { text: '--chatbot-muted', background: '--chatbot-background', where: 'times and states on the panel' },
  { text: '--chatbot-on-accent', background: '--chatbot-accent', where: 'the Send button and launcher' },
  { text: '--chatbot-user-text', background: '--chatbot-user-background', where: "the visitor's messages" },
  { text: '--chatbot-user-link', background: '--chatbot-user-background', where: "links in the visitor's messages" },
  { text: '--chatbot-bot-text', background: '--chatbot-bot-background', where: "the assistant's messages" },
  { text: '--chatbot-link', background: '--chatbot-bot-background', where: "links in the assistant's messages" },
  { text: '--chatbot-error-text', background: '--chatbot-error-background', where: 'the error line' },
  { text: '--chatbot-badge-text', background: '--chatbot-badge-background', where: 'the unread badge' },
];
