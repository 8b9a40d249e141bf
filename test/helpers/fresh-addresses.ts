// Client addresses no request has come from yet, so that what the handler counts per client
// address (new visitors, sends: src/server/budgets/) starts at zero for a test that uses one.
import { randomInt } from 'node:crypto';

let loopbacks = 0;

/**
 * A loopback address this process has not connected from, to pass as a request's `localAddress`:
 * Linux answers on all of 127.0.0.0/8, and the handler under Node, Bun, Deno and Express sees
 * the address a connection came from. Taken from 127.1.0.0/16, away from the 127.0.0.x some
 * tests name themselves.
 */
export function freshLoopbackAddress(): string {
  loopbacks++;
  return `127.1.${loopbacks >> 8}.${loopbacks & 255}`;
}

/**
 * A documentation address (2001:db8::/32, RFC 3849) no earlier request is likely to have come
 * from, for a platform header that carries the client address (CF-Connecting-IP, X-Real-IP): a
 * random /64 of it, the handler counting an IPv6 client per /64. Random rather than counted, as
 * a server the test did not start (a `wrangler dev` of an earlier run) may remember the last run.
 */
export function freshDocumentationAddress(): string {
  const group = () => randomInt(0x10000).toString(16);
  return `2001:db8:${group()}:${group()}::1`;
}
