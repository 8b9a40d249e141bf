// Markdown of hostile replies: for each family of input that once made the reply lexer rescan or
// backtrack, the time to lex and render a 12,000-character reply (the longest one lexed) against
// a well-formed reply of the same length that draws the same elements (links for links, emphasis
// for emphasis; plain words where the hostile one draws none), measured side by side in the same
// run, alternating, and printed with the ratio. Target: every family at most 2× its twin.
//   Node: the lexer alone (lexMarkdown), bundled by esbuild as the widget's build compiles it
//     (tsx would wrap each of its closures in a helper that names it, which costs more than the
//     lexing of some inputs).
//   Chromium (playwright-core, the machine's browser): lex and render to the DOM with the real
//     renderer (bench/support/markdown-page.ts, bundled by esbuild with Lit's production build).
// Each figure is the median of RUNS runs, after WARMUP runs that are not counted.
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { findFullBrowser, BROWSER_ARGS, INSTALL_HINT } from '../scripts/find-browser.mjs';

const root = new URL('..', import.meta.url).pathname;
const LENGTH = 12_000;
const RUNS = 21;
/** Lexes or renders per figure: their mean (Chromium's clock has a resolution of 0.1 ms). */
const RENDERS = 5;
const WARMUP = 10;
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
  // As many `em` (1,500) and `del` (1) as the hostile one draws.
  { name: 'emphasis of every kind a*_~', hostile: filled('a*_~'), twin: '~a~ ' + filled('*a* bcd ').slice(0, LENGTH - 4) },
  { name: 'intraword underscores', hostile: filled('_a'), twin: words },
  { name: 'unclosed emphasis', hostile: filled('*a **b '), twin: words },
  { name: 'backtick runs', hostile: filled('`a``b'), twin: filled('`a` bc `d` efg ') }, // 1,600 code spans each
  { name: 'tags never closed', hostile: filled('<a x="'), twin: words },
  { name: 'comments never closed', hostile: filled('x <!--a'), twin: words },
  { name: 'e-mail-like words', hostile: filled('a_b.c-') + '@', twin: words },
  {
    name: 'list markers in a quote (> - - - … *)',
    hostile: '> ' + filled('- ').slice(0, LENGTH - 3) + '*',
    // The same eleven lists, one in another, around words.
    twin: '> ' + '- '.repeat(11) + words.slice(24),
  },
  // Emphasis, code spans, empty links (`[]()`, drawn as nothing), line breaks and struck text, as
  // many of each as the hostile one lexes.
  {
    name: 'everything',
    hostile: filled('*_~`[]()<>!\\\n'),
    twin: filled('*a* `b` `c` `d` ~e~ []() []() []() f\\\ng\\\nh\\\n' + 'word '.repeat(6) + 'wor '),
  },
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

/** `entry` bundled by esbuild, minified, with Lit's production build. */
async function bundled(entry: string, format: 'esm' | 'iife'): Promise<string> {
  const result = await build({
    entryPoints: [`${root}${entry}`],
    bundle: true,
    write: false,
    format,
    target: 'es2022',
    minify: true,
    conditions: ['production'],
  });
  return result.outputFiles[0]!.text;
}

const lexerFile = join(mkdtempSync(join(tmpdir(), 'markdown-bench-')), 'lexer.mjs');
writeFileSync(lexerFile, await bundled('src/ui/markdown/block.ts', 'esm'));
const { lexMarkdown } = (await import(pathToFileURL(lexerFile).href)) as typeof import('../src/ui/markdown/block.js');

let over = 0;
console.log(
  `Lexing a ${LENGTH.toLocaleString('en')}-character reply in Node (median of ${RUNS}, each the mean of ${RENDERS} lexes), hostile against its twin:`,
);
for (const { name, hostile, twin } of FAMILIES) {
  const time = (text: string) => {
    const start = performance.now();
    for (let lex = 0; lex < RENDERS; lex++) lexMarkdown(text);
    return (performance.now() - start) / RENDERS;
  };
  if (!report(name, await sideBySide(time, hostile, twin))) over++;
}

const executablePath = await findFullBrowser();
if (!executablePath) throw new Error(INSTALL_HINT);
const browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
try {
  const page = await browser.newPage();
  await page.setContent('<!doctype html><meta charset="utf-8"><title>markdown</title><body>');
  await page.addScriptTag({ content: await bundled('bench/support/markdown-page.ts', 'iife') });
  type Rendered = { ms: number; elements: Record<string, number> };
  const renderReply = (text: string, times = 1) =>
    page.evaluate(
      ([reply, count]) => (globalThis as unknown as { renderReply: (t: string, n: number) => Rendered }).renderReply(reply, count),
      [text, times] as const,
    );
  const drawn = (elements: Record<string, number>) =>
    Object.entries(elements)
      .map(([tag, count]) => `${count} ${tag}`)
      .join(', ');
  console.log(
    `\nLexing and rendering it to the DOM in Chromium (median of ${RUNS}, each the mean of ${RENDERS} renders), hostile against its twin; the elements each draws:`,
  );
  for (const { name, hostile, twin } of FAMILIES) {
    const figures = await sideBySide(async (text) => (await renderReply(text, RENDERS)).ms, hostile, twin);
    const [h, t] = [(await renderReply(hostile)).elements, (await renderReply(twin)).elements];
    if (!report(name, figures, `   ${drawn(h)} | ${drawn(t)}`)) over++;
  }
} finally {
  await browser.close();
}
console.log(over ? `\n${over} figures over ${TARGET_RATIO}× their twin.` : `\nEvery family within ${TARGET_RATIO}× its twin.`);
