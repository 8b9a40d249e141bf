/**
 * The daily message quota (docs/api.md, "Quota"): accepted sends per chatbot per UTC
 * day; reads and refused sends do not count; the `X-RateLimit-*` headers on every send response
 * once the chatbot is known; reset at the next UTC midnight.
 */
import { HEADER_RATE_LIMIT, HEADER_RATE_REMAINING, HEADER_RATE_RESET } from '../shared/headers.js';
import { dailyLimitOf, type ChatbotConfig } from './config.js';
import type { EmulatorContext } from './context.js';
import { nextUtcMidnight, utcDay } from '../shared/dates.js';

export interface QuotaState {
  day: string;
  limit: number;
  used: number;
  /** Unix seconds of the next UTC midnight. */
  reset: number;
}

export function quotaState(ctx: EmulatorContext, chatbot: ChatbotConfig, nowMs: number): QuotaState {
  const day = utcDay(nowMs);
  return {
    day,
    limit: dailyLimitOf(chatbot),
    used: ctx.store.quotaUsed(chatbot.id, day),
    reset: Math.floor(nextUtcMidnight(nowMs) / 1000),
  };
}

/** The three `X-RateLimit-*` headers of a quota state. */
export function rateLimitHeaders(state: QuotaState): Record<string, string> {
  return {
    [HEADER_RATE_LIMIT]: String(state.limit),
    [HEADER_RATE_REMAINING]: String(Math.max(0, state.limit - state.used)),
    [HEADER_RATE_RESET]: String(state.reset),
  };
}
