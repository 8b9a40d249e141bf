// Which language a widget shows: BCP 47 tags from a `lang` attribute or the page's <html lang>,
// matched against the shipped languages; malformed tags never throw; an unknown `lang` shows
// English with one console warning naming it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseLocale, directionOf, loadLocale, resolveLocale, type LocaleCode } from '../../../src/ui/locales/index.js';
import { strings as fr } from '../../../src/ui/locales/fr.js';
import { englishFormatTag, strings as defaultStrings } from '../../../src/ui/locales/en.js';

const table: Array<[readonly (string | null | undefined)[], LocaleCode]> = [
  [['fr'], 'fr'],
  [['FR'], 'fr'],
  [['de-AT'], 'de'],
  [['pt-BR'], 'pt'],
  [['pt_BR'], 'pt'],
  [['zh-Hant-TW'], 'zh-Hant'],
  [['zh-TW'], 'zh-Hant'],
  [['zh-HK'], 'zh-Hant'],
  [['zh-hant'], 'zh-Hant'],
  [['zh-CN'], 'zh'],
  [['zh-SG'], 'zh'],
  [['zh'], 'zh'],
  [['ZH-hans'], 'zh'],
  [['iw'], 'he'],
  [['iw-IL'], 'he'],
  [['ar-EG'], 'ar'],
  [['ja-JP'], 'ja'],
  [['en-GB'], 'en'],
  [['  nl  '], 'nl'],
  // Unknown languages, and tags that are not tags, give way to the next tag or to English.
  [['tlh'], 'en'],
  [['hy', 'ko'], 'ko'],
  [['in'], 'id'],
  [['fa-IR'], 'fa'],
  [['uk-UA'], 'uk'],
  [['', 'it'], 'it'],
  [['   '], 'en'],
  [['en-'], 'en'],
  [['de--DE', 'es'], 'es'],
  [['12345'], 'en'],
  [['x-private'], 'en'],
  [['fr;q=0.9'], 'en'],
  [['<script>', 'de'], 'de'],
  [[null, undefined, 'ja'], 'ja'],
  [['und'], 'en'],
  [['und-Arab'], 'en'],
  [[], 'en'],
];

for (const [tags, expected] of table) {
  test(`resolveLocale(${JSON.stringify(tags)}) is ${expected}`, () => {
    assert.equal(resolveLocale(tags), expected);
  });
}

test('resolveLocale skips values that are not strings at all (from untyped callers)', () => {
  assert.equal(resolveLocale([42, {}, ['fr'], 'he'] as unknown as string[]), 'he');
});

test('directionOf knows right-to-left languages and scripts without loading them', () => {
  for (const tag of ['ar', 'he', 'iw', 'fa', 'ur-PK', 'az-Arab', 'und-Hebr', 'yi']) assert.equal(directionOf(tag), 'rtl', tag);
  for (const tag of ['en', 'ja', 'zh-Hant', 'az', 'az-Latn', 'ru', '', 'not a tag', 'und']) assert.equal(directionOf(tag), 'ltr', tag);
});

test('loadLocale imports a language once and shares it', async () => {
  const first = await loadLocale('fr');
  assert.equal(first.strings, fr);
  assert.equal(first.strings.send, 'Envoyer');
  assert.equal(await loadLocale('fr'), first);
  assert.equal((await loadLocale('en')).strings, defaultStrings);
});

test('loadLocale refuses a code it does not ship with a RangeError listing the shipped ones', async () => {
  await assert.rejects(loadLocale('xx' as LocaleCode), (error: Error) => {
    assert.ok(error instanceof RangeError);
    assert.match(error.message, /"xx" is not a shipped language; use one of en, .*ja/);
    return true;
  });
});

test('chooseLocale: the lang attribute first, then the page language, then English', (t) => {
  const warn = t.mock.method(console, 'warn', () => {});
  assert.deepEqual(chooseLocale('de', 'fr'), { code: 'de', formatTag: 'de' });
  assert.deepEqual(chooseLocale('', 'fr-CA'), { code: 'fr', formatTag: 'fr-CA' });
  assert.deepEqual(chooseLocale(null, 'en-GB'), { code: 'en', formatTag: 'en-GB' });
  assert.deepEqual(chooseLocale(undefined, 'pt_PT'), { code: 'pt', formatTag: 'pt-PT' });
  assert.deepEqual(chooseLocale('  ', ''), { code: 'en', formatTag: 'en' });
  // A page in a language the widget does not ship: English, and no warning (the page did not ask).
  assert.deepEqual(chooseLocale('', 'hy-AM'), { code: 'en', formatTag: 'en' });
  assert.deepEqual(chooseLocale('', 'garbage tag'), { code: 'en', formatTag: 'en' });
  assert.equal(warn.mock.callCount(), 0);
});

test('chooseLocale: an unknown lang shows English, not the page language, with one warning naming it', (t) => {
  const warn = t.mock.method(console, 'warn', () => {});
  assert.deepEqual(chooseLocale('klingon', 'de'), { code: 'en', formatTag: 'en' });
  assert.deepEqual(chooseLocale('klingon', 'de'), { code: 'en', formatTag: 'en' });
  assert.equal(warn.mock.callCount(), 1);
  const message = String(warn.mock.calls[0]!.arguments[0]);
  assert.match(message, /lang="klingon"/);
  assert.match(message, /showing English/);
  // Another bad value is another warning; a malformed one does not throw.
  assert.deepEqual(chooseLocale('de--DE', 'fr'), { code: 'en', formatTag: 'en' });
  assert.equal(warn.mock.callCount(), 2);
  assert.match(String(warn.mock.calls[1]!.arguments[0]), /lang="de--DE"/);
});

test('englishFormatTag, which a page in English uses without the language table, tells the tag chooseLocale would', () => {
  for (const tag of ['', 'en', 'EN', 'en-GB', 'en_us', 'en-gb', 'en-Latn-US', 'en-US-u-ca-buddhist', 'en-x-private', 'en-150']) {
    assert.equal(englishFormatTag(tag), chooseLocale(null, tag).formatTag, tag);
    if (tag) assert.equal(englishFormatTag(tag), chooseLocale(tag, 'de').formatTag, `lang="${tag}"`);
  }
  assert.equal(englishFormatTag(''), 'en');
  assert.equal(englishFormatTag('en_gb'), 'en-GB');
  // No language tag: the widget asks the language table, which shows English and warns of a lang attribute.
  for (const tag of ['en garbage', 'en-!!', 'en--GB']) assert.equal(englishFormatTag(tag), undefined, tag);
});
