/**
 * Tells the site owner, once per origin, that the handler refused a browser on another origin.
 * Without it a widget embedded on an unlisted site just fails (the browser blocks the answer)
 * and nobody learns why. The origin is attacker-controlled text: it is capped and stripped to
 * printable ASCII before it reaches the log, and only a bounded number of origins is remembered,
 * so a flood of invented origins costs neither memory nor log lines beyond the bound.
 */
import type { Logger } from './logger.js';

/** How many distinct refused origins are logged (and remembered) per handler. */
export const MAX_LOGGED_ORIGINS = 100;
/** Longest origin text written to the log; real origins are far shorter. */
const MAX_ORIGIN_LENGTH = 120;

/**
 * The origin as it may appear in a log line: printable ASCII only (browsers send origins
 * Punycode-encoded, so nothing real is lost), no spaces, no control characters or newlines
 * (no forged log lines), at most {@link MAX_ORIGIN_LENGTH} characters.
 */
export function loggableOrigin(origin: string): string {
  const printable = origin.replace(/[^\x21-\x7e]/g, '?');
  return printable.length > MAX_ORIGIN_LENGTH ? `${printable.slice(0, MAX_ORIGIN_LENGTH)}…` : printable;
}

/** One warning per refused origin, for the first {@link MAX_LOGGED_ORIGINS} origins. */
export class RefusedOriginLog {
  readonly #seen = new Set<string>();
  #full = false;

  readonly #logger: Logger;
  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Notes that a request with `Origin: origin` was refused as cross-origin. */
  note(origin: string): void {
    const shown = loggableOrigin(origin);
    if (this.#full || this.#seen.has(shown)) return;
    if (this.#seen.size >= MAX_LOGGED_ORIGINS) {
      this.#full = true;
      this.#logger.warn(`refused cross-origin requests from more than ${MAX_LOGGED_ORIGINS} origins; further ones are not logged`);
      return;
    }
    this.#seen.add(shown);
    if (origin === 'null') {
      // Sandboxed iframes and file:// pages send "null": no list entry can allow them.
      this.#logger.warn(
        'refused a cross-origin request from an opaque origin ("null": a sandboxed iframe or a file:// page); serve the page from an http(s) origin and add that to allowedOrigins',
      );
      return;
    }
    this.#logger.warn(
      `refused a cross-origin request from ${shown}: add it to allowedOrigins (CHATBOT_ALLOWED_ORIGINS for npm start) if it should embed the widget`,
    );
  }
}
