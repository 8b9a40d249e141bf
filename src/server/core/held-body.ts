/**
 * Request bodies an adapter holds aside. A Web `Request` with a body costs a stream, and reading it
 * back a promise per chunk; the Node adapter can read the socket itself for less. So it may hand
 * the handler a `Request` without a body and hold the body here; the handler reads it from here
 * (request-body.ts), with the same cap and the same refusals. Host callbacks that receive the
 * request (`identify`, `clientAddress`, `authorizeAdmin`) get a `Request` with the body inside,
 * built when the handler knows one of them may run ({@link withBodyInside}).
 */

/** A body the adapter has not read yet. */
export interface HeldBody {
  /**
   * All of its bytes, read now. Rejects with StreamTooLarge (capped-stream.ts) past `maxBytes`,
   * having stopped reading, and with any other error when the body broke off.
   */
  read(maxBytes: number): Promise<Uint8Array>;
  /** Stops reading it: nobody will. */
  cancel(): void;
  /** The body as a Web stream, for a `Request` that carries it. */
  stream(): ReadableStream<Uint8Array>;
}

const heldBodies = new WeakMap<Request, HeldBody>();

/** A `Request` without a body whose body `body` holds. */
export function holdBody(request: Request, body: HeldBody): Request {
  heldBodies.set(request, body);
  return request;
}

/** The body held aside for `request`, if any. */
export function heldBodyOf(request: Request): HeldBody | undefined {
  return heldBodies.get(request);
}

/** `request` with its held body inside, for code outside the handler; any other request as it is. */
export function withBodyInside(request: Request): Request {
  const held = heldBodies.get(request);
  if (!held) return request;
  return new Request(request, { body: held.stream(), duplex: 'half' } as RequestInit);
}
