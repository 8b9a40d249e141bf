// The standalone widget's weight, by what a visitor does: builds dist/chatbot-widget.js and its
// chunks with Vite (vite.config.ts) and prints, in gzip (-9) and brotli (q11), each journey
// against its own budget (exits 1 over any):
// - the first load: the entry chunk, what every page pays (the element, the launcher, its texts);
// - the first open: everything the panel needs to show a conversation in the default language
//   (the first load, the panel's chunk and the chunks it imports, English; a page in English
//   never fetches the language table);
// - each optional part a visitor may never use, on its own: the history pane (its search box and
//   the listing and opening of sessions; fetched when the page is idle after the panel opens, so
//   it works offline once the panel has been open), the history search, each language (the
//   largest is held to the budget), the language table (which a page in another language fetches to choose its language),
//   the transcript download (a chunk fetched when idle after the panel opens, as the pane), a
//   rating (the sender of ratings and the comment box of a thumbs down, two chunks loaded on the
//   first rating), reset() (the revocation of the visitor's token, a chunk loaded on a reset or
//   when a token waits to be revoked) and `<chatbot-usage>` (the site owner's page: the element, a chunk the entry
//   fetches as it runs, and its view, fetched when the first such element connects).
// Budgets are ceilings with headroom, not targets: when one is tight, code moves to a lazier
// chunk or the design gets smaller (docs/architecture.md). The baseline, Deep Chat, is measured
// in the same run: its browser bundle from node_modules, compressed the same way.
// `npm run bench -- widget-size --by-module` also lists what each source module weighs in the
// first load and in what the first open adds to it, to see what could move to a lazier chunk.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';
import { build, type Rolldown } from 'vite';

const root = new URL('..', import.meta.url).pathname;
const KiB = 1024;

/** Each journey's ceiling, gzip bytes. */
const BUDGETS = {
  firstLoad: 12 * KiB,
  firstOpen: 40 * KiB,
  historyPane: 4 * KiB,
  search: 3 * KiB,
  language: 2 * KiB,
  languageTable: 1.5 * KiB,
  transcript: 2 * KiB,
  rating: 3 * KiB,
  revocation: 1 * KiB,
  usageView: 12 * KiB,
};

type Chunk = Rolldown.OutputChunk;
interface Size {
  raw: number;
  gzip: number;
  brotli: number;
}

const gzip = (code: string) => gzipSync(code, { level: 9 }).length;
const brotli = (code: string) => brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const sizeOfCode = (code: string): Size => ({ raw: Buffer.byteLength(code), gzip: gzip(code), brotli: brotli(code) });
/** Chunks are fetched one by one, so each is compressed on its own and the sizes add up. */
const sizeOf = (chunks: Iterable<Chunk>): Size =>
  [...chunks]
    .map((chunk) => sizeOfCode(chunk.code))
    .reduce((a, b) => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli }), {
      raw: 0,
      gzip: 0,
      brotli: 0,
    });

const result = await build({ root, logLevel: 'warn' });
const chunks = (Array.isArray(result) ? result : [result as Rolldown.RolldownOutput])
  .flatMap((output) => output.output)
  .filter((file): file is Chunk => file.type === 'chunk');
const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
const entry = chunks.find((chunk) => chunk.isEntry)!;

/** The chunk whose own module is `path` (relative to src/). */
function chunkOf(path: string): Chunk {
  const found = chunks.find((chunk) => chunk.facadeModuleId?.endsWith(`/src/${path}`));
  if (!found) throw new Error(`No chunk of its own for src/${path}: the build's split changed, update bench/widget-size.ts.`);
  return found;
}

/** `chunk` and every chunk it imports statically (they load with it). */
function withImports(chunk: Chunk, into = new Set<Chunk>()): Set<Chunk> {
  if (into.has(chunk)) return into;
  into.add(chunk);
  for (const name of chunk.imports) withImports(byName.get(name)!, into);
  return into;
}

/** What loading `chunk` adds to what a page already has. */
const added = (chunk: Chunk, loaded: Set<Chunk>) => [...withImports(chunk)].filter((c) => !loaded.has(c));

