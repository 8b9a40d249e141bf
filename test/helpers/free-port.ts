// A loopback port free at the moment of asking, for servers that cannot listen on port 0 and
// report theirs (redis-server, wrangler dev, the docs' snippets).
//
// Chosen below the system's ephemeral range: a port the system handed out for port 0 could be
// handed out again, between this probe and the server's bind, to any of the many binds to port 0
// that run meanwhile (workerd makes several as wrangler dev starts: with three Workers test files
// side by side, 2 runs in 10 lost a probed port that way). A port outside that range is only ever
// taken by name, so the race left is two probes picking the same one of thousands at random,
// which callers that can retry on "address in use" cover.
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';

/** The lowest port of the ephemeral range (Linux's file; 32768, its default and the BSDs', elsewhere). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 0) return low;
  } catch {
    // not Linux
  }
  return 32768;
}

const FIRST_CANDIDATE = 10_000;

/** Binds `port` on loopback and closes it again; resolves to the port it got, or undefined. */
function probe(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  if (low - FIRST_CANDIDATE >= 1_000) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const candidate = FIRST_CANDIDATE + Math.floor(Math.random() * (low - FIRST_CANDIDATE));
      const port = await probe(candidate);
      if (port !== undefined) return port;
    }
  }
  // A system whose ephemeral range leaves no room below it: any port it hands out.
  const port = await probe(0);
  if (port === undefined) throw new Error('no free loopback port');
  return port;
}
