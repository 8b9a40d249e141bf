/**
 * A shorter way upstream than `fetch`, for a `fetch` option that offers one. A Web `Response`
 * costs a stream, a Headers object and an abort signal per call, which on a fast network is more
 * than the upstream call itself; the handler only needs the status, a few headers and the whole
 * body. So a `fetch` may carry a transport under {@link UPSTREAM_TRANSPORT} (the Node adapters'
 * keepAliveFetch does), and the handler then calls that instead, with the same outcomes: the same
 * statuses, the same body cap, the same timeout, the same log lines.
 */

/** Reads an answer's headers by name, case-insensitively; duplicates joined with ", " as Headers does. */
export interface HeaderReader {
  get(name: string): string | null;
}

/** One upstream request, signed and ready. */
export interface TransportRequest {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body: Uint8Array | undefined;
  /** The whole call, body included, ends with a {@link TransportFailure} `timeout` after this. */
  timeoutMs: number;
  /** A body longer than this ends the call with a {@link TransportFailure} `body`. */
  maxBodyBytes: number;
}

/** An answer whose headers have arrived; `body` resolves to all of its bytes (redirects are not followed). */
export interface TransportResponse {
  status: number;
  headers: HeaderReader;
  body: Promise<Uint8Array>;
}

/**
 * Why a call failed: no answer in time, no answer at all (`code` is the socket error's, such as
 * ECONNREFUSED), or an answer whose body broke off or went past the cap.
 */
export class TransportFailure extends Error {
  override name = 'TransportFailure';
  constructor(
    readonly kind: 'timeout' | 'unreachable' | 'body',
    readonly code?: string,
  ) {
    super(`upstream call failed: ${kind}`);
  }
}

export type UpstreamTransport = (request: TransportRequest) => Promise<TransportResponse>;

/** Where a `fetch` carries its transport. */
export const UPSTREAM_TRANSPORT = Symbol.for('chatbot-widget/upstream-transport');

/** The transport `fetchImpl` carries, if any. */
export function transportOf(fetchImpl: unknown): UpstreamTransport | undefined {
  const transport = (fetchImpl as { [UPSTREAM_TRANSPORT]?: unknown } | undefined)?.[UPSTREAM_TRANSPORT];
  return typeof transport === 'function' ? (transport as UpstreamTransport) : undefined;
}
