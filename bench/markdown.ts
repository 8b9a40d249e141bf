// Markdown of hostile replies: for each family of input that once made the reply lexer rescan or
// backtrack, the time to lex and render a 12,000-character reply (the longest one lexed) against
// a well-formed reply of the same length that draws the same elements (links for links, emphasis
// for emphasis; plain words where the hostile one draws none), measured side by side in the same
// run, alternating, and printed with the ratio. Target: every family at most 2× its twin.
//   Node: the lexer alone (lexMarkdown).
//   Chromium (playwright-core, the machine's browser): lex and render to the DOM with the real
//     renderer (bench/support/markdown-page.ts, bundled by esbuild with Lit's production build).
// Each figure is the median of RUNS runs, after WARMUP runs that are not counted.
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { lexMarkdown } from '../src/widget/markdown/block.js';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from '../scripts/find-browser.mjs';

const root = new URL('..', import.meta.url).pathname;
const LENGTH = 12_000;
const RUNS = 21;
const WARMUP = 5;
const TARGET_RATIO = 2;

/** `unit` repeated to exactly `LENGTH` characters. */
const filled = (unit: string) => unit.repeat(Math.ceil(LENGTH / unit.length)).slice(0, LENGTH);
const words = filled('word ');

/** Each family: a hostile reply, and its well-formed twin. */
const FAMILIES: { name: string; hostile: string; twin: string }[] = [
  { name: 'URLs cut at an unclosed ( (www.a()', hostile: filled('www.a('), twin: filled('www.a ') },
  { name: 'http URLs cut at an unclosed (', hostile: filled('http://a('), twin: filled('http://a ') },
  { name: 'link titles opened with (', hostile: filled('[a](b ('), twin: words },
  { name: 'link titles opened with "', hostile: filled('[a](b "'), twin: words },
  { name: 'links never closed', hostile: filled('[a](()'), twin: words },
  { name: 'open brackets', hostile: filled('[!['), twin: words },
  { name: 'emphasis *_*_', hostile: filled('*_'), twin: filled('*a*_a_') },
  { name: 'emphasis of every kind a*_~', hostile: filled('a*_~'), twin: filled('a *a* _a_ ~a~ ') },
  { name: 'intraword underscores', hostile: filled('_a'), twin: words },
  { name: 'unclosed emphasis', hostile: filled('*a **b '), twin: words },
  { name: 'backtick runs', hostile: filled('`a``b'), twin: filled('`a` b ') },
  { name: 'tags never closed', hostile: filled('<a x="'), twin: words },
  { name: 'comments never closed', hostile: filled('x <!--a'), twin: words },
  { name: 'e-mail-like words', hostile: filled('a_b.c-') + '@', twin: words },
  { name: 'list markers in a quote (> - - - … *)', hostile: '> ' + filled('- ').slice(0, LENGTH - 3) + '*', twin: '> ' + words.slice(2) },
  { name: 'everything', hostile: filled('*_~`[]()<>!\\\n'), twin: words },
];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(2).padStart(8)} ms`;

/** Runs `measure` on each reply of a family in turn, RUNS times after WARMUP, and answers the medians. */
async function sideBySide(measure: (text: string) => Promise<number> | number, hostile: string, twin: string) {
  const times = { hostile: [] as number[], twin: [] as number[] };
  for (let run = 0; run < WARMUP + RUNS; run++) {
    const h = await measure(hostile);
    const t = await measure(twin);
    if (run >= WARMUP) {
      times.hostile.push(h);
      times.twin.push(t);
    }
  }
  return { hostile: median(times.hostile), twin: median(times.twin) };
}

function report(name: string, { hostile, twin }: { hostile: number; twin: number }, note = ''): boolean {
  const ratio = hostile / twin;
  const within = ratio <= TARGET_RATIO;
  console.log(
    `  ${name.padEnd(40)} ${ms(hostile)}  twin ${ms(twin)}  ${ratio.toFixed(2).padStart(5)}×${within ? '' : '  OVER TARGET'}${note}`,
  );
  return within;
}

let over = 0;
console.log(`Lexing a ${LENGTH.toLocaleString('en')}-character reply in Node (median of ${RUNS}), hostile against its twin:`);
for (const { name, hostile, twin } of FAMILIES) {
  const time = (text: string) => {
    const start = performance.now();
    lexMarkdown(text);
    return performance.now() - start;
  };
  if (!report(name, await sideBySide(time, hostile, twin))) over++;
}

const bundle = await build({
  entryPoints: [`${root}bench/support/markdown-page.ts`],
  bundle: true,
  write: false,
  format: 'iife',
  target: 'es2022',
  minify: true,
  conditions: ['production'],
});
const executablePath = await findBrowser();
if (!executablePath) throw new Error(INSTALL_HINT);
const browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
try {
  const page = await browser.newPage();
  await page.setContent('<!doctype html><meta charset="utf-8"><title>markdown</title><body>');
  await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
  type Rendered = { ms: number; elements: Record<string, number> };
  const renderReply = (text: string) =>
    page.evaluate((reply) => (globalThis as unknown as { renderReply: (t: string) => Rendered }).renderReply(reply), text);
  const drawn = (elements: Record<string, number>) =>
    Object.entries(elements)
      .map(([tag, count]) => `${count} ${tag}`)
      .join(', ');
  console.log(`\nLexing and rendering it to the DOM in Chromium (median of ${RUNS}), hostile against its twin; the elements each draws:`);
  for (const { name, hostile, twin } of FAMILIES) {
    const figures = await sideBySide(async (text) => (await renderReply(text)).ms, hostile, twin);
    const [h, t] = [(await renderReply(hostile)).elements, (await renderReply(twin)).elements];
    if (!report(name, figures, `   ${drawn(h)} | ${drawn(t)}`)) over++;
  }
} finally {
  await browser.close();
}
console.log(over ? `\n${over} figures over ${TARGET_RATIO}× their twin.` : `\nEvery family within ${TARGET_RATIO}× its twin.`);
