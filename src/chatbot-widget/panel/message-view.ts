import { html, nothing, type TemplateResult } from 'lit';
import type { ViewMessage } from '../conversation/view-message.js';
import { renderMarkdown, safeHref } from '../../ui/markdown/render.js';
import { inertText } from '../../ui/inert-text.js';
import type { WidgetStrings } from '../../ui/strings.js';
import type { CopyButtons } from './copy-button.js';
import type { FeedbackButtons } from './feedback.js';
import type { TimeFormat } from './time-format.js';
import { senderLabel } from '../sender-kind.js';

/** What a bubble needs besides its message. */
export interface MessageViewContext {
  readonly t: WidgetStrings;
  readonly time: TimeFormat;
  /** The direction of the widget's language, for the words it adds to a bubble. */
  readonly dir: 'ltr' | 'rtl';
  /** Sends a failed message again (its Retry button). */
  retry(key: string): void;
  /** The copy buttons of bot messages and their code blocks. */
  readonly copy: CopyButtons;
  /** The thumbs up and down of bot messages. */
  readonly feedback: FeedbackButtons;
}

/**
 * One message of the list: the bubble (a bot's Markdown rendered to inert DOM, each code block
 * with its copy button; the visitor's and a person's text as plain text), its attachment link,
 * and a line with its time and state, and for a reply its copy button (and for the assistant's,
 * the feedback buttons: a rating is about the assistant's answers, not a person's, and the handler
 * keeps ratings only of messages stored as the bot's, so a sender it does not know gets none). A person's
 * reply is named above its bubble; a notice (system) is a quiet line in the flow, with nothing to
 * copy or rate. The bubble takes its direction from its own text (`dir="auto"`): an English answer
 * in an Arabic widget reads left to right, its full stop at its end, and the other way round.
 */
export function renderMessage(message: ViewMessage, context: MessageViewContext): TemplateResult {
  const { t } = context;
  const { sender } = message;
  const parts = ['message', `message-${sender}`];
  if (message.state !== 'sent') parts.push(`message-${message.state}`);
  const waiting = message.entry?.retryAt && message.entry.retryAt > Date.now();
  const url = message.url ? safeHref(message.url) : undefined;
  const reply = sender === 'bot' || sender === 'agent';
  return html`<div part=${parts.join(' ')} data-key=${message.key}>
    ${sender === 'agent' ? html`<span class="sender" aria-hidden="true">${t.agent}</span>` : nothing}
    <div class="bubble" dir="auto">
      <span class="sr-only" dir=${context.dir}>${senderLabel(sender, inertText(message.unknownSender), t)}:</span>
      ${
        sender === 'bot'
          ? renderMarkdown(message.text, context.copy.codeWrapper(message.key, t))
          : html`<span class="plain">${inertText(message.text)}</span>`
      }
      ${url ? html`<div><a href=${url} target="_blank" rel="noopener noreferrer">${t.attachment}</a></div>` : nothing}
    </div>
    <div class="meta">
      <time datetime=${message.createdAt}>${context.time.format(message.createdAt)}</time>
      ${message.state === 'pending' ? html`<span>${t.pending}</span>` : nothing}
      ${reply ? context.copy.messageButton(message.key, inertText(message.text), t) : nothing}
      ${sender === 'bot' && !message.unknownSender && !message.unratable ? context.feedback.render(message.key, t) : nothing}
      ${
        message.state === 'failed'
          ? html`<span>${t.failed}</span>
            <button part="retry-button" type="button" ?disabled=${!!waiting} @click=${() => context.retry(message.key)}>${t.retry}</button>`
          : nothing
      }
    </div>
  </div>`;
}
