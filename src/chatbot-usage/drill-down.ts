/**
 * The drill-down of `<chatbot-usage>`: a user's sessions, one session's messages, one message.
 * A rated answer opens its conversation here too. Each step aborts the one before it, so a slow
 * answer never replaces a newer choice; a step that fails is reported once, and one that
 * succeeds moves focus to the heading of what it opened.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ChatSession, ChatUser, Message } from '../shared/types.js';
import type { AdminApi, Page } from './admin-api.js';
import { conversationOf } from './feedback-view.js';
import type { RatedAnswer } from './rated-answers.js';
import type { UsageFormat } from './usage-format.js';
import { messageDetailTemplate, messagesTemplate, sessionsTemplate, type ListActions } from './usage-lists.js';

/** Sessions and messages per page of the drill-down. */
const PAGE_SIZES = { sessions: 10, messages: 20 };

/** What is open: a user's sessions, then perhaps a session's messages and one message. */
interface Opened {
  user: ChatUser;
  sessions: Page<ChatSession>;
  session?: ChatSession;
  messages?: Page<Message>;
  message?: Message;
}

/** What the view lends each step. */
export interface StepHost {
  /** The admin routes for a step, or undefined when there is no admin token (reported already). */
  api(signal: AbortSignal): AdminApi | undefined;
  /** A step failed: said once, in the `error` part and a `chatbot-error` event. */
  fail(error: unknown): void;
  /** A step succeeded: the error of an earlier one is no longer shown. */
  clearError(): void;
  /** Draws the element and waits until it has. */
  rendered(): Promise<void>;
  readonly renderRoot: HTMLElement | DocumentFragment;
}

export class DrillDown implements ListActions {
  /** The last step begun, done (for the element's `settled`). */
  settled: Promise<void> = Promise.resolve();
  #opened: Opened | undefined;
  /** The message id of the rated answer whose conversation is open, if one is. */
  #ratedOpen: string | undefined;
  #abort: AbortController | undefined;

  readonly #host: StepHost;
  readonly #format: UsageFormat;
  constructor(host: StepHost, format: UsageFormat) {
    this.#host = host;
    this.#format = format;
  }

  /** The user whose sessions are open, if any (marked in the list of users). */
  get userId(): string | undefined {
    return this.#opened?.user.id;
  }

  /** The rated answer whose conversation is open, if any (marked in the rated answers). */
  get ratedOpen(): string | undefined {
    return this.#ratedOpen;
  }

  /**
   * Runs one step: aborts the step before it (the rated answers' pages take turns with the
   * drill-down's own steps), reports a failure once, and focuses `focus` once drawn.
   */
  step(task: (api: AdminApi) => Promise<void>, focus: string): Promise<void> {
    this.settled = this.#run(task, focus);
    return this.settled;
  }

  async #run(task: (api: AdminApi) => Promise<void>, focus: string): Promise<void> {
    this.#abort?.abort();
    const abort = (this.#abort = new AbortController());
    const api = this.#host.api(abort.signal);
    if (!api) return this.#host.rendered();
    try {
      await task(api);
      this.#host.clearError();
    } catch (error) {
      if (abort.signal.aborted) return;
      this.#host.fail(error);
    }
    await this.#host.rendered();
    this.#host.renderRoot.querySelector<HTMLElement>(focus)?.focus();
  }

  openUser(user: ChatUser): void {
    this.#ratedOpen = undefined;
    void this.step(async (api) => {
      this.#opened = { user, sessions: await api.sessions(user.id, 1, PAGE_SIZES.sessions) };
    }, '#sessions-heading');
  }

  sessionsPage = (page: number): void => {
    const opened = this.#opened;
    if (!opened) return;
    void this.step(async (api) => {
      this.#opened = { user: opened.user, sessions: await api.sessions(opened.user.id, page, PAGE_SIZES.sessions) };
    }, '#sessions-heading');
  };

  openSession(session: ChatSession): void {
    const opened = this.#opened;
    if (!opened) return;
    void this.step(async (api) => {
      this.#opened = {
        user: opened.user,
        sessions: opened.sessions,
        session,
        messages: await api.messages(session.id, 1, PAGE_SIZES.messages),
      };
    }, '#messages-heading');
  }

  messagesPage = (page: number): void => {
    const opened = this.#opened;
    if (!opened?.session) return;
    const session = opened.session;
    void this.step(async (api) => {
      this.#opened = { ...opened, messages: await api.messages(session.id, page, PAGE_SIZES.messages), message: undefined };
    }, '#messages-heading');
  };

  openMessage(message: Message): void {
    const opened = this.#opened;
    if (!opened) return;
    void this.step(async (api) => {
      this.#opened = { ...opened, message: (await api.message(message.id)) ?? message };
    }, '[part="message-detail"]');
  }

  /**
   * A rated answer's conversation, opened as the drill-down would: the user's sessions, the
   * session's messages at the answer. `knownUsers` names the user when they are among them.
   */
  openRated(rated: RatedAnswer, knownUsers: ChatUser[]): void {
    void this.step(
      async (api) => {
        this.#opened = { ...(await conversationOf(api, rated, knownUsers, PAGE_SIZES)), message: rated.answer };
        this.#ratedOpen = rated.rating.messageId;
      },
      rated.answer ? '[part="message-detail"]' : '#messages-heading',
    );
  }

  /** The open steps side by side; before any, a hint when there are users to choose from. */
  render(hasUsers: boolean): TemplateResult | typeof nothing {
    const opened = this.#opened;
    if (!opened) return hasUsers ? html`<p class="drill placeholder">Choose a user to see their sessions and messages.</p>` : nothing;
    return html`<section class="drill" aria-label="Sessions and messages">
      <div class="panel">${sessionsTemplate(opened.user, opened.sessions, opened.session?.id, this.#format, this)}</div>
      ${opened.messages ? html`<div class="panel">${messagesTemplate(opened.messages, opened.message?.id, this.#format, this)}</div>` : nothing}
      ${opened.message ? html`<div class="panel">${messageDetailTemplate(opened.message, this.#format)}</div>` : nothing}
    </section>`;
  }
}
