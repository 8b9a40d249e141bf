/**
 * The bucket a client address counts in for the per-address limit of new visitors.
 *
 * Why not the address as it comes: an IPv6 host is routinely given a whole /64 and can send from
 * any of its 2^64 addresses, so counting IPv6 addresses one by one would let a single client open
 * as many visitor identities as it likes (and with them as many sends). IPv6 addresses therefore
 * count per /64 prefix. An IPv4-mapped address (`::ffff:192.0.2.1`, how a dual-stack socket
 * reports an IPv4 peer) counts as the IPv4 address it is, never in one /64 with every IPv4 peer.
 * Anything else (IPv4, or whatever the site owner's `clientAddress` returns) counts as given.
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

/**
 * The per-address bucket of `address`: `2001:db8:1:2::/64` for any IPv6 address of that /64,
 * `192.0.2.1` for `192.0.2.1` and `::ffff:192.0.2.1`, other text unchanged.
 */
export function addressBucket(address: string): string {
  let text = address.trim().toLowerCase();
  if (text.startsWith('[') && text.includes(']')) text = text.slice(1, text.indexOf(']'));
  const zone = text.indexOf('%');
  if (zone !== -1) text = text.slice(0, zone);
  const groups = text.includes(':') ? ipv6Groups(text) : undefined;
  if (!groups) return address;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high, low] = [groups[6]!, groups[7]!];
    return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}
