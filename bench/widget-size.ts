// The standalone widget's weight: builds dist/chatbot-widget.js and its chunks with Vite
// (vite.config.ts) and prints what a visitor's page downloads: the first load (the element,
// launcher, the launcher's English texts), each chunk it loads later (the panel on first open or
// when idle, and what that needs), one language's texts (with the panel, the page's language
// only, English included: the largest is counted), and the total, against the
// 12 kB and 40 kB gzip budgets (exits 1 over either). Not counted, and printed apart:
// `<chatbot-usage>`'s view (the site owner's page, not a visitor's) and the other languages. The
// baseline, Deep Chat, is measured in the same run: its browser bundle from node_modules, gzipped
// the same way.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { build, type Rolldown } from 'vite';

const root = new URL('..', import.meta.url).pathname;
const FIRST_LOAD_BUDGET = 12 * 1024;
const TOTAL_BUDGET = 40 * 1024;

const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`;
const gzip = (code: string | Buffer) => gzipSync(code, { level: 9 }).length;
const brotli = (code: string | Buffer) => brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

const result = await build({ root, logLevel: 'warn' });
const chunks = (Array.isArray(result) ? result : [result as Rolldown.RolldownOutput])
  .flatMap((output) => output.output)
  .filter((file): file is Rolldown.OutputChunk => file.type === 'chunk');
const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
const entry = chunks.find((chunk) => chunk.isEntry)!;

/** A chunk loaded only on some pages: a language's texts, or `<chatbot-usage>`'s view. */
const language = (chunk: Rolldown.OutputChunk) => /\/src\/widget\/locales\/[^/]+\.ts$/.test(chunk.facadeModuleId ?? '');
const usageView = (chunk: Rolldown.OutputChunk) => (chunk.facadeModuleId ?? '').includes('/src/widget/chatbot-usage/');

// What a visitor may load: every chunk reachable from the entry, but for those two kinds when
// imported on demand. A chunk imported statically comes with its importer, whatever it is: a
// language the panel imported that way would be loaded on every page, besides the page's own.
const visitor = new Set<Rolldown.OutputChunk>();
const reach = (chunk: Rolldown.OutputChunk) => {
  const next = [
    ...chunk.imports.map((name) => byName.get(name)!),
    ...chunk.dynamicImports.map((name) => byName.get(name)!).filter((c) => !language(c) && !usageView(c)),
  ];
  for (const found of next) {
    if (found === entry || visitor.has(found)) continue;
    visitor.add(found);
    reach(found);
  }
};
reach(entry);

for (const chunk of [entry, ...visitor]) {
  if (/^\s*import\s*(?:[^'"]*from\s*)?['"](?![./])/m.test(chunk.code) || /\bimport\(\s*['"`](?![./])/.test(chunk.code)) {
    console.error(`${chunk.fileName} has a bare import: it would not load from a <script> tag.`);
    process.exit(1);
  }
}

const size = (chunk: Rolldown.OutputChunk) => ({ raw: Buffer.byteLength(chunk.code), gzip: gzip(chunk.code), brotli: brotli(chunk.code) });
const line = (label: string, s: ReturnType<typeof size>, budget?: number) =>
  console.log(
    `  ${label.padEnd(52)} ${kB(s.gzip).padStart(8)} gzip ${kB(s.brotli).padStart(8)} brotli ${kB(s.raw).padStart(8)} raw` +
      (budget ? `   budget ${kB(budget)} (${((s.gzip / budget) * 100).toFixed(0)}% used)` : ''),
  );

const first = size(entry);
const later = [...visitor].map((chunk) => ({ chunk, ...size(chunk) })).sort((a, b) => b.gzip - a.gzip);
const languageSizes = chunks.filter(language).map((chunk) => ({ chunk, ...size(chunk) }));
const largestLanguage = languageSizes.reduce((a, b) => (b.gzip > a.gzip ? b : a));
const total = [first, ...later, largestLanguage].reduce((sum, s) => ({
  raw: sum.raw + s.raw,
  gzip: sum.gzip + s.gzip,
  brotli: sum.brotli + s.brotli,
}));

console.log("What a visitor's page downloads for <chatbot-widget> (dist/, gzip -9, brotli q11):");
line(`first load: ${entry.fileName}`, first, FIRST_LOAD_BUDGET);
for (const { chunk, ...s } of later) line(`later: ${chunk.fileName.replace(/-[\w-]{8}\.js$/, '-….js')}`, s);
const english = languageSizes.find(({ chunk }) => chunk.facadeModuleId?.endsWith('/locales/en.ts'));
line(
  `later: one language's texts, the largest (${largestLanguage.chunk.fileName.replace(/^chatbot-widget-|-[\w-]{8}\.js$/g, '')})`,
  largestLanguage,
);
line('total a visitor may load', total, TOTAL_BUDGET);

const languages = languageSizes.map((s) => s.gzip);
const views = chunks.filter(usageView).map((chunk) => gzip(chunk.code));
console.log('Not in the total:');
console.log(`  <chatbot-usage>'s view (the site owner's page only)    ${views.map(kB).join(', ')} gzip`);
console.log(
  `  the other languages: ${languages.length} in all, ${kB(Math.min(...languages))}–${kB(Math.max(...languages))} gzip each (English ${english ? kB(english.gzip) : '?'})`,
);

// The baseline: Deep Chat's self-contained browser bundle, the file a page loads for it.
const require = createRequire(import.meta.url);
const deepChatDir = dirname(require.resolve('deep-chat/package.json'));
const deepChatVersion = (JSON.parse(readFileSync(join(deepChatDir, 'package.json'), 'utf8')) as { version: string }).version;
const deepChat = readFileSync(join(deepChatDir, 'dist/deepChat.bundle.js'));
const deepChatGzip = gzip(deepChat);
console.log(`Deep Chat ${deepChatVersion} (deep-chat/dist/deepChat.bundle.js): ${kB(deepChatGzip)} gzip, ${kB(brotli(deepChat))} brotli`);
console.log(
  `  first load ${(first.gzip / deepChatGzip).toFixed(2)}x its size (${(deepChatGzip / first.gzip).toFixed(1)}x smaller); ` +
    `total ${(total.gzip / deepChatGzip).toFixed(2)}x (${(deepChatGzip / total.gzip).toFixed(1)}x smaller)`,
);

let over = false;
if (first.gzip > FIRST_LOAD_BUDGET) {
  console.error(`The first load is over its ${kB(FIRST_LOAD_BUDGET)} gzip budget.`);
  over = true;
}
if (total.gzip > TOTAL_BUDGET) {
  console.error(`What a visitor may load is over its ${kB(TOTAL_BUDGET)} gzip budget.`);
  over = true;
}
process.exit(over ? 1 : 0);
