/**
 * Any CSS colour the browser knows (`teal`, `#0f766e`, `rgb(…)`, `oklch(…)`) as sRGB bytes, by
 * painting it on a one-pixel canvas: the browser's own colour parser and conversion, so the
 * contrast check sees the colour the widget will show.
 */
import type { Rgb } from './contrast.js';

const canvas = document.createElement('canvas');
canvas.width = canvas.height = 1;
const context = canvas.getContext('2d', { willReadFrequently: true })!;

/** The colour over white (what shows through a translucent one), or undefined when it is no colour. */
export function toRgb(colour: string): Rgb | undefined {
  if (!CSS.supports('color', colour)) return undefined;
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, 1, 1);
  context.fillStyle = colour;
  context.fillRect(0, 0, 1, 1);
  const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
  return [r!, g!, b!];
}
