// An HTTP client that sends the request target byte for byte (fetch would normalise `..` and
// friends before they ever reached a server), from a chosen loopback address if need be, to a
// server on 127.0.0.1: the signing handler, an example, a snippet's process.
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: any;
}

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Send the body with Transfer-Encoding: chunked (no Content-Length), in pieces of this size. */
  chunkSize?: number;
  /** Send the headers at once and the body this much later (the handler has begun the request). */
  bodyDelayMs?: number;
  /** The loopback address to connect from (`127.0.0.2` and up are distinct client addresses). */
  localAddress?: string;
}

/** Sends one request with the target exactly as given. */
export function rawRequest(
  port: number,
  { method = 'GET', path, headers = {}, body, chunkSize, bodyDelayMs, localAddress }: RawRequest,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    // An explicit length: Node sends DELETE and friends without one, and the body would be read as a second request.
    const length: Record<string, string> = body !== undefined && !chunkSize ? { 'Content-Length': String(Buffer.byteLength(body)) } : {};
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, headers: { Connection: 'close', ...length, ...headers }, agent: false, localAddress },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
        res.on('error', reject);
      },
    );
    // The handler may answer and close before reading a large body: that is not a failure here.
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    if (body !== undefined && chunkSize) {
      const bytes = Buffer.from(body);
      for (let i = 0; i < bytes.length; i += chunkSize) req.write(bytes.subarray(i, i + chunkSize));
      req.end();
    } else if (bodyDelayMs) {
      req.flushHeaders();
      setTimeout(() => req.end(body), bodyDelayMs);
    } else {
      req.end(body);
    }
  });
}
