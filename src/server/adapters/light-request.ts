/**
 * A Web `Request` for a Node request, built without the real one. On Node 20 a real Request with
 * a body wraps that body in a Web stream, converts every argument through WebIDL and makes an
 * abort signal, and reading the body back costs a promise per chunk: for a chat message, more work
 * than the handler's own. The handler reads a request's method, URL and headers, and its body with
 * `arrayBuffer()` (or, for a body of undeclared length, through `body`), so those are what this
 * object answers itself: the body straight from the Node message, once, when first asked.
 *
 * The handler's core never knows: every member gives what a real Request would give, and
 * `instanceof Request` holds. What a site's own code may ask for beyond that (`clone()`,
 * `formData()`, `blob()`, `bytes()`, the body as a stream) is answered by a real Request, built
 * once on first need around the body as it stands then. The signal aborts when the visitor leaves
 * before the answer is written, as it does in the runtimes that hand the handler real Requests.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { messageBytes, messageStream } from './body-bytes.js';

const RealRequest = globalThis.Request;

/** What a light Request is made of. */
export interface LightRequestParts {
  /** The Node request whose body this is. */
  message: IncomingMessage;
  /** Absolute, already parsed once (URL's href). */
  url: string;
  /** Upper case, as Node's parser gives it. */
  method: string;
  headers: Headers;
  /** A body a parser already read (Express), in place of the message's own. */
  bodyText?: string;
  /** The answer to this request: when it closes unfinished, the visitor has left. */
  answer?: ServerResponse;
}

const usedBody = () => new TypeError('Body is unusable: Body has already been read');

export class LightRequest {
  readonly #parts: LightRequestParts;
  readonly #hasBody: boolean;
  /** Whether the body was read whole through one of the body methods. */
  #consumed = false;
  /** The stream `body` gives once the body was read whole. */
  #readStream: ReadableStream<Uint8Array> | undefined;
  #signal: AbortSignal | undefined;
  /** The real Request behind this one, once something needed it; it answers for the body from then on. */
  #real: Request | undefined;

  constructor(parts: LightRequestParts) {
    this.#parts = parts;
    this.#hasBody = parts.method !== 'GET' && parts.method !== 'HEAD';
  }

  get method(): string {
    return this.#parts.method;
  }

  get url(): string {
    return this.#parts.url;
  }

  get headers(): Headers {
    return this.#real ? this.#real.headers : this.#parts.headers;
  }

  get signal(): AbortSignal {
    if (this.#signal) return this.#signal;
    const controller = new AbortController();
    const answer = this.#parts.answer;
    if (answer) {
      const onClose = () => {
        if (!answer.writableFinished) controller.abort();
      };
      if (answer.destroyed) onClose();
      else answer.once('close', onClose);
    }
    return (this.#signal = controller.signal);
  }

  get body(): ReadableStream<Uint8Array> | null {
    if (!this.#hasBody) return null;
    if (this.#consumed && !this.#real) {
      // A body read whole has a stream that can no longer be read: locked, as a real one is.
      if (!this.#readStream) {
        this.#readStream = new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
        this.#readStream.getReader();
      }
      return this.#readStream;
    }
    return this.#realRequest().body;
  }

  get bodyUsed(): boolean {
    return this.#real ? this.#real.bodyUsed : this.#consumed;
  }

  /** The body's bytes, read once; an empty body for GET and HEAD, any number of times. */
  async #bytes(): Promise<Uint8Array<ArrayBuffer>> {
    if (this.#real) return new Uint8Array(await this.#real.arrayBuffer());
    if (!this.#hasBody) return new Uint8Array(0);
    if (this.#consumed) throw usedBody();
    this.#consumed = true;
    const { bodyText, message } = this.#parts;
    return bodyText === undefined ? messageBytes(message) : new TextEncoder().encode(bodyText);
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    return (await this.#bytes()).buffer;
  }

  async text(): Promise<string> {
    // UTF-8 with replacement characters and a leading BOM dropped, as Request's text() decodes.
    return new TextDecoder().decode(await this.#bytes());
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text()) as unknown;
  }

  /** The real Request, built once, around the body as it stands; a body already read whole cannot be. */
  #realRequest(): Request {
    if (this.#real) return this.#real;
    if (this.#consumed) throw usedBody();
    const { url, method, headers, bodyText, message } = this.#parts;
    const init: RequestInit & { duplex?: 'half' } = { method, headers, signal: this.signal };
    if (this.#hasBody) {
      init.body = bodyText ?? messageStream(message);
      init.duplex = 'half';
    }
    return (this.#real = new RealRequest(url, init));
  }

  async blob(): Promise<Blob> {
    return this.#realRequest().blob();
  }

  async bytes(): Promise<Uint8Array> {
    return (this.#realRequest() as Request & { bytes(): Promise<Uint8Array> }).bytes();
  }

  async formData(): Promise<FormData> {
    return this.#realRequest().formData();
  }

  clone(): Request {
    return this.#realRequest().clone();
  }

  // What a Request made on a server holds for the rest: the defaults of the Request constructor.
  get cache(): RequestCache {
    return 'default';
  }

  get credentials(): RequestCredentials {
    return 'same-origin';
  }

  get destination(): RequestDestination {
    return '';
  }

  get duplex(): 'half' {
    return 'half';
  }

  get integrity(): string {
    return '';
  }

  get isHistoryNavigation(): boolean {
    return false;
  }

  get isReloadNavigation(): boolean {
    return false;
  }

  get keepalive(): boolean {
    return false;
  }

  get mode(): RequestMode {
    return 'cors';
  }

  get redirect(): RequestRedirect {
    return 'follow';
  }

  get referrer(): string {
    return 'about:client';
  }

  get referrerPolicy(): ReferrerPolicy {
    return '';
  }
}

Object.setPrototypeOf(LightRequest.prototype, RealRequest.prototype);
