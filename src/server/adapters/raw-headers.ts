/**
 * Web `Headers` over a Node message's raw header list (`rawHeaders`: name, value, name, value…),
 * built only when something needs more than reading. Filling a Headers object validates and
 * copies every pair; the handler only ever reads a few headers of an upstream answer by name. So
 * `get` and `has` scan the list, and any other use builds the real Headers once and answers from
 * it from then on. `instanceof Headers` holds, and every method behaves as the real one's.
 */

/** HTTP whitespace, which Headers strips from the ends of every value. */
const EDGE_WHITESPACE = /^[\t\n\r ]+|[\t\n\r ]+$/g;
/** A header name Headers accepts (an HTTP token); any other name is left to Headers to refuse. */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export class RawHeaders {
  readonly #raw: readonly string[];
  #built: Headers | undefined;

  constructor(raw: readonly string[]) {
    this.#raw = raw;
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

  set(name: string, value: string): void {
    this.#headers().set(name, value);
  }

  append(name: string, value: string): void {
    this.#headers().append(name, value);
  }

  delete(name: string): void {
    this.#headers().delete(name);
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
