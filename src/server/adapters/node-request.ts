/**
 * A Node request as a Web `Request`: its URL from the socket and a Host header it can trust, its
 * headers as received, its body read from the socket only when the handler reads it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HandlerContext } from '../core/options.js';
import { LightRequest } from './light-request.js';
import { RawHeaders } from './raw-headers.js';

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
 * A Web `Request` for a Node request (a light one, see light-request.ts). `bodyOverride` stands in
 * for a body a parser already read; `answer`, when given, lets the request's signal see the
 * visitor leave.
 */
export function toWebRequest(
  req: IncomingMessage,
  bodyOverride?: string,
  rawPathOverride?: string,
  answer?: ServerResponse,
): { request: Request; context: HandlerContext } {
  const { url, rawPath } = requestUrl(req);
  const method = (req.method ?? 'GET').toUpperCase();
  const bodyText = method === 'GET' || method === 'HEAD' ? undefined : bodyOverride;
  // The pairs as received, read by name without filling a Headers object (raw-headers.ts).
  const raw: string[] = [];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!;
    // A body a parser already read goes as text: its declared length no longer applies.
    if (name.startsWith(':') || (bodyOverride !== undefined && name.toLowerCase() === 'content-length')) continue;
    raw.push(name, req.rawHeaders[i + 1]!);
  }
  const headers = new RawHeaders(raw) as unknown as Headers;
  if (bodyText !== undefined) {
    // The text's own length, and what a Request made with a text body says of it when the request did not.
    headers.set('content-length', String(Buffer.byteLength(bodyText)));
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain;charset=UTF-8');
  }
  const context: HandlerContext = {
    clientAddress: req.socket.remoteAddress,
    rawPath: rawPathOverride === undefined ? rawPath : originForm(rawPathOverride),
  };
  const request = new LightRequest({ message: req, url, method, headers, bodyText, answer }) as unknown as Request;
  return { request, context };
}
