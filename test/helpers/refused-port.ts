// An address where nothing listens, for "upstream unreachable" tests. The port is freed on
// 127.0.0.2 rather than 127.0.0.1: test files run in parallel and their servers bind 127.0.0.1,
// so a port freed there may be handed to another file's server at once, which would then answer.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export const REFUSED_HOST = '127.0.0.2';

export async function refusedOrigin(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, REFUSED_HOST, resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://${REFUSED_HOST}:${port}`;
}
