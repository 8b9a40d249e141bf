import type { WidgetStrings } from '../strings.js';

/**
 * The English texts the launcher needs before the panel's code (and the rest of English, en.ts)
 * has loaded: the script a page includes carries only these.
 */
export const launcherStrings = {
  openChat: 'Open chat',
  closeChat: 'Close chat',
  retry: 'Retry',
  errorUnreachable: "The chat service can't be reached right now. Please try again later.",
  loadingChat: 'Loading the chat…',
} satisfies Partial<WidgetStrings>;
