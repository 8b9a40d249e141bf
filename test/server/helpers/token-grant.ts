// What a test token says, for issueVisitorToken: a new identity of the test chatbot.
import type { TokenGrant } from '../../../src/server/identity/visitor-token.js';
import { CHATBOT_ID } from './recording-upstream.js';

export const grant = (userId: string, nowSeconds: number, ttlSeconds: number): TokenGrant => ({
  userId,
  audience: CHATBOT_ID,
  nowSeconds,
  firstIssuedAt: nowSeconds,
  ttlSeconds,
  maxAgeSeconds: 90 * 86_400,
});
