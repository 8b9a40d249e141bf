/**
 * Request signing (docs/api.md) on Web Crypto alone, so the same code runs in
 * Node >= 20, Deno, Bun and workerd. The string to sign is `METHOD\nPATH\nBODY\nTIMESTAMP`.
 */

const encoder = new TextEncoder();

/** What a signature covers. `path` starts at `/api` and includes the query string exactly as sent. */
export interface SignInput {
  method: string;
  path: string;
  /** The exact body text sent; '' for requests without a body. */
  body: string;
  /** Unix seconds, the same value as the `X-Timestamp` header. */
  timestamp: number | string;
  secret: string;
}

/** The payload text that gets signed. */
export function stringToSign({ method, path, body, timestamp }: Omit<SignInput, 'secret'>): string {
  return `${method.toUpperCase()}\n${path}\n${body}\n${timestamp}`;
}

// Importing a key costs more than the HMAC itself; a signing handler signs every request
// with the same secret, so keep the imported key per secret.
const keyCache = new Map<string, Promise<CryptoKey>>();
const KEY_CACHE_LIMIT = 32;

/** An HMAC-SHA256 key for `secret` (UTF-8), imported once and reused. */
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keyCache.get(secret);
  if (!key) {
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.delete(keyCache.keys().next().value as string);
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
    keyCache.set(secret, key);
  }
  return key;
}

/**
 * Node's `createHmac` where the runtime offers it (Node, Deno and Bun through
 * `process.getBuiltinModule`): the same bytes as Web Crypto, several times cheaper per call,
 * which counts for a handler that signs every request. Elsewhere (workerd) Web Crypto does it.
 */
type NodeHmac = {
  createHmac(algorithm: 'sha256', key: string): { update(data: string): { digest(): Uint8Array; digest(encoding: 'base64'): string } };
};
const nodeCrypto = (globalThis as { process?: { getBuiltinModule?: (id: string) => unknown } }).process?.getBuiltinModule?.(
  'node:crypto',
) as NodeHmac | undefined;

/** Raw HMAC-SHA256 of `data` (UTF-8) under `secret`. */
export async function hmacSha256(secret: string, data: string): Promise<Uint8Array> {
  if (nodeCrypto) return new Uint8Array(nodeCrypto.createHmac('sha256', secret).update(data).digest());
  const key = await hmacKey(secret);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(data)));
}

/**
 * The `X-Signature` value: Base64 of HMAC-SHA256 over the payload text.
 *
 * @example
 * const signature = await sign({ method: 'GET', path: '/api/Dev/bot_1/users', body: '', timestamp: 1763800001, secret });
 */
export async function sign(input: SignInput): Promise<string> {
  if (nodeCrypto) return nodeCrypto.createHmac('sha256', input.secret).update(stringToSign(input)).digest('base64');
  return toBase64(await hmacSha256(input.secret, stringToSign(input)));
}

/** Whether `signature` is the right one for the request, compared in constant time. */
export async function verifySignature(input: SignInput & { signature: string }): Promise<boolean> {
  return timingSafeEqual(await sign(input), input.signature);
}

/** Current Unix time in whole seconds, as `X-Timestamp` wants it. */
export function unixSeconds(now: number = Date.now()): number {
  return Math.floor(now / 1000);
}

/**
 * Compares two strings in time that depends only on their lengths, never on where they differ,
 * so an attacker cannot learn a signature or token byte by byte from response times.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  // Walk the longer input in full either way; a length mismatch still fails at the end.
  const length = Math.max(x.length, y.length);
  let diff = x.length ^ y.length;
  for (let i = 0; i < length; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

/** Base64 of bytes (standard alphabet, padded) without Node's Buffer. */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary);
}

/** Base64url without padding, for tokens that travel in headers and URLs. */
export function toBase64Url(bytes: Uint8Array): string {
  return toBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Bytes of a base64url text; throws on characters outside the alphabet. */
export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new TypeError('not base64url');
  const padded = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  const binary = atob(padded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
