// A loopback port free at the moment of asking, for servers that cannot listen on port 0 and
// report theirs (redis-server, wrangler dev, the docs' snippets). Whoever binds it may race
// another test for it: callers that can retry on "address in use" do.
import { createServer, type AddressInfo } from 'node:net';

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
