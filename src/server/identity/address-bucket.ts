/**
 * The bucket a client address counts in for the per-address limits.
 *
 * One client, one bucket, however its address is written: a port is not part of it
 * (`203.0.113.7:50123` and `[2001:db8::1]:443`, as some proxies write `X-Forwarded-For`, count as
 * `203.0.113.7` and `2001:db8::1`; counting per port would give a client a new bucket for every
 * connection), nor is letter case or a zone (`%eth0`). An IPv6 host is routinely given a whole
 * /64 and can send from any of its 2^64 addresses, so IPv6 addresses count per /64 prefix. An
 * IPv4-mapped address (`::ffff:192.0.2.1`, how a dual-stack socket reports an IPv4 peer) counts as
 * the IPv4 address it is, never in one /64 with every IPv4 peer. Text that is neither an IPv4 nor
 * an IPv6 address has no bucket of its own (identity.ts puts it in one shared bucket): a bucket
 * per distinct text would let anyone who controls the text mint buckets.
 */

/** The eight 16-bit groups of an IPv6 address, or undefined when `text` is not one. */
function ipv6Groups(text: string): number[] | undefined {
  let body = text;
  // A trailing dotted quad (`::ffff:192.0.2.1`, `64:ff9b::192.0.2.1`) is the last two groups.
  const quad = /:(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(body);
  if (quad) {
    const bytes = quad.slice(1).map(Number) as [number, number, number, number];
    if (bytes.some((byte) => byte > 255)) return undefined;
    body = `${body.slice(0, quad.index)}:${((bytes[0] << 8) | bytes[1]).toString(16)}:${((bytes[2] << 8) | bytes[3]).toString(16)}`;
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string) => (part === '' ? [] : part.split(':'));
  const head = groupsOf(halves[0]!);
  const tail = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const elided = 8 - head.length - tail.length;
  if (halves.length === 1 ? elided !== 0 : elided < 1) return undefined;
  const groups = [...head, ...new Array<string>(halves.length === 2 ? elided : 0).fill('0'), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return groups.map((group) => parseInt(group, 16));
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?::(\d{1,5}))?$/;
const BRACKETED_IPV6 = /^\[([^\]]*)\](?::(\d{1,5}))?$/;

const isPort = (digits: string | undefined) => digits === undefined || Number(digits) <= 65_535;

/** `192.0.2.1` for `192.0.2.1` and `192.0.2.1:50123`; undefined when `text` is no IPv4 address. */
function ipv4Of(text: string): string | undefined {
  const match = IPV4.exec(text);
  if (!match || !isPort(match[5])) return undefined;
  const bytes = match.slice(1, 5).map(Number);
  return bytes.every((byte) => byte <= 255) ? bytes.join('.') : undefined;
}

/**
 * The per-address bucket of `address`: `2001:db8:1:2::/64` for any IPv6 address of that /64,
 * bracketed or not, with or without a port; `192.0.2.1` for `192.0.2.1`, `192.0.2.1:8080` and
 * `::ffff:192.0.2.1`; undefined for text that is no IP address.
 */
export function addressBucket(address: string): string | undefined {
  const text = address.trim().toLowerCase();
  const ipv4 = ipv4Of(text);
  if (ipv4) return ipv4;
  const bracketed = BRACKETED_IPV6.exec(text);
  if (bracketed && !isPort(bracketed[2])) return undefined;
  let ipv6 = bracketed ? bracketed[1]! : text;
  const zone = ipv6.indexOf('%');
  if (zone !== -1) ipv6 = ipv6.slice(0, zone);
  const groups = ipv6.includes(':') ? ipv6Groups(ipv6) : undefined;
  if (!groups) return undefined;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high, low] = [groups[6]!, groups[7]!];
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
