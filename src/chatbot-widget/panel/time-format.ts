import { whenIdle } from '../../ui/when-idle.js';

/**
 * Times and dates of bubbles and sessions, in the widget's language. An `Intl.DateTimeFormat`
 * costs milliseconds to build and microseconds to use, so each shape is built once per language.
 */
export class TimeFormat {
  readonly #formatters = new Map<string, Intl.DateTimeFormat>();

  /** @param tag the BCP 47 tag dates are written in (read on each call: the language may change). */
  readonly #tag: () => string;
  constructor(tag: () => string) {
    this.#tag = tag;
  }

  /** The time; with the date too when asked or when it is not today. '' for an invalid date. */
  format(iso: string, withDate = false) {
    const date = new Date(iso);
    if (Number.isNaN(date.getTime())) return '';
    const today = new Date();
    const full =
      withDate || date.getDate() !== today.getDate() || date.getMonth() !== today.getMonth() || date.getFullYear() !== today.getFullYear();
    const tag = this.#tag();
    const key = `${tag}|${full}`;
    let formatter = this.#formatters.get(key);
    if (!formatter) {
      try {
        formatter = new Intl.DateTimeFormat(tag, { ...(full ? { dateStyle: 'medium' } : {}), timeStyle: 'short' });
      } catch {
        formatter = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });
      }
      this.#formatters.set(key, formatter);
    }
    return formatter.format(date);
  }

  /**
   * Builds the two shapes bubbles need ahead of time: now when the panel is shown (while
   * IndexedDB reads the cache away from this thread, so the first paint does not pay for them),
   * else when the page is idle.
   */
  prepare(now: boolean) {
    const prepare = () => {
      const iso = new Date().toISOString();
      this.format(iso);
      this.format(iso, true);
    };
    if (now) prepare();
    else whenIdle(prepare, 2_000);
  }
}
