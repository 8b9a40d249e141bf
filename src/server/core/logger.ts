/**
 * The site owner's log. The handler only ever passes it fixed sentences plus statuses, paths
 * without query strings and error codes: never a secret, a token, a message text or an upstream body.
 */
export interface Logger {
  warn(message: string): void;
  error(message: string): void;
}

/** Default logger: `console.warn` / `console.error` with a recognisable prefix. */
export const consoleLogger: Logger = {
  warn: (message) => console.warn(`[chatbot-widget handler] ${message}`),
  error: (message) => console.error(`[chatbot-widget handler] ${message}`),
};
