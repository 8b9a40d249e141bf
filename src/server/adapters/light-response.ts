/**
 * A Web `Response` that holds what it was made of (a text or byte body, a status, headers) and
 * builds the real Response behind it only when something needs more. On Node 20 a real Response
 * wraps its body in a Web byte stream and fills a Headers object pair by pair, and reading it back
 * costs a promise per chunk: for the handler's small JSON answers that is more work than the
 * answer itself. The Node adapter writes a light answer straight from its parts (one `writeHead`,
 * one `end`), and keepAliveFetch hands upstream's answers over as light ones, whose body stream
 * is made of the one chunk already read.
 *
 * The adapter makes `new Response(…)` build light ones (see {@link useLightResponses}), as Hono's
 * Node server does: the handler's core keeps to the Web API and never knows. Every member behaves
 * as the real one's (the first use of one that needs the real Response builds it, once, with the
 * headers as they are then), a body whose stream was handed out counts as used once read,
 * `instanceof Response` holds both ways, and the static methods (`Response.json`,
 * `Response.error`, `Response.redirect`) are the real ones.
 */
import { HEADER_NAME, RawHeaders } from './raw-headers.js';

const RealResponse = globalThis.Response;

/** Statuses whose Response may not carry a body (the real constructor throws otherwise). */
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
/** What a header value may not hold, as Headers checks it. */
const FORBIDDEN_IN_VALUE = /[\0\r\n]/;

/**
 * Headers given as a plain record whose every pair Headers would accept, with a Content-Type when
 * the body is text (the real Response adds `text/plain` to text without one).
 */
function isPlainRecord(headers: unknown, textBody: boolean): headers is Record<string, string> {
  if (typeof headers !== 'object' || headers === null || Object.getPrototypeOf(headers) !== Object.prototype) return false;
  let typed = false;
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    if (typeof value !== 'string' || !HEADER_NAME.test(name) || FORBIDDEN_IN_VALUE.test(value)) return false;
    typed ||= name.length === 12 && name.toLowerCase() === 'content-type';
  }
  return typed || !textBody;
}

/** What a light Response is made of, while nothing has needed the real one. */
interface Parts {
  body: string | Uint8Array | null;
  status: number;
  statusText: string;
  /** A plain record as the core gives them, or Headers (the raw ones of an upstream answer, or built on first read). */
  headers: Record<string, string> | Headers | undefined;
}

/** The parts of `body` and `init`, when a light Response can hold them as they are; undefined otherwise. */
function partsOf(body: unknown, init: ResponseInit | undefined): Parts | undefined {
  if (!(body === null || body === undefined || typeof body === 'string' || body instanceof Uint8Array)) return undefined;
  const status = init?.status ?? 200;
  if (!Number.isInteger(status) || status < 200 || status > 599) return undefined;
  if (body !== null && body !== undefined && NULL_BODY_STATUSES.has(status)) return undefined;
  if (init?.statusText !== undefined && (typeof init.statusText !== 'string' || FORBIDDEN_IN_VALUE.test(init.statusText))) return undefined;
  const headers = init?.headers;
  const textBody = typeof body === 'string';
  if (!((headers === undefined && !textBody) || headers instanceof RawHeaders || isPlainRecord(headers, textBody))) return undefined;
  return {
    body: body ?? null,
    status,
    statusText: init?.statusText ?? '',
    headers: headers as Record<string, string> | Headers | undefined,
  };
}

export class LightResponse {
  #parts: Parts | undefined;
  /** The body as a stream, once handed out while the parts still stand. */
  #stream: ReadableStream<Uint8Array> | undefined;
  /** Whether that stream was read from: the body is then used, as a Web body is. */
  #read = false;
  #real: Response | undefined;

