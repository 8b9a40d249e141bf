// Imports point one way (README, Architecture): shared <- client <- server, shared <- emulator,
// and the widget takes from shared only types and the few plain modules written for every side
// (limits, the Retry-After parser, header names), so nothing that can sign, and no secret, can
// reach a browser bundle. This reads every source file's imports and holds them to that plan.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const src = fileURLToPath(new URL('../src', import.meta.url));

/** Which top-level folders of src/ each folder may import from (besides itself). */
const ALLOWED: Record<string, string[]> = {
  shared: [],
  client: ['shared'],
  server: ['shared', 'client'],
  emulator: ['shared'],
  // The browser side: what both elements share, each element, and the entries that register them.
  ui: ['shared'],
  'chatbot-widget': ['shared', 'ui'],
  'chatbot-usage': ['shared', 'ui'],
  browser: ['chatbot-widget', 'chatbot-usage', 'ui'],
  cli: ['shared', 'client', 'emulator'],
  // The framework entries wrap or declare the widget, and nothing else.
  react: ['browser', 'chatbot-widget', 'chatbot-usage', 'ui'],
  vue: ['browser', 'chatbot-widget', 'chatbot-usage', 'ui'],
  svelte: ['browser', 'chatbot-widget', 'chatbot-usage', 'ui'],
};

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** A static import or re-export, with or without names (`import './x.js'` loads a module too): group 3 is the specifier. */
const IMPORT = /^\s*(import|export)\s+(type\s+)?(?:[^'"]*?from\s+)?'([^']+)'/gm;

test('every folder of src/ imports only the folders the architecture allows', () => {
  const violations: string[] = [];
  for (const file of files(src)) {
    const area = relative(src, file).split('/')[0]!;
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const specifier = match[3]!;
      if (!specifier.startsWith('.')) continue;
      const target = relative(src, resolve(dirname(file), specifier)).split('/')[0]!;
      if (target !== area && !ALLOWED[area]?.includes(target)) violations.push(`${relative(src, file)} imports ${specifier}`);
    }
  }
  assert.deepEqual(violations, []);
});

/** Modules of shared/ whose values the widget may use: constants and pure parsing, nothing that signs. */
const BROWSER_SAFE = new Set(['limits', 'page-size', 'retry-after', 'headers', 'well-formed']);

test('the widget takes only types from shared (values only from its plain modules), and no Node or signing module at all', () => {
  const violations: string[] = [];
  for (const file of ['ui', 'chatbot-widget', 'chatbot-usage', 'browser'].flatMap((folder) => files(join(src, folder)))) {
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const [, , typeOnly, specifier] = match;
      const sharedModule = /\/shared\/([\w-]+)\.js$/.exec(specifier!)?.[1];
      if (sharedModule && !typeOnly && !BROWSER_SAFE.has(sharedModule))
        violations.push(`${relative(src, file)} imports values from ${specifier}`);
      if (/^node:|^(crypto|fs|http)$/.test(specifier!)) violations.push(`${relative(src, file)} imports ${specifier}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('shared stays isomorphic: no Node built-ins and no DOM-only globals', () => {
  for (const file of files(join(src, 'shared'))) {
    // Code only: comments may well name what the code avoids.
    const text = readFileSync(file, 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '');
    assert.doesNotMatch(text, /from 'node:|require\(|\bBuffer\b|\bdocument\.|\bwindow\./, relative(src, file));
  }
});

test('the handler signs upstream requests only through the client’s request code, never a copy', () => {
  const copies: string[] = [];
  for (const file of files(join(src, 'server'))) {
    const text = readFileSync(file, 'utf8');
    // `sign` (the string-to-sign HMAC) and the query builder belong to client/signed-request.ts.
    if (/import\s*\{[^}]*\bsign\b[^}]*\}\s*from\s*'[^']*shared\/signature\.js'/.test(text))
      copies.push(`${relative(src, file)} signs by itself`);
    if (/from\s*'[^']*shared\/query\.js'/.test(text)) copies.push(`${relative(src, file)} builds a query string by itself`);
  }
  assert.deepEqual(copies, []);
  assert.match(readFileSync(join(src, 'server/core/upstream.ts'), 'utf8'), /from '\.\.\/\.\.\/client\/signed-request\.js'/);
});

/**
 * The handler's folders, each one job, import one way: stores know nothing of the handler; core
 * (options, answers, the upstream call, browser rules) builds on the store interface; identity,
 * budgets and idempotency build on core (budgets on identity's address buckets too); feedback
 * (ratings, their listing and month counts) on core and the store's record types; routes
 * compose them; signing-handler.ts and index.ts at the top compose the routes; adapters translate
 * a runtime's requests for the top.
 */
const SERVER_ALLOWED: Record<string, string[]> = {
  stores: [],
  core: ['stores'],
  identity: ['core'],
  budgets: ['core', 'identity'],
  idempotency: ['core'],
  feedback: ['core', 'stores'],
  routes: ['core', 'identity', 'budgets', 'idempotency', 'feedback'],
  adapters: ['top', 'core'],
  top: ['core', 'stores', 'identity', 'budgets', 'idempotency', 'routes'],
};

test("the handler's folders import one way", () => {
  const server = join(src, 'server');
  const folderOf = (path: string) => (path.includes('/') ? path.split('/')[0]! : 'top');
  const violations: string[] = [];
  for (const file of files(server)) {
    const from = folderOf(relative(server, file));
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const target = relative(server, resolve(dirname(file), match[3]!));
      if (!match[3]!.startsWith('.') || target.startsWith('..')) continue;
      const to = folderOf(target);
      if (to !== from && !SERVER_ALLOWED[from]?.includes(to)) violations.push(`server/${relative(server, file)} imports ${match[3]}`);
    }
  }
  assert.deepEqual(violations, []);
});

/**
 * Values kept beside a Request, a Response or a function, out of the Web API's sight (a WeakMap or
 * WeakSet keyed on them, a Symbol-keyed property, a property defined behind the object's back), would let a runtime's
 * adapter and the handler talk past `Request -> Response`. The handler keeps to the Web API; what
 * one runtime needs to go faster lives in adapters/, whole.
 */
const SIDE_CHANNEL = /\bWeak(?:Map|Set)\b|\bSymbol(?:\.for)?\s*\(|\bObject\.defineProperty\s*\(/;

/** The first side channel in a source file's code (comments may name what the code avoids). */
function sideChannelIn(source: string): string | undefined {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return SIDE_CHANNEL.exec(code)?.[0];
}

test('the rule against side channels catches each kind, in code and not in comments', () => {
  assert.equal(sideChannelIn('const texts = new WeakMap<Response, string>();'), 'WeakMap');
  assert.equal(sideChannelIn('const told = new WeakSet<Logger>();'), 'WeakSet');
  assert.equal(sideChannelIn("export const KEY = Symbol('chatbot-widget/answers');"), 'Symbol(');
  assert.equal(sideChannelIn("const KEY = Symbol.for('chatbot-widget/transport');"), 'Symbol.for(');
  assert.equal(sideChannelIn('Object.defineProperty(handler, KEY, { value: answer });'), 'Object.defineProperty(');
  assert.equal(sideChannelIn('/** No WeakMap here. */\n// nor Symbol() nor Object.defineProperty()\nconst x = 1;'), undefined);
});

test('the handler outside adapters/ keeps nothing on the side: no WeakMap, WeakSet, Symbol or Object.defineProperty', () => {
  const server = join(src, 'server');
  const violations: string[] = [];
  for (const file of files(server)) {
    if (relative(server, file).startsWith('adapters/')) continue;
    const found = sideChannelIn(readFileSync(file, 'utf8'));
    if (found) violations.push(`server/${relative(server, file)} uses ${found}`);
  }
  assert.deepEqual(violations, []);
});

/** The relative specifiers a source text imports, types and bare side-effect imports included. */
function importsIn(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((match) => match[3]!).filter((specifier) => specifier.startsWith('.'));
}

/** The files of src/ that a file imports (paths relative to src/, `.ts`). */
function importsOf(file: string): string[] {
  return importsIn(readFileSync(file, 'utf8')).map((specifier) => relative(src, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

test('the import reader sees every static form: named, type-only, over several lines, re-exports and bare imports', () => {
  const text = [
    "import { a } from './a.js';",
    "import type { B } from '../b.js';",
    'import {',
    '  c,',
    '  type D,',
    "} from './c.js';",
    "export { e } from './e.js';",
    "export * from './f.js';",
    "import './g.js';",
    "import { html } from 'lit';",
    "const later = import('./lazy.js');",
    "// import { z } from './in-a-comment.js' is not at a line's start as code would be",
  ].join('\n');
  assert.deepEqual(importsIn(text), ['./a.js', '../b.js', './c.js', './e.js', './f.js', './g.js']);
});

/**
 * A circle of static imports in `graph` (file -> the files it imports), as the files around it
 * with the first repeated at the end; undefined when there is none.
 */
function importCircle(graph: Map<string, string[]>): string[] | undefined {
  const done = new Set<string>();
  const path: string[] = [];
  const onPath = new Set<string>();
  const visit = (file: string): string[] | undefined => {
    if (onPath.has(file)) return [...path.slice(path.indexOf(file)), file];
    if (done.has(file)) return undefined;
    path.push(file);
    onPath.add(file);
    for (const next of graph.get(file) ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    path.pop();
    onPath.delete(file);
    done.add(file);
    return undefined;
  };
  for (const file of [...graph.keys()].sort()) {
    const circle = visit(file);
    if (circle) return circle;
  }
  return undefined;
}

test('the search for import circles finds a circle of three files and passes the tree once it is broken', () => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts']],
  ]);
  assert.deepEqual(importCircle(graph), ['a.ts', 'b.ts', 'c.ts', 'a.ts']);
  graph.set('c.ts', ['d.ts']);
  assert.equal(importCircle(graph), undefined);
});

// A file that imports, through others, a file that imports it cannot be read, moved or loaded on
// its own. Type imports count: they tie the files as readers see them. A lazy `import()` does not
// (the element that loads its view later is how chunks are cut), and is not read here.
test('no import circles in src/: each file can be read knowing only what it imports', () => {
  const graph = new Map(files(src).map((file) => [relative(src, file), importsOf(file)]));
  assert.equal(importCircle(graph)?.join(' -> '), undefined);
});

/**
 * The widget's folders, lowest first: each imports only the folders before it (and the files at
 * the element's top, the element and what both halves of the chunk split use). io/ calls the
 * handler and keeps records, identity/ is who the calls speak for, conversation/ is what they
 * carry, search/ and panel/ are the lazy chunks that show it.
 */
const WIDGET_LAYERS = ['io', 'identity', 'conversation', 'search', 'panel'];

test("the widget's folders import one way: io <- identity <- conversation <- search <- panel", () => {
  const widget = join(src, 'chatbot-widget');
  /** The folder's place in the order; -1 for the files at the element's top, which the order leaves free. */
  const layerOf = (path: string) => (path.includes('/') ? WIDGET_LAYERS.indexOf(path.split('/')[0]!) : -1);
  const violations: string[] = [];
  for (const file of files(widget)) {
    const path = relative(widget, file);
    if (path.includes('/') && layerOf(path) === -1) violations.push(`${path.split('/')[0]}/ has no place in WIDGET_LAYERS: give it one`);
    const from = layerOf(path);
    if (from === -1) continue;
    for (const target of importsOf(file)) {
      if (!target.startsWith('chatbot-widget/')) continue;
      const to = layerOf(target.slice('chatbot-widget/'.length));
      if (to > from) violations.push(`${relative(src, file)} imports ${target}`);
    }
  }
  assert.deepEqual([...new Set(violations)], []);
});
