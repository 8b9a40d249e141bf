/**
 * A Node request as a Web `Request`: its URL from the socket and a Host header it can trust, its
 * headers as received, its body read from the socket only when the handler reads it.
 */
import type { IncomingMessage } from 'node:http';
import type { HandlerContext } from '../core/options.js';

const SAFE_HOST = /^[A-Za-z0-9.-]{1,253}(:[0-9]{1,5})?$|^\[[0-9A-Fa-f:.]{2,60}\](:[0-9]{1,5})?$/;

/** Scheme and authority of an absolute-form target (`http://host:port`), matched as text. */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The origin-form (`/path?query`) of a request target. Absolute-form targets (`GET http://host/path`,
 * what proxies send) lose scheme and authority as text: parsing them with URL would resolve `..`,
 * `%2e%2e` and `\` before the route table saw them, and the route table refuses those only while
 * they are still in the raw target.
 */
export function originForm(target: string): string {
  if (target.startsWith('/')) return target;
  const authority = ABSOLUTE_FORM.exec(target);
  const rest = authority ? target.slice(authority[0].length) : '/';
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * An absolute URL for the request: a fixed scheme (https when the socket is TLS), the Host
 * header only when it is a plain host[:port] (else `localhost`), and the target as received.
 */
function requestUrl(req: IncomingMessage): { url: string; rawPath: string } {
  const secure = !!(req.socket as { encrypted?: boolean }).encrypted;
  const hostHeader = req.headers.host;
  const host = hostHeader && SAFE_HOST.test(hostHeader) ? hostHeader : 'localhost';
  const rawPath = originForm(req.url ?? '/');
  const scheme = secure ? 'https' : 'http';
  // Concatenated, not resolved against a base: a target like `//evil.example/x` stays a path.
  // A Host that passes the pattern but not URL (a port over 65535) falls back to localhost
  // rather than losing the path.
  for (const name of [host, 'localhost']) {
    try {
      return { url: new URL(`${scheme}://${name}${rawPath}`).href, rawPath };
    } catch {
      // try the next host
    }
  }
  return { url: `${scheme}://localhost/`, rawPath: '/' };
}

/**
 * The request body as a Web stream that reads the socket only when someone reads the stream: a
 * request the handler refuses before its body (401, 403, 415, a declared length over the cap)
 * leaves the body unread. Cancelling it stops reading without destroying the socket, so the
 * answer can still be written.
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let listening = false;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (listening) return void req.resume();
        listening = true;
        // Something before the handler (an Express middleware) already read the body without
        // leaving it in req.body: 'end' has fired and will not fire again, so waiting for it
        // would hang the request forever. The handler gets an empty body instead.
        if (req.readableEnded) return controller.close();
        req.on('data', (chunk: Buffer) => {
          if (cancelled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => {
          if (!cancelled) controller.close();
        });
        req.once('error', (error) => {
          if (!cancelled) controller.error(error);
        });
      },
      cancel() {
        cancelled = true;
        req.pause();
      },
    },
    // Nothing is read ahead: the first read of the stream is the first read of the socket.
    { highWaterMark: 0 },
  );
}

/** A Web `Request` for a Node request; `bodyOverride` stands in for a stream a body parser already read. */
export function toWebRequest(
  req: IncomingMessage,
  bodyOverride?: string,
  rawPathOverride?: string,
): { request: Request; context: HandlerContext } {
  const { url, rawPath } = requestUrl(req);
  const method = (req.method ?? 'GET').toUpperCase();
  const hasBody = method !== 'GET' && method !== 'HEAD';
  // A body a parser already read goes as text: its declared length no longer applies.
  const pairs: [string, string][] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    if (name.startsWith(':') || (bodyOverride !== undefined && name.toLowerCase() === 'content-length')) continue;
    pairs.push([name, req.rawHeaders[i + 1]!]);
  }
  const init: RequestInit & { duplex?: 'half' } = { method, headers: pairs };
  if (hasBody) {
    init.body = bodyOverride ?? bodyStream(req);
    init.duplex = 'half';
  }
  const context: HandlerContext = {
    clientAddress: req.socket.remoteAddress,
    rawPath: rawPathOverride === undefined ? rawPath : originForm(rawPathOverride),
  };
  let request: Request;
  try {
    request = new Request(url, init);
  } catch {
    // Some header value Web Headers cannot hold: those are left out rather than failing the request.
    const headers = new Headers();
    for (const [name, value] of pairs) {
      try {
        headers.append(name, value);
      } catch {
        // left out
      }
    }
    request = new Request(url, { ...init, headers });
  }
  return { request, context };
}
