/**
 * The language of `<chatbot-widget>`'s texts, as a Lit reactive controller. The first load holds
 * only the launcher's English; the chosen language (`lang`, then the page's `<html lang>`, then
 * English) loads with the panel's code, or at once on a page in another language, so that its
 * launcher speaks it. A new `lang` loads its language; the one shown stays until it arrives.
 * English, the default, loads without the language table, which only another language needs.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { launcherStrings } from '../ui/locales/en-launcher.js';
import type { LoadedLocale, LocaleCode, WidgetLocale } from '../ui/locales/index.js';
import type { WidgetStrings } from '../ui/strings.js';

/** A language as the widget holds it: whole once loaded, the launcher's English texts before. */
export type ShownLocale = Omit<LoadedLocale, 'strings'> & { strings: Partial<WidgetStrings> };

/** What the widget shows until a language has loaded: the launcher's English texts, from the first load. */
const LAUNCHER_ENGLISH: ShownLocale = { code: 'en', dir: 'ltr', strings: launcherStrings };

/**
 * A tag in English, of any region (`en`, `en-GB`, `en_US`), or none at all: English is shown. Not
 * `\b` after `en`: `_` is a word character, and `en_US` is how servers often spell `en-US`.
 */
const ENGLISH_OR_NONE = /^(en(?![a-z\d])|$)/i;

const englishModule = () => import('../ui/locales/en.js');

/** The whole of English, without the language table. */
const loadEnglish = () => englishModule().then(({ dir, strings }): LoadedLocale => ({ code: 'en', dir, strings }));

/** The element whose language this is. */
export interface LanguageHost extends ReactiveControllerHost, HTMLElement {
  /** The `lang` attribute: the language asked for, if any. */
  readonly lang: string;
  /** Open, or inline (always shown). */
  readonly isShown: boolean;
}

export class WidgetLanguage implements ReactiveController {
  /** The language shown: the launcher's English until the chosen language has loaded. */
  shown: ShownLocale = LAUNCHER_ENGLISH;
  /** The tag dates and numbers are formatted with (`en-GB` beside English texts). */
  formatTag = 'en';
  /** The `lang` the language was chosen for; undefined before the element's first update. */
  #lang: string | undefined;
  /** Whether this controller set the element's `dir` (for a right-to-left language the page did not lay out). */
  #dirFromLanguage = false;

  readonly #host: LanguageHost;
  constructor(host: LanguageHost) {
    this.#host = host;

    host.addController(this);
  }

  hostUpdate() {
    const { lang } = this.#host;
    if (this.#lang === undefined) {
      this.#lang = lang;
      // A page in another language has its launcher spoken in it at once, not when the page is
      // idle (shown, the panel's code is on its way with the language). Neither it nor English
      // could be fetched: the language shown stays; the next change, or the panel's loading, tries again.
      if (!this.#host.isShown && !ENGLISH_OR_NONE.test(lang || document.documentElement.lang)) this.whole().catch(() => undefined);
    } else if (lang !== this.#lang) {
      this.#lang = lang;
      this.#choose().catch(() => undefined);
    }
  }

  /**
   * The texts the panel needs, loaded with its code: the chosen language, or English if its chunk
   * cannot be fetched (a page in another language never fetches the rest of English). Rejects
   * when neither can be fetched (nor the language table), as the panel's code would.
   */
  async whole(): Promise<void> {
    // Again if the page asked for another language while this one was on its way.
    while (this.shown === LAUNCHER_ENGLISH) await this.#show((await this.#chosen()).code);
  }

  /**
   * The language `lang` and the page ask for. A tag in English (or none) is told by the English
   * texts' own chunk; any other by the language table (locales/index.ts: which shipped language a
   * tag asks for, where each one's texts load from), a chunk of its own. Both come with the
   * panel's code, so the launcher speaks English until then; this rejects when the one needed
   * cannot be fetched. Dates and numbers are formatted with the chosen tag from then on.
   */
  async #chosen(): Promise<WidgetLocale> {
    const tag = this.#host.lang.trim() || document.documentElement.lang.trim();
    const englishTag = ENGLISH_OR_NONE.test(tag) ? (await englishModule()).englishFormatTag(tag) : undefined;
    // Imported by name, so the chunk holds only what the element uses of the table.
    const chosen: WidgetLocale = englishTag
      ? { code: 'en', formatTag: englishTag }
      : (await import('../ui/locales/index.js')).chooseLocale(this.#host.lang, document.documentElement.lang);
    this.formatTag = chosen.formatTag;
    return chosen;
  }

  /** Picks the language again for a new `lang`, and loads it. */
  async #choose() {
    const { code } = await this.#chosen();
    if (code !== this.shown.code) await this.#show(code);
  }

  /**
   * Loads a language and shows it, unless another was asked for while it was on its way. English
   * when its chunk cannot be fetched (offline on first use); rejects when neither can be.
   */
  async #show(code: LocaleCode): Promise<void> {
    const loaded = code === 'en' ? await loadEnglish() : await (await import('../ui/locales/index.js')).loadLocale(code).catch(loadEnglish);
    if ((await this.#chosen()).code !== code) return;
    this.shown = loaded;
    this.#applyDirection();
    this.#host.requestUpdate();
  }

  /** Lays the widget out right to left for such a language, unless the page set `dir` itself. */
  #applyDirection() {
    const host = this.#host;
    const rtl = this.shown.dir === 'rtl';
    if (rtl && !host.hasAttribute('dir')) {
      host.setAttribute('dir', 'rtl');
      this.#dirFromLanguage = true;
    } else if (!rtl && this.#dirFromLanguage) {
      host.removeAttribute('dir');
      this.#dirFromLanguage = false;
    }
  }
}
