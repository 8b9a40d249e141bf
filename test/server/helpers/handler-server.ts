// Runs a signing handler for real behind node:http on a loopback port, in front of a recording
// upstream, and passes on the raw HTTP client that talks to it (test/helpers/raw-request.ts, which
// sends request targets byte for byte).
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createSigningHandler, type SigningHandlerOptions } from '../../../src/server/index.js';
import { toNodeListener } from '../../../src/server/adapters/node.js';
import type { RecordingUpstream } from './recording-upstream.js';
import { handlerOptions, logInto, type CapturedLog } from './handler-options.js';
import { rawRequest } from '../../helpers/raw-request.js';
import type { LimitAnswer } from '../../helpers/minute-burst.js';

export type { CapturedLog } from './handler-options.js';
export { rawRequest, type RawRequest, type RawResponse } from '../../helpers/raw-request.js';

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

/** `POST /visitor` from the loopback address `localAddress`, answered as a limit's check reads it. */
export async function visitorAttempt(port: number, localAddress: string): Promise<LimitAnswer> {
  const response = await rawRequest(port, { method: 'POST', path: '/chatbot/visitor', headers: jsonHeaders(), body: '{}', localAddress });
  return { status: response.status, retryAfter: response.headers['retry-after'] };
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
