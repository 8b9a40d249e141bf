/**
 * Web `Headers` over a raw header list (name, value, name, value…: a Node message's `rawHeaders`,
 * or the pairs of a plain record), built into real Headers only when something needs more than
 * reading and changing pairs. Filling a Headers object validates and copies every pair, and
 * iterating it sorts them: the handler only reads a few headers by name, and adds a few to its
 * answers. So `get` and `has` scan the list, `set`, `append` and `delete` change it (a copy of
 * it: the list handed in is never written to), and the Node adapter writes an answer's headers
 * from the list as it stands ({@link RawHeaders.pairsOf}). Anything else (iteration, a name or
 * value Headers would refuse or change) builds the real Headers once and answers from it from then
 * on. `instanceof Headers` holds, and every method behaves as the real one's.
 */

/** HTTP whitespace, which Headers strips from the ends of every value. */
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
/** A header name Headers accepts (an HTTP token); any other name is left to Headers to refuse. */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/**
 * A value Headers keeps as it is: printable ASCII and inner spaces or tabs, no whitespace at either
 * end. Any other value (to be trimmed, refused, or outside ASCII) is left to Headers.
 */
const PLAIN_VALUE = /^(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?$/;

export class RawHeaders {
  #raw: readonly string[];
  /** Whether `#raw` is this object's own copy, which it may change. */
  #owned = false;
  #built: Headers | undefined;

  constructor(raw: readonly string[]) {
    this.#raw = raw;
  }

  /** Headers over the pairs of `record`, whose names and values the caller has checked as Headers would. */
  static fromRecord(record: Readonly<Record<string, string>>): RawHeaders {
    const raw: string[] = [];
    for (const name in record) raw.push(name, record[name]!);
    const headers = new RawHeaders(raw);
    headers.#owned = true;
    return headers;
  }

  /**
   * The pairs of `value`, when it is a RawHeaders that has not needed its real Headers: what a
   * writer sends as they are (a name may come more than once, as Headers would join with ", ").
   */
  static pairsOf(value: unknown): readonly string[] | undefined {
    if (typeof value !== 'object' || value === null || !(#raw in value)) return undefined;
    return value.#built ? undefined : value.#raw;
  }

  /** The real Headers, built on first need. A pair Headers cannot hold is left out, as fetch leaves it out. */
  #headers(): Headers {
    if (this.#built) return this.#built;
    const headers = new Headers();
    for (let i = 0; i + 1 < this.#raw.length; i += 2) {
      try {
        headers.append(this.#raw[i]!, this.#raw[i + 1]!);
      } catch {
        // left out
      }
    }
    return (this.#built = headers);
  }

  /** Every value of `name`, joined with ", " as Headers joins them; undefined when Headers must answer. */
  #scan(name: string): string | null | undefined {
    if (this.#built || !HEADER_NAME.test(name)) return undefined;
    const wanted = name.toLowerCase();
    let value: string | null = null;
    for (let i = 0; i + 1 < this.#raw.length; i += 2) {
      const rawName = this.#raw[i]!;
      if (rawName.length !== wanted.length || rawName.toLowerCase() !== wanted) continue;
      const rawValue = this.#raw[i + 1]!.replace(EDGE_WHITESPACE, '');
      value = value === null ? rawValue : `${value}, ${rawValue}`;
    }
    return value;
  }

  get(name: string): string | null {
    const found = this.#scan(String(name));
    return found === undefined ? this.#headers().get(name) : found;
  }

  has(name: string): boolean {
    const found = this.#scan(String(name));
    return found === undefined ? this.#headers().has(name) : found !== null;
  }

  /** Whether a change with `name` (and `value`) can be made on the list: Headers would take it as it is. */
  #staysLight(name: string, value?: string): boolean {
    return !this.#built && HEADER_NAME.test(name) && (value === undefined || PLAIN_VALUE.test(value));
  }

  /** The list without `name`'s pairs, as this object's own copy; undefined when Headers must do the change. */
  #without(name: string, value?: string): string[] | undefined {
    if (!this.#staysLight(name, value)) return undefined;
    const wanted = name.toLowerCase();
    const kept: string[] = [];
    const raw = this.#raw;
    for (let i = 0; i + 1 < raw.length; i += 2) {
      if (raw[i]!.length !== wanted.length || raw[i]!.toLowerCase() !== wanted) kept.push(raw[i]!, raw[i + 1]!);
    }
    return kept;
  }

  set(name: string, value: string): void {
    // As Headers converts them: what goes on the list is text.
    name = String(name);
    value = String(value);
    const kept = this.#without(name, value);
    if (!kept) return this.#headers().set(name, value);
    kept.push(name, value);
    this.#raw = kept;
    this.#owned = true;
  }

  append(name: string, value: string): void {
    name = String(name);
    value = String(value);
    if (!this.#staysLight(name, value)) return this.#headers().append(name, value);
    if (!this.#owned) {
      this.#raw = [...this.#raw];
      this.#owned = true;
    }
    (this.#raw as string[]).push(name, value);
  }

  delete(name: string): void {
    name = String(name);
    const kept = this.#without(name);
    if (!kept) return this.#headers().delete(name);
    this.#raw = kept;
    this.#owned = true;
  }

  getSetCookie(): string[] {
    return this.#headers().getSetCookie();
  }

  forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown): void {
    this.#headers().forEach((value, name) => callback.call(thisArg, value, name, this as unknown as Headers));
  }

  entries(): IterableIterator<[string, string]> {
    return this.#headers().entries();
  }

  keys(): IterableIterator<string> {
    return this.#headers().keys();
  }

  values(): IterableIterator<string> {
    return this.#headers().values();
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}

Object.setPrototypeOf(RawHeaders.prototype, Headers.prototype);
