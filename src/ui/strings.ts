/**
 * Texts whose wording depends on a number (`{count}`). The plain key holds the general form; a
 * language adds `key_one`, `key_two`, `key_few`, `key_many` or `key_zero` for the counts its
 * grammar treats apart (`Intl.PluralRules` decides which applies), and `plural` (format-text.ts)
 * picks it.
 */
export const COUNTED_KEYS = ['sessionMessages', 'unreadBadge', 'searchResults', 'quotaLeft'] as const;
export type CountedKey = (typeof COUNTED_KEYS)[number];
/** The plural categories besides `other` (which the plain key covers). */
export type PluralCategory = Exclude<Intl.LDMLPluralRule, 'other'>;
export const PLURAL_CATEGORIES: readonly PluralCategory[] = ['zero', 'one', 'two', 'few', 'many'];
/** `sessionMessages_one`, `unreadBadge_few`, …: optional, a language writes those it needs. */
export type PluralVariants = { [K in CountedKey as `${K}_${PluralCategory}`]?: string };

/** `ltr` or `rtl`: how a language's texts run, and so how the widget lays out. */
export type TextDirection = 'ltr' | 'rtl';

/**
 * Every text the widget shows or announces. Hosts override any of them through the `strings`
 * property (a partial object); the `lang` attribute picks a shipped language (docs/languages.md).
 * Placeholders in braces (`{seconds}`, `{count}`) are filled in by `format`, texts that count by
 * `plural` (both in format-text.ts, with the panel's code).
 */
export interface WidgetStrings extends PluralVariants {
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
  /** The message holds half of an emoji or other symbol (a lone surrogate): it is not sent. */
  brokenCharacter: string;
  /** Bubble labels read by screen readers before the text (and transcript headings). */
  you: string;
  bot: string;
  /** A person's reply (an agent of the site): also shown above its bubble. */
  agent: string;
  /** A notice in the conversation (someone joined, the conversation was closed): no one's reply. */
  systemNotice: string;
  /** A reply of a sender the widget does not know, drawn as the assistant's; `{type}` is the sender as upstream names it. */
  otherSender: string;
  pending: string;
  failed: string;
  retry: string;
  typing: string;
  loadOlder: string;
  loading: string;
  dismiss: string;
  /** No answer and the browser says it is offline: the message is sent again by itself once it is back online. */
  errorOffline: string;
  /** No answer although the browser is online: the service is down or refuses this site. */
  errorUnreachable: string;
  errorTimeout: string;
  /** `{seconds}` is the wait the server asked for. */
  errorRateLimited: string;
  errorServer: string;
  /** A message the server refused; `{detail}` is the server's words (or its status). */
  errorRejected: string;
  /** A read the server refused (the conversation, the history, the sign-in check); `{detail}` as above. */
  errorLoadRejected: string;
  errorTooLong: string;
  errorIdentity: string;
  /** The handler speaks for the site's own login and nobody is signed in: the visitor signs in first. */
  errorSignedOut: string;
  /** An attachment link under a message. */
  attachment: string;
  /** Accessible name of a code block that scrolls sideways (it takes keyboard focus then). */
  codeBlock: string;
  /** Copy button on a bot message. */
  copyMessage: string;
  /** Copy button on a code block. */
  copyCode: string;
  /** Announced once the text is on the clipboard. */
  copied: string;
  /** Announced when neither the Clipboard API nor the fallback could copy. */
  copyFailed: string;
  /** Thumbs-up and thumbs-down buttons on a bot message (toggle buttons: the state is `aria-pressed`). */
  feedbackUp: string;
  feedbackDown: string;
  /** Announced after a thumbs up or down. */
  feedbackThanks: string;
  /** Label of the comment box a thumbs down opens (the comment is optional). */
  feedbackCommentLabel: string;
  /** Under the comment box: `{count}` characters written of at most `{max}`. */
  feedbackCommentCount: string;
  /** The comment is longer than `{max}` characters: said, and Send waits. */
  feedbackCommentTooLong: string;
  /** Closes the comment box without a comment (the thumbs down stays). */
  feedbackCommentSkip: string;
  /** Accessible label of the launcher's badge: `{count}` bot replies arrived while the panel was closed. */
  unreadBadge: string;
  /** The history pane's search field: its label and placeholder. */
  searchLabel: string;
  searchPlaceholder: string;
  /** Shown and announced when the search finds nothing. */
  searchEmpty: string;
  /** Announced after a search: `{count}` messages found. */
  searchResults: string;
  /** The transcript download button. */
  downloadTranscript: string;
  /** First heading of a downloaded transcript; `{date}` is the conversation's start. */
  transcriptHeading: string;
  /** Few sends left today: `{count}` of them, more at `{time}`. */
  quotaLeft: string;
  /** No sends left today; the input says so until `{time}`. */
  quotaExhausted: string;
  /** Accessible name of the group of suggested prompts. */
  suggestionsLabel: string;
  /** Shown while the panel's code is still loading after the visitor opened it. */
  loadingChat: string;
}

/** The keys a host may override: the language's own, and the plural variants of counted texts. */
const PLURAL_KEYS = COUNTED_KEYS.flatMap((key) => PLURAL_CATEGORIES.map((category) => `${key}_${category}`));

/**
 * A language's texts with a host's `strings` laid over them. Only text values of known keys
 * count: `strings` may come from a CMS or JSON, and a value that is not text must neither render
 * as markup nor break the widget. A host that rewords a counted text without giving its plural
 * variants gets its wording for every count, not the language's variants of the old wording.
 */
export function withOverrides(texts: WidgetStrings, overrides: unknown): WidgetStrings {
  const merged: Record<string, string | undefined> = { ...texts };
  if (!overrides || typeof overrides !== 'object') return texts;
  const known = (key: string) => Object.hasOwn(texts, key) || PLURAL_KEYS.includes(key);
  const given: [name: string, value: string][] = [];
  for (const [name, value] of Object.entries(overrides)) if (known(name) && typeof value === 'string') given.push([name, value]);
  const names = new Set(given.map(([name]) => name));
  for (const key of COUNTED_KEYS) {
    if (!names.has(key) || PLURAL_CATEGORIES.some((category) => names.has(`${key}_${category}`))) continue;
    for (const category of PLURAL_CATEGORIES) delete merged[`${key}_${category}`];
  }
  for (const [name, value] of given) merged[name] = value;
  return merged as unknown as WidgetStrings;
}
