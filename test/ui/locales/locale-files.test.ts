// Every shipped language is complete and safe to format: the same keys as English, no empty
// text, the same {placeholders} (a translated placeholder name would show up raw), no markup
// characters, plural variants only where the language's grammar has that form. A contributor who
// copies English and translates it learns here what is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COUNTED_KEYS, PLURAL_CATEGORIES, type WidgetStrings } from '../../../src/ui/strings.js';
import { strings as defaultStrings } from '../../../src/ui/locales/en.js';
import { LOCALE_CODES, directionOf, loadLocale } from '../../../src/ui/locales/index.js';

const localesDir = fileURLToPath(new URL('../../../src/ui/locales/', import.meta.url));
const variantPattern = new RegExp(`^(${COUNTED_KEYS.join('|')})_(${PLURAL_CATEGORIES.join('|')})$`);
const baseKeys = Object.keys(defaultStrings)
  .filter((key) => !variantPattern.test(key))
  .sort();

function placeholders(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
}

/** Whether a plural category stands for one number only in this language (Arabic `two` is 2). */
function singleNumber(code: string, category: string): boolean {
  const rules = new Intl.PluralRules(code);
  let seen = 0;
  for (let n = 0; n <= 1000; n++) if (rules.select(n) === category) seen++;
  return seen === 1;
}

const texts = new Map<string, WidgetStrings>();
for (const code of LOCALE_CODES) texts.set(code, (await loadLocale(code)).strings);

test('at least ten languages ship, among them Arabic, Hebrew, Japanese and Chinese', () => {
  assert.ok(LOCALE_CODES.length >= 10, `only ${LOCALE_CODES.join(', ')}`);
  for (const code of ['en', 'ar', 'he', 'ja', 'zh']) assert.ok(LOCALE_CODES.includes(code as never), code);
});

test('every language file in src/widget/locales has a loader entry, and every entry a file', () => {
  const files = readdirSync(localesDir)
    // index.ts is the loader; en-launcher.ts the few English texts of the first load (en.ts spreads them).
    .filter((name) => name.endsWith('.ts') && name !== 'index.ts' && name !== 'en-launcher.ts')
    .map((name) => name.slice(0, -3));
  assert.deepEqual(files.sort(), [...LOCALE_CODES].sort());
});

for (const code of LOCALE_CODES) {
  test(`${code}: exactly the keys English has, plus only plural variants its grammar uses`, () => {
    const strings = texts.get(code)!;
    const keys = Object.keys(strings);
    assert.deepEqual(keys.filter((key) => !variantPattern.test(key)).sort(), baseKeys);
    const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories;
    for (const key of keys.filter((k) => variantPattern.test(k))) {
      const category = key.split('_')[1]!;
      assert.ok(
        categories.includes(category as Intl.LDMLPluralRule),
        `${code}.${key}: ${code} has no "${category}" form (it has ${categories.join(', ')})`,
      );
    }
    // A language that says "1 message" apart from "2 messages" must say it for every count.
    if (categories.includes('one')) {
      for (const key of COUNTED_KEYS) assert.ok(strings[`${key}_one`], `${code}.${key}_one is missing`);
    }
  });

  test(`${code}: no empty text, no markup characters, an ellipsis rather than three dots`, () => {
    for (const [key, text] of Object.entries(texts.get(code)!)) {
      assert.equal(typeof text, 'string', `${code}.${key}`);
      assert.ok(text.trim().length > 0, `${code}.${key} is empty`);
      assert.equal(text, text.trim(), `${code}.${key} has spaces at an end`);
      assert.doesNotMatch(text, /[<>]/, `${code}.${key}`);
      assert.doesNotMatch(text, /\.\.\./, `${code}.${key}`);
    }
  });

  test(`${code}: the same {placeholders} as English in every text`, () => {
    for (const [key, text] of Object.entries(texts.get(code)!)) {
      const variant = variantPattern.exec(key);
      const base = (variant ? variant[1] : key) as keyof WidgetStrings;
      const expected = placeholders(defaultStrings[base]!);
      const actual = placeholders(text);
      // "رسالتان" (two messages) or "הודעה אחת" (one message) carries its number in the word.
      if (variant && singleNumber(code, variant[2]!) && !actual.includes('count')) {
        assert.deepEqual(
          actual,
          expected.filter((name) => name !== 'count'),
          `${code}.${key}`,
        );
      } else {
        assert.deepEqual(actual, expected, `${code}.${key}: "${text}"`);
      }
    }
  });

  test(`${code}: declares its direction, right to left exactly for right-to-left scripts`, async () => {
    const locale = await loadLocale(code);
    assert.equal(locale.code, code);
    assert.equal(locale.dir, ['ar', 'fa', 'he'].includes(code) ? 'rtl' : 'ltr');
    assert.equal(locale.dir, directionOf(code));
  });

  if (code !== 'en') {
    test(`${code}: is translated, not English left in place`, () => {
      const strings = texts.get(code)!;
      const same = baseKeys.filter((key) => strings[key as keyof WidgetStrings] === defaultStrings[key as keyof WidgetStrings]);
      // A few words are the same in both (a URL placeholder, "Messages" and "Assistant" in French).
      assert.ok(same.length <= baseKeys.length * 0.1, `${code} keeps English for ${same.join(', ')}`);
    });
  }
}

test('French puts a no-break space before : ; ! ? and uses the typographic apostrophe', () => {
  for (const [key, text] of Object.entries(texts.get('fr')!)) {
    assert.doesNotMatch(text, / [:;!?]/, `fr.${key}`);
    assert.doesNotMatch(text, /(?<![\u00A0\u202F])[;!?]/, `fr.${key}`);
    assert.doesNotMatch(text, /'/, `fr.${key}`);
  }
});

test('German addresses the visitor with "Sie", never "du"', () => {
  for (const [key, text] of Object.entries(texts.get('de')!)) {
    assert.doesNotMatch(text, /\b(du|dein\w*|dich|dir)\b/i, `de.${key}`);
  }
});

test('Japanese sentences end in the polite form', () => {
  const ja = texts.get('ja')!;
  for (const key of ['historyEmpty', 'errorTooLong', 'quotaLeft', 'errorOffline'] as const) {
    assert.match(ja[key], /(です|ます|ません|ください)。$/, `ja.${key}: ${ja[key]}`);
  }
});
