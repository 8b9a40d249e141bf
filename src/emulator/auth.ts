/**
 * Authentication of a request (docs/api.md, "Signing"): the key names a chatbot's key pair,
 * the timestamp is whole Unix seconds within 300 s of the server clock either way, and the
 * signature is the Base64 HMAC-SHA256 of `METHOD\nPATH\nBODY\nTIMESTAMP`, where PATH is the
 * request target exactly as received (path and raw query) and BODY the raw body bytes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { TIMESTAMP_WINDOW_SECONDS } from '../shared/headers.js';
import type { ChatbotConfig } from './config.js';
import { apiErrors } from './errors.js';

interface SignedRequest {
  method: string;
  /** The raw request target, e.g. `/api/Dev/bot_1/messages?page=2`. */
  target: string;
  body: Uint8Array;
  apiKey: string | undefined;
  signature: string | undefined;
  timestamp: string | undefined;
}

/**
 * The chatbot whose key signed the request; throws the 401 envelope otherwise. The texts say
 * which check failed (they reveal nothing a caller does not know), so a site owner can fix it.
 */
export function authenticate(request: SignedRequest, keys: ReadonlyMap<string, ChatbotConfig>, nowMs: number): ChatbotConfig {
  const { apiKey, signature, timestamp } = request;
  if (!apiKey || !signature || !timestamp) {
    throw apiErrors.unauthorized('Missing authentication headers: X-API-Key, X-Signature and X-Timestamp are required.');
  }
  const owner = keys.get(apiKey);
  if (!owner) throw apiErrors.unauthorized('Invalid API key or signature.');
  if (!/^\d{1,15}$/.test(timestamp)) throw apiErrors.unauthorized('X-Timestamp must be Unix time in whole seconds.');
  const skew = Math.abs(Math.floor(nowMs / 1000) - Number(timestamp));
  if (skew > TIMESTAMP_WINDOW_SECONDS) {
    throw apiErrors.unauthorized('X-Timestamp is outside the 5-minute window; check the clock of the calling server.');
  }
  const expected = createHmac('sha256', owner.apiSecret)
    .update(`${request.method.toUpperCase()}\n${request.target}\n`)
    .update(request.body)
    .update(`\n${timestamp}`)
    .digest();
  const given = Buffer.from(signature, 'utf8');
  const expectedText = Buffer.from(expected.toString('base64'), 'utf8');
  // Compare equal-length buffers in constant time; a length mismatch is simply a bad signature.
  const ok = given.length === expectedText.length && timingSafeEqual(given, expectedText);
  if (!ok) throw apiErrors.unauthorized('Invalid API key or signature.');
  return owner;
}
