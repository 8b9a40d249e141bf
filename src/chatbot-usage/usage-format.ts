/**
 * How `<chatbot-usage>` writes numbers, months and times: through `Intl` in the page's language,
 * and always in UTC, because upstream counts UTC calendar months and a month label must name the
 * same month for every viewer, wherever they are.
 */
/** The view's words are English whatever the page's language: so are their plurals. */
const ENGLISH_PLURALS = new Intl.PluralRules('en');

export class UsageFormat {
  readonly #numbers: Intl.NumberFormat;
  readonly #shortMonth: Intl.DateTimeFormat;
  readonly #longMonth: Intl.DateTimeFormat;
  readonly #dateTime: Intl.DateTimeFormat;

  constructor(lang: string | undefined) {
    const locale = lang || undefined;
    const safe = <T>(make: (l: string | undefined) => T): T => {
      try {
        return make(locale);
      } catch {
        return make('en'); // an invalid lang tag: English rather than nothing
      }
    };
    this.#numbers = safe((l) => new Intl.NumberFormat(l));
    this.#shortMonth = safe((l) => new Intl.DateTimeFormat(l, { month: 'short', timeZone: 'UTC' }));
    this.#longMonth = safe((l) => new Intl.DateTimeFormat(l, { month: 'long', year: 'numeric', timeZone: 'UTC' }));
    this.#dateTime = safe((l) => new Intl.DateTimeFormat(l, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }));
  }

  number(value: number): string {
    return this.#numbers.format(value);
  }

  /**
   * A figure and its noun, "1 user" or "2 users": the figure in the page's language, the noun
   * by English plural rules, as every word of the view is English.
   */
  count(value: number, one: string, other: string): string {
    return `${this.number(value)} ${ENGLISH_PLURALS.select(value) === 'one' ? one : other}`;
  }

  /** `2025-03` as "Mar". */
  monthShort(month: string): string {
    return this.#shortMonth.format(new Date(`${month}-15T00:00:00Z`));
  }

  /** `2025-03` as "March 2025". */
  monthLong(month: string): string {
    return this.#longMonth.format(new Date(`${month}-15T00:00:00Z`));
  }

  /** An ISO instant as a date and time in UTC, said so ("12 Mar 2025, 14:05 UTC"). */
  time(iso: string): string {
    const ms = Date.parse(iso);
    return Number.isFinite(ms) ? `${this.#dateTime.format(ms)} UTC` : '';
  }
}
