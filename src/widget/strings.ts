/**
 * Every text the widget shows or announces. Hosts override any of them through the `strings`
 * property (a partial object) or pick a shipped locale with the `locale` attribute.
 * Placeholders in braces (`{seconds}`, `{count}`) are filled in by {@link format}.
 */
export interface WidgetStrings {
  /** Header title when the `heading` attribute is not set. */
  heading: string;
  /** Accessible name of the floating launcher button. */
  openChat: string;
  closeChat: string;
  showHistory: string;
  hideHistory: string;
  /** Heading of the history pane. */
  historyHeading: string;
  historyEmpty: string;
  /** A session in the history list: `{date}` and `{count}` are filled in. */
  sessionMessages: string;
  /** Button that returns from a past session to the live conversation. */
  backToChat: string;
  /** Accessible name of the message list (a live region). */
  messagesLabel: string;
  emptyConversation: string;
  placeholder: string;
  inputLabel: string;
  send: string;
  attach: string;
  attachmentLabel: string;
  attachmentPlaceholder: string;
  attachmentInvalid: string;
  /** Bubble labels read by screen readers before the text. */
  you: string;
  bot: string;
  pending: string;
  failed: string;
  retry: string;
  typing: string;
  loadOlder: string;
  loading: string;
  dismiss: string;
  /** No answer and the browser says it is offline. */
  errorOffline: string;
  /** No answer although the browser is online: the service is down or refuses this site. */
  errorUnreachable: string;
  errorTimeout: string;
  /** `{seconds}` is the wait the server asked for. */
  errorRateLimited: string;
  errorServer: string;
  errorRejected: string;
  errorTooLong: string;
  errorIdentity: string;
  /** An attachment link under a message. */
  /** The `quota-notice` part, when few sends are left today: `{count}` is filled in. */
  quotaLow: string;
  attachment: string;
  /** Accessible name of a code block that scrolls sideways (it takes keyboard focus then). */
  codeBlock: string;
}

/** The English texts, used for anything `strings` and `locale` leave out. */
export const defaultStrings: WidgetStrings = {
  heading: 'Chat with us',
  openChat: 'Open chat',
  closeChat: 'Close chat',
  showHistory: 'Show conversation history',
  hideHistory: 'Hide conversation history',
  historyHeading: 'Your conversations',
  historyEmpty: 'No earlier conversations yet.',
  sessionMessages: '{count} messages',
  backToChat: 'Back to the current conversation',
  messagesLabel: 'Messages',
  emptyConversation: 'Ask a question to start the conversation.',
  placeholder: 'Type a message…',
  inputLabel: 'Message',
  send: 'Send',
  attach: 'Attach a link to a file',
  attachmentLabel: 'File URL',
  attachmentPlaceholder: 'https://…',
  attachmentInvalid: 'The file must be an http or https link.',
  you: 'You',
  bot: 'Assistant',
  pending: 'Sending…',
  failed: 'Not sent',
  retry: 'Retry',
  typing: 'The assistant is typing…',
  loadOlder: 'Load older messages',
  loading: 'Loading…',
  dismiss: 'Dismiss',
  errorOffline: 'You seem to be offline. Your message is kept and can be sent again.',
  errorUnreachable: "The chat service can't be reached right now. Please try again later.",
  errorTimeout: 'The chat service took too long to answer. Please try again.',
  errorRateLimited: 'Too many messages at once. Please try again in {seconds} seconds.',
  errorServer: 'The chat service is not available right now. Please try again in a moment.',
  errorRejected: 'The message could not be sent: {detail}',
  errorTooLong: 'The message is too long.',
  errorIdentity: 'The chat could not start a conversation. Please reload the page.',
  quotaLow: 'You can send {count} more messages today.',
  attachment: 'Attachment',
  codeBlock: 'Code block, scrolls sideways',
};

/** Fills `{name}` placeholders; unknown names stay as they are. */
export function format(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole,
  );
}
