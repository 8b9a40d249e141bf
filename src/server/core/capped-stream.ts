/**
 * Reads a byte stream to its end, but never more than a cap: counted as bytes arrive, because a
 * declared length may be absent (chunked) or false. Both directions need it: visitors' request
 * bodies and upstream answers.
 */

/** The length a request or answer declares for its body: a `Content-Length` of digits only, else undefined. */
export function declaredLength(headers: Pick<Headers, 'get'>): number | undefined {
  const value = headers.get('Content-Length');
  return value !== null && /^[0-9]{1,15}$/.test(value) ? Number(value) : undefined;
}

/** Thrown when the stream goes past the cap; the stream is cancelled first. */
export class StreamTooLarge extends Error {
  override name = 'StreamTooLarge';
}

/** Thrown when the stream itself fails mid-way (the peer broke the connection off). */
class StreamBroken extends Error {
  override name = 'StreamBroken';
}

/** All bytes of `stream`, or StreamTooLarge past `maxBytes`, or StreamBroken if reading fails. */
export async function readCapped(stream: ReadableStream<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (cause) {
      throw new StreamBroken('the stream broke off', { cause });
    }
    if (chunk.done) break;
    total += chunk.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new StreamTooLarge(`more than ${maxBytes} bytes`);
    }
    chunks.push(chunk.value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
