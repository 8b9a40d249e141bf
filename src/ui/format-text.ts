/**
 * Fills the widget's texts (strings.ts) as they are shown: `{name}` placeholders, counted texts in
 * the plural form the language uses for the number, and numbers in the language's digits. Only
 * the panel fills texts, so this comes with its code, not in the first load.
 */
import type { CountedKey, WidgetStrings } from './strings.js';

/** Fills `{name}` placeholders; unknown names stay as they are. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : whole));
}

/** `Intl` objects by locale: building one costs far more than using it. */
const pluralRules = new Map<string, Intl.PluralRules>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function cached<T>(cache: Map<string, T>, locale: string, make: (locale: string) => T): T {
  let value = cache.get(locale);
  if (!value) {
    try {
      value = make(locale);
    } catch {
      // A malformed tag (from a host's own call) formats as English rather than throwing.
      value = make('en');
    }
    cache.set(locale, value);
  }
  return value;
}

/**
 * Fills a counted text: picks the variant `Intl.PluralRules` names for `count` in `locale`
 * (`sessionMessages_one` for 1 in English, `_few` for 3 in Arabic), else the plain key, and fills
 * `{count}` with the number formatted for `locale` plus any other `values` (`{time}`).
 */
export function plural(
  strings: WidgetStrings,
  key: CountedKey,
  count: number,
  locale: string,
  values: Record<string, string | number> = {},
): string {
  const category = cached(pluralRules, locale, (tag) => new Intl.PluralRules(tag)).select(count);
  const variant = category === 'other' ? undefined : strings[`${key}_${category}`];
  return format(variant || strings[key], { ...values, count: formatCount(count, locale) });
}

/** `count` in the digits of `locale` (Persian ۱۲, Arabic ١٢ where it uses them). */
export function formatCount(count: number, locale: string): string {
  return cached(numberFormats, locale, (tag) => new Intl.NumberFormat(tag)).format(count);
}