// A chunk a visitor's page loads must load from a <script> tag: no bare specifiers.
for (const chunk of chunks) {
  if (/^\s*import\s*(?:[^'"]*from\s*)?['"](?![./])/m.test(chunk.code) || /\bimport\(\s*['"`](?![./])/.test(chunk.code)) {
    console.error(`${chunk.fileName} has a bare import: it would not load from a <script> tag.`);
    process.exit(1);
  }
}

const firstLoad = withImports(entry);
const panel = chunkOf('chatbot-widget/panel/chat-panel.ts');
const languageTable = chunkOf('ui/locales/index.ts');
const english = chunkOf('ui/locales/en.ts');
const firstOpen = new Set([...firstLoad, ...withImports(panel), ...withImports(english)]);

const languages = chunks
  .filter((chunk) => /\/src\/ui\/locales\/(?!index\.|en-launcher\.)[\w-]+\.ts$/.test(chunk.facadeModuleId ?? ''))
  .map((chunk) => ({ tag: /([\w-]+)\.ts$/.exec(chunk.facadeModuleId!)![1]!, size: sizeOf(added(chunk, firstLoad)) }))
  .sort((a, b) => b.size.gzip - a.size.gzip);
const largestLanguage = languages[0]!;

interface Journey {
  label: string;
  size: Size;
  budget: number;
}
const journeys: Journey[] = [
  { label: `first load (${entry.fileName})`, size: sizeOf(firstLoad), budget: BUDGETS.firstLoad },
  { label: 'first open: first load, panel, English', size: sizeOf(firstOpen), budget: BUDGETS.firstOpen },
  {
    label: 'optional: history pane (sessions, search box)',
    size: sizeOf(added(chunkOf('chatbot-widget/panel/history-pane.ts'), firstOpen)),
    budget: BUDGETS.historyPane,
  },
  {
    label: 'optional: history search',
    size: sizeOf(added(chunkOf('chatbot-widget/search/search-index.ts'), firstOpen)),
    budget: BUDGETS.search,
  },
  { label: `optional: a language, the largest (${largestLanguage.tag})`, size: largestLanguage.size, budget: BUDGETS.language },
  {
    label: 'optional: the language table (another language)',
    size: sizeOf(added(languageTable, firstOpen)),
    budget: BUDGETS.languageTable,
  },
  {
    label: 'optional: transcript download',
    size: sizeOf(added(chunkOf('chatbot-widget/panel/transcript-download.ts'), firstOpen)),
    budget: BUDGETS.transcript,
  },
  {
    label: 'optional: a rating (sender, comment box)',
    size: sizeOf(
      new Set([
        ...added(chunkOf('chatbot-widget/conversation/outbox-ratings.ts'), firstOpen),
        ...added(chunkOf('chatbot-widget/panel/feedback-comment.ts'), firstOpen),
      ]),
    ),
    budget: BUDGETS.rating,
  },
  {
    label: "optional: reset() (revoking the visitor's token)",
    size: sizeOf(added(chunkOf('chatbot-widget/identity/revocations.ts'), firstOpen)),
    budget: BUDGETS.revocation,
  },
  {
    label: "optional: <chatbot-usage> (owner's page)",
    size: sizeOf(
      new Set([
        ...added(chunkOf('chatbot-usage/register-usage.ts'), firstLoad),
        ...added(chunkOf('chatbot-usage/usage-view.ts'), firstLoad),
      ]),
    ),
    budget: BUDGETS.usageView,
  },
];

const kB = (n: number) => `${(n / KiB).toFixed(1)} KiB`;
console.log("What a visitor's page downloads for <chatbot-widget>, by journey (dist/, gzip -9, brotli q11):");
for (const { label, size, budget } of journeys) {
  console.log(
    `  ${label.padEnd(50)} ${String(size.gzip).padStart(6)} B gzip ${String(size.brotli).padStart(6)} B brotli ${kB(size.raw).padStart(9)} raw` +
      `   budget ${kB(budget)}: ${((size.gzip / budget) * 100).toFixed(0)}% used, ${budget - size.gzip} B left`,
  );
}
if (process.argv.includes('--by-module')) {
  // A module's code as it goes into its chunk, before the chunk is minified, each compressed on its
  // own: an upper bound to compare modules by, which does not add up to the journey's figure.
  const listModules = (title: string, journey: Iterable<Chunk>) => {
    const modules = [...journey]
      .flatMap((chunk) => Object.entries(chunk.modules))
      .filter(([, module]) => module.code)
      .map(([id, module]) => ({ name: id.replace(root, '').replace(/^.*\/node_modules\//, ''), gzip: gzip(module.code!) }))
      .sort((a, b) => b.gzip - a.gzip);
    console.log(`  ${title}, by module (gzip of each module's unminified code on its own):`);
    for (const { name, gzip } of modules) console.log(`    ${String(gzip).padStart(6)} B  ${name}`);
  };
  listModules('first load', firstLoad);
  listModules(
    'what the first open adds',
    [...firstOpen].filter((chunk) => !firstLoad.has(chunk)),
  );
}
const smallest = languages[languages.length - 1]!;
console.log(`  the ${languages.length} languages: ${smallest.size.gzip}–${largestLanguage.size.gzip} B gzip each`);

// The baseline: Deep Chat's self-contained browser bundle, the file a page loads for it.
const require = createRequire(import.meta.url);
const deepChatDir = dirname(require.resolve('deep-chat/package.json'));
const deepChatVersion = (JSON.parse(readFileSync(join(deepChatDir, 'package.json'), 'utf8')) as { version: string }).version;
const deepChat = sizeOfCode(readFileSync(join(deepChatDir, 'dist/deepChat.bundle.js'), 'utf8'));
const [load, open] = [journeys[0]!.size.gzip, journeys[1]!.size.gzip];
console.log(`Deep Chat ${deepChatVersion} (deep-chat/dist/deepChat.bundle.js): ${deepChat.gzip} B gzip, ${deepChat.brotli} B brotli`);
console.log(
  `  first load ${(load / deepChat.gzip).toFixed(2)}x its size (${(deepChat.gzip / load).toFixed(1)}x smaller); ` +
    `first open ${(open / deepChat.gzip).toFixed(2)}x (${(deepChat.gzip / open).toFixed(1)}x smaller)`,
);

const over = journeys.filter(({ size, budget }) => size.gzip > budget);
for (const { label, budget } of over) console.error(`Over budget: ${label} is over its ${kB(budget)} gzip.`);
process.exit(over.length ? 1 : 0);
