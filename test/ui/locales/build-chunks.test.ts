// Each language loads only when used: Vite (the tool that builds the standalone widget) emits
// one chunk per language from the loader, English included (it comes with the panel's code; the
// first load holds only the launcher's English texts, locales/en-launcher.ts). The built files
// are then run, so the chunks are shown to load, not just to exist.
//
// The loader is built on its own here, with the standalone widget's target and minifier.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildLanguages, LOADER_ENTRY as ENTRY } from '../../../scripts/build-languages.js';
import { LOCALE_CODES, loadLocale, type LocaleCode } from '../../../src/ui/locales/index.js';
import type { WidgetStrings } from '../../../src/ui/strings.js';
import { strings as defaultStrings } from '../../../src/ui/locales/en.js';

const out = mkdtempSync(join(tmpdir(), 'chatbot-widget-locales-'));

/** Minifiers may write non-ASCII text as \u escapes; compare against the text itself. */
function unescape(code: string): string {
  return code
    .replace(/\\u\{([0-9a-fA-F]+)\}/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\(['"])/g, '$1');
}

/** Whether a bundle has `text` as a whole string literal (`{count} result` is not in `'{count} resultado'`). */
function hasLiteral(code: string, text: string): boolean {
  return ['"', "'", '`'].some((quote) => code.includes(quote + text + quote));
}

/** Texts only this language has: differing from English and from every other language. */
function distinctive(code: LocaleCode, all: Map<LocaleCode, WidgetStrings>): string[] {
  const own = all.get(code)!;
  const others = [...all].filter(([other]) => other !== code).map(([, strings]) => Object.values(strings));
  return Object.values(own).filter((text) => text.length > 8 && !others.some((values) => values.includes(text)));
}

let files: Map<string, string>;
const texts = new Map<LocaleCode, WidgetStrings>();

before(async () => {
  const built = await buildLanguages(out);
  files = new Map([...built].map(([name, bytes]) => [name, unescape(bytes.toString('utf8'))]));
  for (const code of LOCALE_CODES) texts.set(code, (await loadLocale(code)).strings);
});

after(() => rmSync(out, { recursive: true, force: true }));

test('every language is a chunk of its own, and there is nothing else', () => {
  const chunks = [...files.keys()].filter((name) => name !== ENTRY);
  assert.equal(chunks.length, LOCALE_CODES.length, `chunks: ${chunks.join(', ')}`);
  for (const code of LOCALE_CODES) {
    const holding = [...files].filter(([, content]) => content.includes(texts.get(code)!.errorIdentity)).map(([name]) => name);
    assert.equal(holding.length, 1, `${code} is in ${holding.join(', ') || 'no file'}`);
    assert.notEqual(holding[0], ENTRY, `${code} is in the entry`);
  }
});

test('the entry holds no language', () => {
  const entry = files.get(ENTRY)!;
  assert.ok(!entry.includes(defaultStrings.errorIdentity));
  for (const code of LOCALE_CODES) {
    for (const text of distinctive(code, texts)) assert.ok(!hasLiteral(entry, text), `the entry contains ${code}: "${text}"`);
  }
  // The Japanese heading, as a page would see it in the bundle.
  assert.ok(!entry.includes('チャットでお問い合わせ'));
});

test('each language chunk holds that language only', () => {
  for (const code of LOCALE_CODES) {
    const [, content] = [...files].find(([, c]) => c.includes(texts.get(code)!.errorIdentity))!;
    for (const other of LOCALE_CODES.filter((c) => c !== code)) {
      const leaked = distinctive(other, texts).filter((text) => hasLiteral(content, text));
      assert.deepEqual(leaked, [], `the ${code} chunk contains ${other} texts`);
    }
  }
});

test('the built loader loads each language from its chunk', async () => {
  const built = (await import(pathToFileURL(join(out, ENTRY)).href)) as typeof import('../../../src/ui/locales/index.js');
  for (const code of LOCALE_CODES) {
    const locale = await built.loadLocale(code);
    assert.deepEqual(locale.strings, texts.get(code), code);
    assert.equal(locale.dir, ['ar', 'fa', 'he'].includes(code) ? 'rtl' : 'ltr', code);
  }
  assert.equal(built.resolveLocale(['iw-IL']), 'he');
});
