// An independent HMAC implementation for tests, on node:crypto, sharing no code with
// src/shared/signature.ts: a test server that verifies with this catches a client that signs
// something other than what it sends.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function independentSignature(secret: string, method: string, path: string, body: string, timestamp: string | number): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(Buffer.from(`${method}\n${path}\n${body}\n${timestamp}`, 'utf8'))
    .digest('base64');
}

export function independentVerify(
  secret: string,
  method: string,
  path: string,
  body: string,
  timestamp: string,
  signature: string,
): boolean {
  const expected = Buffer.from(independentSignature(secret, method, path, body, timestamp));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