  constructor(body?: BodyInit | null, init?: ResponseInit) {
    this.#parts = partsOf(body, init);
    // Anything else is the real Response's job from the start, its checks and errors included.
    if (!this.#parts) this.#real = new RealResponse(body, init);
  }

  /** Whether `value` is a light Response, and its parts, if nothing has needed the real one yet. */
  static partsOf(value: unknown): Readonly<Parts> | undefined {
    if (typeof value !== 'object' || value === null || !(#parts in value)) return undefined;
    return value.#stream || value.#real ? undefined : value.#parts;
  }

  static [Symbol.hasInstance](value: unknown): boolean {
    return Function.prototype[Symbol.hasInstance].call(RealResponse, value);
  }

  /** The real Response behind this one, built once. A body already read through its stream cannot be. */
  #response(): Response {
    if (this.#real) return this.#real;
    if (this.#read || this.#stream?.locked) throw new TypeError('Body is unusable: the body has already been read');
    const parts = this.#parts!;
    const body = this.#stream ?? (parts.body as string | Uint8Array<ArrayBuffer> | null);
    this.#real = new RealResponse(body, { status: parts.status, statusText: parts.statusText, headers: parts.headers as HeadersInit });
    this.#parts = undefined;
    return this.#real;
  }

  /** A body method of the real Response: a body that cannot be read rejects, as it does there. */
  async #consume<T>(read: (response: Response) => Promise<T>): Promise<T> {
    return read(this.#response());
  }

  get status(): number {
    return this.#parts?.status ?? this.#real!.status;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status < 300;
  }

  get statusText(): string {
    return this.#parts?.statusText ?? this.#real!.statusText;
  }

  get headers(): Headers {
    const parts = this.#parts;
    if (!parts) return this.#real!.headers;
    // Light too: the core adds its headers to answers, and the adapter writes them from the list.
    if (!(parts.headers instanceof Headers)) parts.headers = RawHeaders.fromRecord(parts.headers ?? {}) as unknown as Headers;
    return parts.headers;
  }

  get body(): ReadableStream<Uint8Array> | null {
    const parts = this.#parts;
    if (!parts) return this.#real!.body;
    if (parts.body === null) return null;
    const bytes = typeof parts.body === 'string' ? new TextEncoder().encode(parts.body) : parts.body;
    const noteRead = () => (this.#read = true);
    return (this.#stream ??= new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          noteRead();
          if (bytes.byteLength > 0) controller.enqueue(bytes);
          controller.close();
        },
      },
      // Nothing is pulled before the first read, so a read is what marks the body used.
      { highWaterMark: 0 },
    ));
  }

  get bodyUsed(): boolean {
    return this.#real ? this.#real.bodyUsed : this.#read;
  }

  get type(): ResponseType {
    return this.#real ? this.#real.type : 'default';
  }

  get url(): string {
    return this.#real ? this.#real.url : '';
  }

  get redirected(): boolean {
    return this.#real ? this.#real.redirected : false;
  }

  /**
   * The parts' bytes, when nothing has needed the real Response: what the core reads upstream's
   * answers with. A copy in a buffer of its own, as the real one gives (a Node Buffer's bytes may
   * sit in a shared pool), and the body is used from then on; no body is never used, as there.
   */
  #partsBytes(): Uint8Array | undefined {
    const parts = this.#parts;
    if (!parts || this.#stream || this.#read) return undefined;
    if (parts.body === null) return new Uint8Array(0);
    this.#read = true;
    return typeof parts.body === 'string' ? new TextEncoder().encode(parts.body) : new Uint8Array(parts.body);
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = this.#partsBytes();
    if (bytes) return Promise.resolve(bytes.buffer as ArrayBuffer);
    return this.#consume((response) => response.arrayBuffer());
  }

  blob(): Promise<Blob> {
    return this.#consume((response) => response.blob());
  }

  bytes(): Promise<Uint8Array> {
    return this.#consume((response) => (response as Response & { bytes(): Promise<Uint8Array> }).bytes());
  }

  formData(): Promise<FormData> {
    return this.#consume((response) => response.formData());
  }

  json(): Promise<unknown> {
    return this.#consume((response) => response.json());
  }

  text(): Promise<string> {
    return this.#consume((response) => response.text());
  }

  clone(): Response {
    return this.#response().clone();
  }
}

Object.setPrototypeOf(LightResponse, RealResponse);
Object.setPrototypeOf(LightResponse.prototype, RealResponse.prototype);

/**
 * Makes `new Response(…)` build light Responses in this process, from now on. The Node adapter
 * calls it before its first request; nothing changes for code that uses Responses, only what
 * building and writing them costs.
 */
export function useLightResponses(): void {
  if (globalThis.Response !== (LightResponse as unknown)) {
    Object.defineProperty(globalThis, 'Response', { value: LightResponse, writable: true, configurable: true });
  }
}
