/**
 * Who wrote a stored message, as the widget draws, saves, searches and counts it. Upstream
 * documents the senders `User` and `Bot`; its counts also name agent and system senders, and the
 * full set is not documented. So: the visitor's own words; a person's reply (an agent of the site,
 * for instance after a hand-over); a notice in the flow (system: someone joined, the conversation
 * was closed), which is no reply; and the assistant's, which is also what a sender the widget does
 * not know is drawn as, its type named for screen readers.
 */
import type { SenderType } from '../shared/types.js';
import { format } from '../ui/format-text.js';
import type { WidgetStrings } from '../ui/strings.js';

export type SenderKind = 'user' | 'bot' | 'agent' | 'system';

/** The kind of a `senderType` (any case: the undocumented ones are not known to be capitalised). */
export function senderKind(senderType: SenderType | undefined): SenderKind {
  const type = typeof senderType === 'string' ? senderType.toLowerCase() : '';
  return type === 'user' || type === 'agent' || type === 'system' ? type : 'bot';
}

/** A sender the widget does not know (drawn as the assistant's): its type, to be named; else undefined. */
export function unknownSender(senderType: SenderType | undefined): string | undefined {
  return typeof senderType === 'string' && senderKind(senderType) === 'bot' && senderType.toLowerCase() !== 'bot' ? senderType : undefined;
}

/**
 * Whether a message of this kind is a reply the visitor may not have seen (the launcher's unread
 * badge, and the list showing a long one from its start): the assistant's and a person's are;
 * a notice is not, nor the visitor's own words.
 */
export const isReply = (kind: SenderKind) => kind === 'bot' || kind === 'agent';

/** What names a message's sender: before its text for screen readers, and in the transcript. */
export function senderLabel(
  kind: SenderKind,
  unknown: string | undefined,
  t: Pick<WidgetStrings, 'you' | 'bot' | 'agent' | 'systemNotice' | 'otherSender'>,
): string {
  switch (kind) {
    case 'user':
      return t.you;
    case 'agent':
      return t.agent;
    case 'system':
      return t.systemNotice;
    case 'bot':
      return unknown ? format(t.otherSender, { type: unknown }) : t.bot;
  }
}
