// Runs a signing handler for real behind node:http on a loopback port, in front of a recording
// upstream, plus a raw HTTP client that sends request targets byte for byte (fetch would
// normalise `..` and friends before they ever reached the handler).
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createSigningHandler, type SigningHandlerOptions } from '../../../src/server/index.js';
import { toNodeListener } from '../../../src/server/adapters/node.js';
import type { RecordingUpstream } from './recording-upstream.js';
import { handlerOptions, logInto, type CapturedLog } from './handler-options.js';

export type { CapturedLog } from './handler-options.js';

export interface RunningHandler {
  port: number;
  origin: string;
  logs: CapturedLog[];
  close(): Promise<void>;
}

export async function startHandler(
  upstream: Pick<RecordingUpstream, 'baseUrl'>,
  options: Partial<SigningHandlerOptions> = {},
): Promise<RunningHandler> {
  const logs: CapturedLog[] = [];
  const handler = createSigningHandler(handlerOptions(upstream, { logger: logInto(logs), ...options }));
  return listen(createServer(toNodeListener(handler)), logs);
}

export async function listen(server: Server, logs: CapturedLog[] = []): Promise<RunningHandler> {
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    logs,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

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

/** A fresh visitor token from the handler. */
export async function newVisitor(port: number, headers: Record<string, string> = {}): Promise<{ token: string; userId: string }> {
  const response = await rawRequest(port, {
    method: 'POST',
    path: '/chatbot/visitor',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: '{}',
  });
  if (response.status !== 200) throw new Error(`POST /visitor answered ${response.status}: ${response.text}`);
  return response.json.data;
}

export const jsonHeaders = (token?: string): Record<string, string> => ({
  'Content-Type': 'application/json',
  ...(token ? { Authorization: `Bearer ${token}` } : {}),
});
