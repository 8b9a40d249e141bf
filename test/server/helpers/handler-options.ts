// The signing handler's options for the recording upstream's test chatbot, so that a test spells
// out only the options it is about. Quiet by default: a test that reads the owner's log captures
// it with `logInto`.
import type { Logger, SigningHandlerOptions } from '../../../src/server/index.js';
import { API_KEY, API_SECRET, CHATBOT_ID, type RecordingUpstream } from './recording-upstream.js';

export interface CapturedLog {
  level: 'warn' | 'error';
  message: string;
}

/** A logger that drops what the handler tells the site owner. */
export const quietLogger: Logger = { warn() {}, error() {} };

/** A logger that keeps what the handler tells the site owner, in order, in `logs`. */
export function logInto(logs: CapturedLog[]): Logger {
  return { warn: (message) => logs.push({ level: 'warn', message }), error: (message) => logs.push({ level: 'error', message }) };
}

/** A logger that keeps only the lines, warnings and errors alike, in order, in `lines`. */
export function logLinesInto(lines: string[]): Logger {
  return { warn: (line) => lines.push(line), error: (line) => lines.push(line) };
}

/**
 * Send limits a test does not run into, for tests about something else (limits have their own
 * tests in test/server/budgets/). New visitors keep their default limit.
 */
export const ROOMY_SEND_LIMITS = { sendsPerMinute: 1000, sendsPerDay: 1000, sendsPerMinutePerAddress: 1000, dailyQuotaSharePerAddress: 1 };

/** Options of a handler in front of `upstream` for its test chatbot, with `overrides` on top. */
export function handlerOptions(
  upstream: Pick<RecordingUpstream, 'baseUrl'>,
  overrides: Partial<SigningHandlerOptions> = {},
): SigningHandlerOptions {
  return {
    apiBaseUrl: upstream.baseUrl,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    chatbotId: CHATBOT_ID,
    logger: quietLogger,
    ...overrides,
  };
}
