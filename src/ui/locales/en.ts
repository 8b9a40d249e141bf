import type { TextDirection, WidgetStrings } from '../strings.js';
import { launcherStrings } from './en-launcher.js';

/** English: the default language, and the one a page gets when it asks for none the widget ships. */
export const dir: TextDirection = 'ltr';

/**
 * The tag English dates and numbers are formatted with, for a tag in English or none (`en_gb` →
 * `en-GB`, none → `en`); undefined for one that is no language tag. Here, with the texts, since a
 * page in English loads them without the language table (index.ts), which chooses the others.
 */
export function englishFormatTag(tag: string): string | undefined {
  if (!tag) return 'en';
  try {
    return Intl.getCanonicalLocales(tag.replaceAll('_', '-'))[0];
  } catch {
    return undefined;
  }
}

export const strings: WidgetStrings = {
  ...launcherStrings,
  heading: 'Chat with us',
  showHistory: 'Show conversation history',
  hideHistory: 'Hide conversation history',
  historyHeading: 'Your conversations',
  historyEmpty: 'No earlier conversations yet.',
  sessionMessages: '{count} messages',
  sessionMessages_one: '{count} message',
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
  brokenCharacter: 'The message has a broken character (half of an emoji or symbol). Remove it and send again.',
  you: 'You',
  bot: 'Assistant',
  agent: 'Agent',
  systemNotice: 'Notice',
  otherSender: 'Assistant ({type})',
  pending: 'Sending…',
  failed: 'Not sent',
  typing: 'The assistant is typing…',
  loadOlder: 'Load older messages',
  loading: 'Loading…',
  dismiss: 'Dismiss',
  errorOffline: 'You seem to be offline. Your message will be sent when you are back online.',
  errorTimeout: 'The chat service took too long to answer. Please try again.',
  errorRateLimited: 'Too many messages at once. Please try again in {seconds} seconds.',
  errorServer: 'The chat service is not available right now. Please try again in a moment.',
  errorRejected: 'The message could not be sent: {detail}',
  errorLoadRejected: 'The conversation could not be loaded: {detail}',
  errorTooLong: 'The message is too long.',
  errorIdentity: 'The chat could not start a conversation. Please reload the page.',
  errorSignedOut: 'Sign in to the site to chat.',
  attachment: 'Attachment',
  codeBlock: 'Code block, scrolls sideways',
  copyMessage: 'Copy message',
  copyCode: 'Copy code',
  copied: 'Copied',
  copyFailed: "Couldn't copy. Select the text to copy it.",
  feedbackUp: 'Helpful',
  feedbackDown: 'Not helpful',
  feedbackThanks: 'Thanks for your feedback',
  feedbackCommentLabel: 'What was wrong or missing? (optional)',
  feedbackCommentCount: '{count} of {max} characters',
  feedbackCommentTooLong: 'Too long: at most {max} characters.',
  feedbackCommentSkip: 'Skip',
  unreadBadge: '{count} unread replies',
  unreadBadge_one: '{count} unread reply',
  searchLabel: 'Search your conversations',
  searchPlaceholder: 'Search…',
  searchEmpty: 'No results',
  searchResults: '{count} results',
  searchResults_one: '{count} result',
  downloadTranscript: 'Download conversation',
  transcriptHeading: 'Conversation of {date}',
  quotaLeft: '{count} messages left today; more at {time}.',
  quotaLeft_one: '{count} message left today; more at {time}.',
  quotaExhausted: 'No messages left today. You can write again at {time}.',
  suggestionsLabel: 'Suggested questions',
};
