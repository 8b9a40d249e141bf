/**
 * A conversation as a Markdown file, built from the cache (so it works offline) and saved
 * through a Blob URL and an `<a download>`, which a strict Content Security Policy allows (no
 * inline script or style, no `data:` URL).
 *
 * The bot's answers are Markdown already and are kept as they are (an unclosed code fence is
 * closed, so it cannot swallow the rest of the file); the visitor's messages are plain text and
 * are escaped, so a `#`, `>` or `[link](…)` typed in the chat stays text in the file. So are a
 * person's replies and notices, drawn as plain text in the panel too; each message is headed by
 * its sender as the panel names it (sender-kind.ts).
 */
import type { Message } from '../shared/types.js';
import { format } from '../ui/format-text.js';
import type { WidgetStrings } from '../ui/strings.js';
import { senderKind, senderLabel, unknownSender } from './sender-kind.js';

export interface TranscriptOptions {
  /** The widget's heading (title of the panel). */
  heading: string;
  strings: Pick<WidgetStrings, 'transcriptHeading' | 'you' | 'bot' | 'agent' | 'systemNotice' | 'otherSender' | 'attachment'>;
  /** The language tag dates are written in. */
  locale: string;
}

/**
 * Characters that start Markdown structure anywhere in a line (emphasis, code, links, HTML,
 * entities, tables, headings, quotes, strikethrough), escaped with a backslash.
 */
const INLINE = /[\\`*_[\]<>#|~&]/g;
/** What starts a block only at the beginning of a line: list items, setext underlines. */
const LINE_START = /^(\d+)([.)])|^([-+=])/;

/** Visitor text as Markdown that shows exactly that text: no structure, line breaks kept. */
export function escapeMarkdown(text: string): string {
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    // Indentation would make a code block: dropped.
    .map((line) =>
      line
        .trimStart()
        .replace(INLINE, '\\$&')
        .replace(LINE_START, (_, digits: string | undefined, mark: string | undefined, sign: string | undefined) =>
          digits ? `${digits}\\${mark}` : `\\${sign}`,
        ),
    );
  // A backslash at the end of a line is a hard line break, between two lines of one paragraph.
  return lines.map((line, i) => (line && lines[i + 1] ? `${line}\\` : line)).join('\n');
}

/** Bot Markdown as it came, with an open code fence closed so what follows stays outside it. */
export function closeFences(markdown: string): string {
  let open: string | undefined;
  for (const line of markdown.split(/\r?\n/)) {
    const fence = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (!fence) continue;
    if (!open) open = fence;
    else if (fence[0] === open[0] && fence.length >= open.length && !line.trim().slice(fence.length)) open = undefined;
  }
  return open ? `${markdown}\n${open}` : markdown;
}

const ymd = (date: Date) =>
  `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;

function formatter(locale: string, options: Intl.DateTimeFormatOptions) {
  try {
    return new Intl.DateTimeFormat(locale, options);
  } catch {
    return new Intl.DateTimeFormat(undefined, options);
  }
}

/** The date the conversation started (its first message), or now when it has no valid time. */
function startOf(messages: readonly Message[]) {
  const time = Date.parse(messages[0]?.createdAt ?? '');
  return new Date(Number.isNaN(time) ? Date.now() : time);
}

/** `chat-2025-11-23.md`: the day the conversation started, in the visitor's time zone. */
export const transcriptFileName = (messages: readonly Message[]) => `chat-${ymd(startOf(messages))}.md`;

/** The conversation (oldest message first) as a Markdown document. */
export function transcriptMarkdown(messages: readonly Message[], { heading, strings, locale }: TranscriptOptions): string {
  const day = formatter(locale, { dateStyle: 'long' }).format(startOf(messages));
  const time = formatter(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const parts = [`# ${escapeMarkdown(heading)} — ${escapeMarkdown(format(strings.transcriptHeading, { date: day }))}`];
  for (const message of messages) {
    const kind = senderKind(message.senderType);
    const at = Date.parse(message.createdAt);
    const when = Number.isNaN(at) ? '' : ` · ${time.format(new Date(at))}`;
    parts.push(`### ${escapeMarkdown(senderLabel(kind, unknownSender(message.senderType), strings))}${when}`);
    const text = typeof message.text === 'string' ? message.text : '';
    parts.push(kind === 'bot' ? closeFences(text) : escapeMarkdown(text));
    // Only web links, written so no character of theirs ends the link early.
    if (typeof message.url === 'string' && /^https?:\/\//i.test(message.url)) {
      parts.push(`${escapeMarkdown(strings.attachment)}: <${message.url.replace(/[\s<>]/g, encodeURIComponent)}>`);
    }
  }
  return `${parts.join('\n\n')}\n`;
}

/** Saves `text` as a file through a Blob URL, as if the visitor had followed a download link. */
export function downloadText(fileName: string, text: string, type = 'text/markdown') {
  const url = URL.createObjectURL(new Blob([text], { type: `${type};charset=utf-8` }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // The download has taken the URL by the next task; the Blob is then freed.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
