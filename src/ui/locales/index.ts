/**
 * The widget's languages: which one a page asks for, and its texts, loaded on first use.
 *
 * Every language is its own module, imported only when a widget shows it, English too (the
 * launcher's few English texts are in the first load, en-launcher.ts). Each
 * entry below is a literal `import('./xx.js')`, so Vite and esbuild emit one chunk per language
 * and a page downloads only the one it shows. See docs/languages.md.
 */
import type { TextDirection, WidgetStrings } from '../strings.js';

/** What a language module exports. */
export interface LocaleModule {
  dir: TextDirection;
  strings: WidgetStrings;
}

/** A language ready to use. */
export interface LoadedLocale {
  code: LocaleCode;
  dir: TextDirection;
  strings: WidgetStrings;
}

const LOADERS = {
  en: () => import('./en.js'),
  ar: () => import('./ar.js'),
  de: () => import('./de.js'),
  es: () => import('./es.js'),
  fa: () => import('./fa.js'),
  fr: () => import('./fr.js'),
  he: () => import('./he.js'),
  id: () => import('./id.js'),
  it: () => import('./it.js'),
  ja: () => import('./ja.js'),
  ko: () => import('./ko.js'),
  nl: () => import('./nl.js'),
  pl: () => import('./pl.js'),
  pt: () => import('./pt.js'),
  ru: () => import('./ru.js'),
  sv: () => import('./sv.js'),
  tr: () => import('./tr.js'),
  uk: () => import('./uk.js'),
  zh: () => import('./zh.js'),
  'zh-Hant': () => import('./zh-Hant.js'),
} satisfies Record<string, () => Promise<LocaleModule>>;

/** A shipped language, by its BCP 47 tag: a language, or a language and script (`zh-Hant`). */
export type LocaleCode = keyof typeof LOADERS;

/** The language shown when nothing asked for one the widget ships. */
export const DEFAULT_LOCALE: LocaleCode = 'en';

/** Every shipped language. */
export const LOCALE_CODES = Object.keys(LOADERS) as readonly LocaleCode[];

function isShipped(code: string): code is LocaleCode {
  return Object.hasOwn(LOADERS, code);
}

/** Shipped codes by their lower-case form: tags compare without regard to case. */
const BY_LOWER_CASE = new Map(LOCALE_CODES.map((code) => [code.toLowerCase(), code]));

/** A BCP 47 tag in canonical form, or undefined when it is not one (never throws). */
function parse(tag: unknown): Intl.Locale | undefined {
  if (typeof tag !== 'string') return undefined;
  // `pt_BR` is how servers and operating systems often spell `pt-BR`; accept it.
  const trimmed = tag.trim().replaceAll('_', '-');
  if (!trimmed) return undefined;
  try {
    // Canonicalising maps case and legacy aliases (`iw` → `he`, `in` → `id`).
    return new Intl.Locale(Intl.getCanonicalLocales(trimmed)[0]!);
  } catch {
    return undefined;
  }
}

/** A tag and the shipped language it asks for. */
interface Match {
  code: LocaleCode;
  /** The tag in canonical form (`en-GB`): what dates and numbers are formatted with. */
  tag: string;
}

function match(tag: unknown): Match | undefined {
  const locale = parse(tag);
  // `und` (undetermined) names no language; engines report it as undefined or 'und'.
  if (!locale?.language || locale.language === 'und') return undefined;
  const normal = locale.toString();
  // The script a tag implies picks between scripts of one language: `zh-TW` is written in
  // traditional characters (`zh-Hant`), `zh-SG` in simplified ones (`zh`).
  const script = locale.script ?? locale.maximize().script;
  for (const candidate of [normal, `${locale.language}-${script}`, locale.language]) {
    const code = BY_LOWER_CASE.get(candidate.toLowerCase());
    if (code) return { code, tag: normal };
  }
  return undefined;
}

/**
 * The best shipped language for BCP 47 tags, in order of preference: the first tag whose exact
 * form, language and script, or language is shipped (`pt-BR` → `pt`, `zh-TW` → `zh-Hant`,
 * `zh-CN` → `zh`, `iw` → `he`); malformed or empty tags are skipped, never thrown on. English
 * when none matches.
 */
export function resolveLocale(tags: readonly (string | null | undefined)[]): LocaleCode {
  for (const tag of tags) {
    const found = match(tag);
    if (found) return found.code;
  }
  return DEFAULT_LOCALE;
}

/** Scripts written right to left (ISO 15924). */
const RIGHT_TO_LEFT_SCRIPTS = new Set(['Adlm', 'Arab', 'Hebr', 'Mand', 'Mend', 'Nkoo', 'Rohg', 'Samr', 'Syrc', 'Thaa', 'Yezi']);

/**
 * `rtl` when a language is written right to left (`ar`, `he`, `fa`, `ur-PK`, `az-Arab`), from the
 * script CLDR expects for it; `ltr` otherwise, and for anything that is not a language tag. Known
 * without loading the language, so the panel can be laid out before its texts arrive.
 */
export function directionOf(code: string): TextDirection {
  const script = parse(code)?.maximize().script;
  return script && RIGHT_TO_LEFT_SCRIPTS.has(script) ? 'rtl' : 'ltr';
}

const loaded = new Map<LocaleCode, Promise<LoadedLocale>>();

/**
 * A shipped language's texts and direction, importing its module on the first call and sharing
 * that import afterwards. Rejects when the module cannot be fetched (offline on first use); the
 * failure is not kept, so a later call tries again. An unknown code rejects with a RangeError.
 */
export function loadLocale(code: LocaleCode): Promise<LoadedLocale> {
  if (!isShipped(code)) {
    return Promise.reject(new RangeError(`"${String(code)}" is not a shipped language; use one of ${LOCALE_CODES.join(', ')}.`));
  }
  let pending = loaded.get(code);
  if (!pending) {
    pending = LOADERS[code]().then(({ dir, strings }) => ({ code, dir, strings }));
    pending.catch(() => loaded.delete(code));
    loaded.set(code, pending);
  }
  return pending;
}

/** The language a widget shows and the tag it formats dates and numbers with. */
export interface WidgetLocale {
  code: LocaleCode;
  /**
   * The page's or attribute's own tag when its language is the one shown (`en-GB` dates beside
   * English texts, `pt-PT` numbers beside Portuguese), else the code itself.
   */
  formatTag: string;
}

/** Attribute values already warned about: one warning each, however often the widget renders. */
const warned = new Set<string>();

/**
 * The language for a widget: its `lang` attribute when set, else the page's `<html lang>`, else
 * English. A `lang` the widget does not ship (or that is no language tag) shows English and logs
 * one console warning naming the value; an unshipped page language falls back silently, since
 * the page did not ask the widget for it.
 */
export function chooseLocale(lang: string | null | undefined, pageLang: string | null | undefined): WidgetLocale {
  const asked = typeof lang === 'string' ? lang.trim() : '';
  if (asked) {
    const found = match(asked);
    if (found) return { code: found.code, formatTag: found.tag };
    if (!warned.has(asked)) {
      warned.add(asked);
      console.warn(
        `<chatbot-widget>: lang="${asked}" is not one of the shipped languages (${LOCALE_CODES.join(', ')}); showing English. Set lang to one of them, or remove it to follow the page's language.`,
      );
    }
    return { code: DEFAULT_LOCALE, formatTag: DEFAULT_LOCALE };
  }
  const found = match(pageLang);
  return found ? { code: found.code, formatTag: found.tag } : { code: DEFAULT_LOCALE, formatTag: DEFAULT_LOCALE };
}
