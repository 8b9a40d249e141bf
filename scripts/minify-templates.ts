// Minifies the text of Lit's html`` / svg`` / css`` tagged templates at build time: the standalone
// bundle would otherwise ship every line's indentation. Conservative on purpose, so the DOM and the
// styles stay the same:
//   html/svg: inside a tag, a run of whitespace between attributes becomes one space (none before
//     `>`); between tags, a run of whitespace that holds a line break becomes one line break (it
//     still renders as the space it did, or the line break it did under `white-space: pre-line`);
//     whitespace without a line break, and everything inside <pre>, <textarea>, <script>, <style>,
//     quoted attribute values and comments, is kept as written. A quoted value of letters, digits,
//     `_` and `-` loses its quotes (`part="input"` is `part=input`), unless a `/` or a `${}` follows it.
//   css: comments go; whitespace goes next to `{ } ; , > ( ) !` and after `:`, elsewhere it becomes
//     one space; a `;` right before `}` goes. Strings are kept as written, but for the value of an
//     attribute selector that is a plain identifier (`[part='input']` is `[part=input]`).
// A `${}` is opaque: whitespace next to it stays one space (never joins it to a neighbour).
// Used by vite.config.ts (the standalone build) and web-test-runner.config.mjs (so the browser tests
// run the templates as they ship).
import { parseSync, type Plugin } from 'vite';

type Tag = 'html' | 'css';

/** Lit's tags, by the name modules import them under. */
const LIT_MODULES = new Set(['lit', 'lit-html', 'lit-element', '@lit/reactive-element']);
const TAGS: Record<string, Tag> = { html: 'html', svg: 'html', css: 'css' };
/** Elements whose text is taken as written (or where whitespace shows). */
const RAW_TEXT = new Set(['pre', 'textarea', 'script', 'style']);

const isSpace = (c: string | undefined) => c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f';

/** The end of the whitespace run starting at `i`. */
function spaceEnd(text: string, i: number) {
  while (isSpace(text[i])) i++;
  return i;
}

/** The html`` or svg`` template's parts (the text between its `${}`), minified. */
export function minifyHtml(parts: readonly string[]): string[] {
  let state: 'text' | 'tag' | '"' | "'" | 'comment' | 'raw' = 'text';
  /** The element whose start tag is being read, and the raw-text element being inside of. */
  let tagName = '';
  let rawTag = '';
  return parts.map((part) => {
    let out = '';
    let i = 0;
    /** Copies as written up to `marker` and `keep` characters of it, then reads on in state `after`. */
    const copyThrough = (marker: string, keep: number, after: typeof state, anyCase = false) => {
      const end = (anyCase ? part.toLowerCase() : part).indexOf(marker, i);
      const stop = end === -1 ? part.length : end + keep;
      out += part.slice(i, stop);
      i = stop;
      if (end !== -1) state = after;
    };
    while (i < part.length) {
      const c = part[i]!;
      if (state === 'text') {
        if (isSpace(c)) {
          const end = spaceEnd(part, i);
          const run = part.slice(i, end);
          out += run.includes('\n') ? '\n' : run;
          i = end;
          continue;
        }
        if (part.startsWith('<!--', i)) {
          state = 'comment';
          out += '<!--';
          i += 4;
          continue;
        }
        const name = /^<(\/?)([a-zA-Z][\w-]*)/.exec(part.slice(i, i + 64));
        if (name) {
          state = 'tag';
          tagName = name[1] ? '' : name[2]!.toLowerCase();
          out += name[0];
          i += name[0].length;
          continue;
        }
        out += c;
        i++;
      } else if (state === 'tag') {
        if (isSpace(c)) {
          const end = spaceEnd(part, i);
          const next = part[end];
          // Before `>` or `/>` nothing is needed; at the part's end a `${}` follows: keep it apart.
          if (!(next === '>' || (next === '/' && part[end + 1] === '>'))) out += ' ';
          i = end;
          continue;
        }
        if ((c === '"' || c === "'") && out.endsWith('=')) {
          const close = part.indexOf(c, i + 1);
          const value = close === -1 ? '' : part.slice(i + 1, close);
          const after = part[close + 1];
          // A value of letters, digits, `_` and `-` needs no quotes, unless a `/` would join it
          // (`rx=2/>`) or a `${}` would (at the part's end).
          if (/^[\w-]+$/.test(value) && (after === '>' || (isSpace(after) && part[spaceEnd(part, close + 1)] !== '/'))) {
            out += value;
            i = close + 1;
            continue;
          }
        }
        out += c;
        i++;
        if (c === '"' || c === "'") state = c;
        else if (c === '>') {
          state = RAW_TEXT.has(tagName) ? 'raw' : 'text';
          rawTag = tagName;
        }
      } else if (state === '"' || state === "'") {
        copyThrough(state, state.length, 'tag');
      } else if (state === 'comment') {
        copyThrough('-->', 3, 'text');
      } else {
        // Up to the raw-text element's end tag, which is then read as a tag.
        copyThrough(`</${rawTag}`, 0, 'text', true);
      }
    }
    return out;
  });
}

/** Whitespace may go next to these (in CSS they separate tokens themselves). */
const CSS_DROP_AFTER = new Set(['{', '}', ';', ',', '>', '(', ':']);
const CSS_DROP_BEFORE = new Set(['{', '}', ';', ',', '>', ')', '!']);

