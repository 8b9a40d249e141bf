/**
 * Thumbs up and down on a bot message: two toggle buttons (`aria-pressed`), at most one pressed.
 * Pressing the other one switches the rating; pressing the pressed one again takes the rating
 * back. `chatbot-feedback` reports ratings only (`up` or `down`): taking one back fires nothing.
 * Every choice is kept and sent to the handler (outbox-ratings.ts). A thumbs down opens a comment
 * box under the message (feedback-comment.ts, loaded then); what the visitor writes there is sent
 * with the rating.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ChatController } from '../conversation/chat-controller.js';
import type { FeedbackValue } from '../conversation/feedback-store.js';
import { emit } from '../../ui/emit.js';
import type { WidgetStrings } from '../../ui/strings.js';
import type { Announcer } from './announcer.js';
import type { FeedbackComment } from './feedback-comment.js';
import type { PanelHost } from './panel-host.js';

const thumbUp = html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 11v9H4v-9zM7 11l4-8a2 2 0 0 1 3 2l-1 4h6a2 2 0 0 1 2 2l-2 7a2 2 0 0 1-2 2H7" /></svg>`;
const thumbDown = html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M7 13V4H4v9zM7 13l4 8a2 2 0 0 0 3-2l-1-4h6a2 2 0 0 0 2-2l-2-7a2 2 0 0 0-2-2H7" /></svg>`;

/** The rating after pressing `pressed` when `current` is the rating: the same one again takes it back. */
export function nextFeedback(current: FeedbackValue | undefined, pressed: FeedbackValue): FeedbackValue | undefined {
  return current === pressed ? undefined : pressed;
}

/** The two buttons of a bot message; `onPress` gets the button pressed. */
export function feedbackButtons(
  current: FeedbackValue | undefined,
  t: WidgetStrings,
  onPress: (pressed: FeedbackValue) => void,
): TemplateResult {
  const button = (value: FeedbackValue, label: string, icon: TemplateResult) =>
    html`<button part=${`feedback-${value}`} class="icon-button feedback" type="button" aria-label=${label}
      aria-pressed=${current === value ? 'true' : 'false'} @click=${() => onPress(value)}>${icon}</button>`;
  return html`${button('up', t.feedbackUp, thumbUp)}${button('down', t.feedbackDown, thumbDown)}`;
}

/** The thumbs of every bot message, and what a press does: the rating, the event, the thanks, the comment box. */
export class FeedbackButtons {
  /** The comment box open under a message, if any (one at a time). */
  #comment: FeedbackComment | undefined;

  readonly #host: PanelHost;
  readonly #chat: Pick<ChatController, 'feedback' | 'ratings'>;
  readonly #announcer: Announcer;
  constructor(host: PanelHost, chat: Pick<ChatController, 'feedback' | 'ratings'>, announcer: Announcer) {
    this.#host = host;
    this.#chat = chat;
    this.#announcer = announcer;
  }

  /** Rates, switches or takes back; only a rating fires `chatbot-feedback` and is thanked for. A thumbs down asks for a comment. */
  press(messageId: string, pressed: FeedbackValue) {
    const value = nextFeedback(this.#chat.feedback.get(messageId), pressed);
    void this.#chat.ratings.rate(messageId, value);
    if (this.#comment?.messageId === messageId || value === 'down') this.#comment = undefined;
    if (!value) return;
    const host = this.#host;
    this.#announcer.say(host.text.feedbackThanks);
    emit(host, 'chatbot-feedback', { messageId, value });
    // The box's code loads on the first thumbs down; it opens unless the rating changed meanwhile.
    // Offline before it ever loaded, there is no box: the thumbs down stands without a comment.
    if (value === 'down')
      import('./feedback-comment.js').then(
        ({ FeedbackComment }) => {
          if (this.#chat.feedback.get(messageId) !== 'down') return;
          this.#comment = new FeedbackComment(host, messageId, this.#chat, this.#announcer, () => (this.#comment = undefined));
        },
        () => undefined,
      );
  }

  render(messageId: string, t: WidgetStrings): TemplateResult {
    const comment = this.#comment?.messageId === messageId ? this.#comment : undefined;
    return html`${feedbackButtons(this.#chat.feedback.get(messageId), t, (pressed) => this.press(messageId, pressed))}${
      comment ? comment.render(t) : nothing
    }`;
  }
}
