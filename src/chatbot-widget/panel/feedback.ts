/**
 * Thumbs up and down on a bot message: two toggle buttons (`aria-pressed`), at most one pressed.
 * Pressing the other one switches the rating; pressing the pressed one again takes the rating
 * back. `chatbot-feedback` reports ratings only (`up` or `down`): taking one back fires nothing,
 * and the stored rating is removed.
 */
import { html, type TemplateResult } from 'lit';
import type { ChatController } from '../controllers/chat-controller.js';
import type { FeedbackValue } from '../controllers/feedback-store.js';
import { emit } from '../../ui/emit.js';
import type { WidgetStrings } from '../../ui/strings.js';
import type { Announcer } from './announcer.js';

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

/** The thumbs of every bot message, and what a press does: the rating, the event, the thanks. */
export class FeedbackButtons {
  readonly #host: HTMLElement & { readonly text: WidgetStrings };
  readonly #chat: Pick<ChatController, 'feedback' | 'rate'>;
  readonly #announcer: Announcer;
  constructor(host: HTMLElement & { readonly text: WidgetStrings }, chat: Pick<ChatController, 'feedback' | 'rate'>, announcer: Announcer) {
    this.#host = host;
    this.#chat = chat;
    this.#announcer = announcer;
  }

  /** Rates, switches or takes back; only a rating fires `chatbot-feedback` and is thanked for. */
  press(messageId: string, pressed: FeedbackValue) {
    const value = nextFeedback(this.#chat.feedback.get(messageId), pressed);
    void this.#chat.rate(messageId, value);
    if (!value) return;
    this.#announcer.say(this.#host.text.feedbackThanks);
    emit(this.#host, 'chatbot-feedback', { messageId, value });
  }

  render(messageId: string, t: WidgetStrings): TemplateResult {
    return feedbackButtons(this.#chat.feedback.get(messageId), t, (pressed) => this.press(messageId, pressed));
  }
}