/** A CSS identifier that cannot be mistaken for anything else: a letter or `_`, then letters, digits, `_` or `-`. */
const CSS_IDENTIFIER = /^[A-Za-z_][\w-]*$/;

/** The css`` template's parts (the text between its `${}`), minified. */
export function minifyCss(parts: readonly string[]): string[] {
  return parts.map((part, index) => {
    let out = '';
    /** Whether whitespace (or a comment) was seen and not yet written. */
    let space = false;
    const flushSpace = (next: string | undefined) => {
      if (!space) return;
      space = false;
      const prev = out[out.length - 1];
      // At the literal's start or end whitespace is dropped; next to a `${}` it stays one space.
      if (prev === undefined ? index === 0 : CSS_DROP_AFTER.has(prev)) return;
      if (next === undefined ? index === parts.length - 1 : CSS_DROP_BEFORE.has(next)) return;
      out += ' ';
    };
    let i = 0;
    while (i < part.length) {
      const c = part[i]!;
      if (isSpace(c)) {
        space = true;
        i = spaceEnd(part, i);
      } else if (c === '/' && part[i + 1] === '*') {
        const end = part.indexOf('*/', i + 2);
        space = true;
        i = end === -1 ? part.length : end + 2;
      } else if (c === '"' || c === "'") {
        flushSpace(c);
        let j = i + 1;
        while (j < part.length && part[j] !== c) j += part[j] === '\\' ? 2 : 1;
        const text = part.slice(i + 1, j);
        // An attribute selector's value needs no quotes when it is an identifier: `[a='b-c']`.
        out += out.endsWith('=') && part[j + 1] === ']' && CSS_IDENTIFIER.test(text) ? text : part.slice(i, j + 1);
        i = j + 1;
      } else if (c === '\\') {
        flushSpace(c);
        out += part.slice(i, i + 2);
        i += 2;
      } else {
        flushSpace(c);
        // `;}`: the last declaration of a block needs no `;`.
        if (c === '}' && out.endsWith(';')) out = out.slice(0, -1);
        out += c;
        i++;
      }
    }
    flushSpace(undefined);
    return out;
  });
}

interface Node {
  type: string;
  [key: string]: unknown;
}

/** Every node of the tree, depth first. */
function* walk(node: unknown): Generator<Node> {
  if (Array.isArray(node)) {
    for (const child of node) yield* walk(child);
  } else if (node && typeof node === 'object') {
    if (typeof (node as Node).type === 'string') yield node as Node;
    for (const value of Object.values(node)) if (value && typeof value === 'object') yield* walk(value);
  }
}

/**
 * The module's source with its Lit templates minified, or undefined when it has none. Only tags
 * imported from Lit count (a local `html` of another meaning is left alone).
 */
export function minifyTemplates(code: string, filename: string): string | undefined {
  if (!/\b(?:html|svg|css)`/.test(code) && !/from\s*['"]lit/.test(code)) return undefined;
  const { program, errors } = parseSync(filename, code);
  if (errors.length) return undefined;
  const tags = new Map<string, Tag>();
  for (const node of walk(program)) {
    if (node.type !== 'ImportDeclaration' || !LIT_MODULES.has((node.source as { value: string }).value)) continue;
    for (const spec of node.specifiers as { type: string; imported?: { name?: string }; local: { name: string } }[]) {
      const tag = spec.type === 'ImportSpecifier' ? TAGS[spec.imported?.name ?? ''] : undefined;
      if (tag) tags.set(spec.local.name, tag);
    }
  }
  if (tags.size === 0) return undefined;
  const edits: { start: number; end: number; text: string }[] = [];
  for (const node of walk(program)) {
    if (node.type !== 'TaggedTemplateExpression') continue;
    const tagNode = node.tag as Node & { name?: string };
    const tag = tagNode.type === 'Identifier' ? tags.get(tagNode.name!) : undefined;
    if (!tag) continue;
    const quasis = (node.quasi as { quasis: { start: number; value: { raw: string } }[] }).quasis;
    // A template element's span starts at the backtick or the `}` before its text.
    const spans = quasis.map((q) => ({ start: q.start + 1, end: q.start + 1 + q.value.raw.length }));
    if (quasis.some((q, i) => code.slice(spans[i]!.start, spans[i]!.end) !== q.value.raw)) continue;
    const raws = quasis.map((q) => q.value.raw);
    const minified = tag === 'css' ? minifyCss(raws) : minifyHtml(raws);
    minified.forEach((text, i) => {
      if (text !== raws[i]) edits.push({ ...spans[i]!, text });
    });
  }
  if (edits.length === 0) return undefined;
  // Nested templates were visited outer first; their spans never overlap (a part ends at `${`).
  edits.sort((a, b) => b.start - a.start);
  let result = code;
  for (const { start, end, text } of edits) result = result.slice(0, start) + text + result.slice(end);
  return result;
}

/** The Vite plugin: minifies the templates of the project's own TypeScript modules. */
export function minifyTemplatesPlugin(): Plugin {
  return {
    name: 'minify-templates',
    apply: 'build',
    enforce: 'pre',
    transform: {
      filter: { id: /\/src\/.*\.ts$/ },
      handler(code, id) {
        const result = minifyTemplates(code, id);
        // Sourcemaps of the standalone file are off (vite.config.ts); no map to keep in step.
        return result === undefined ? null : { code: result, map: null };
      },
    },
  };
}
