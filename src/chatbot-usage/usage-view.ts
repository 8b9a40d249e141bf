// A little over 350 lines, kept whole: each load's abort-and-report steps and the drill-down's
// state are read together (a stale load must never overwrite a newer drill-down); the range
// form, totals, chart, lists and feedback are already files of their own. The next to move out
// is the drill-down's state, as a controller.
/**
 * The view of `<chatbot-usage>`, loaded on the element's first connection: it loads the figures
 * of the range from the admin routes, draws them, and keeps the drill-down (user -> sessions ->
 * messages -> one message). Each load aborts the one before it, and a load that fails reports
 * once: one visible line in the `error` part and one `chatbot-error` event.
 */
import { adoptStyles, html, nothing, type LitElement, type TemplateResult } from 'lit';
import type { ChatSession, ChatUser, FeedbackMonth, Message, MonthlyUsage } from '../shared/types.js';
import { AdminApi, AdminFailure, type Page } from './admin-api.js';
import { busiestUsers, type BusiestUsers } from './busiest-users.js';
import type { ChatbotUsage } from './chatbot-usage.js';
import { HOW_TO_ENABLE_ADMIN } from './failure-text.js';
import { checkRange, isoDay, lastTwelveMonths, type UsageRange } from './month-range.js';
import { RangeForm } from './range-form.js';
import { chartTemplate, tableTemplate } from './usage-chart.js';
import { totalsTemplate } from './usage-totals.js';
import { downloadText, usageCsv } from './usage-csv.js';
import { feedbackStyles } from './feedback.styles.js';
import {
  conversationOf,
  feedbackMonthsTemplate,
  loadRated,
  ratedAnswersTemplate,
  type FeedbackActions,
  type RatedPage,
} from './feedback-view.js';
import type { RatedAnswer } from './rated-answers.js';
import type { ChatbotUsageErrorDetail } from './usage-events.js';
import { UsageFormat } from './usage-format.js';
import { messageDetailTemplate, messagesTemplate, sessionsTemplate, usersTemplate, type ListActions } from './usage-lists.js';
import { viewStyles } from './usage-view.styles.js';

/** Sessions and messages per page of the drill-down. */
const SESSIONS_PAGE_SIZE = 10;
const MESSAGES_PAGE_SIZE = 20;

/** Performance marks of the first view (read by `npm run bench -- usage`). */
export const MARK_ANSWERED = 'chatbot-usage:answered';
export const MARK_RENDERED = 'chatbot-usage:rendered';

interface Figures {
  range: UsageRange;
  months: MonthlyUsage[];
  /** Messages in the range, from the count route. */
  total: number;
  /** Messages users sent in the range, from the count route with `sent=true`. */
  fromUsers: number;
  busiest: BusiestUsers;
  /** Thumbs up and down per month, from the handler's feedback route. */
  feedback: FeedbackMonth[];
}

interface Drill {
  user: ChatUser;
  sessions: Page<ChatSession>;
  session?: ChatSession;
  messages?: Page<Message>;
  message?: Message;
}

export class UsageView implements ListActions, FeedbackActions {
  settled: Promise<void> = Promise.resolve();
  #figures: Figures | undefined;
  #drill: Drill | undefined;
  /** The rated answers shown, "not helpful" first, and the one opened. */
  #rated: { down?: RatedPage; up?: RatedPage } = {};
  #ratedOpen: string | undefined;
  #error = '';
  #loading = false;
  #mode: 'chart' | 'table' = 'chart';
  #loadAbort: AbortController | undefined;
  #drillAbort: AbortController | undefined;
  #queued = false;
  #format: UsageFormat;
  readonly #form: RangeForm;

  readonly #host: ChatbotUsage;
  constructor(host: ChatbotUsage) {
    this.#host = host;

    const root = host.renderRoot;
    if (root instanceof ShadowRoot)
      adoptStyles(root, [...(host.constructor as typeof LitElement).elementStyles, ...viewStyles, feedbackStyles]);
    this.#format = new UsageFormat(host.closest('[lang]')?.getAttribute('lang') ?? undefined);
    this.#form = new RangeForm(
      host,
      () => this.#range(),
      () => void this.reload(),
    );
    this.attributesChanged();
  }

  /** `endpoint`, `admin-token`, `from` or `to` changed: load again (once per task, however many changed). */
  attributesChanged(): void {
    if (this.#queued) return;
    this.#queued = true;
    const run = Promise.resolve().then(() => {
      this.#queued = false;
      return this.#load();
    });
    this.settled = run;
  }

  reload(): Promise<void> {
    this.settled = this.#load();
    return this.settled;
  }

  #range(): { from: string; to: string } {
    const fallback = lastTwelveMonths();
    return { from: this.#host.from || fallback.from, to: this.#host.to || fallback.to };
  }

  #report(detail: ChatbotUsageErrorDetail): void {
    this.#error = detail.message;
    this.#host.dispatchEvent(new CustomEvent('chatbot-error', { detail, bubbles: true, composed: true }));
  }

  #fail(error: unknown): void {
    if (error instanceof AdminFailure) {
      const detail: ChatbotUsageErrorDetail = { kind: error.kind, status: error.status, message: error.message, route: error.route };
      if (error.retryAfter !== undefined) detail.retryAfter = error.retryAfter;
      this.#report(detail);
    } else {
      this.#report({ kind: 'server', status: 0, message: `The usage figures could not be shown: ${String(error)}`, route: '' });
    }
  }

  #api(signal: AbortSignal): AdminApi | undefined {
    if (this.#host.adminToken) return new AdminApi(this.#host.endpoint, this.#host.adminToken, signal);
    this.#report({
      kind: 'identity',
      status: 0,
      route: '',
      message: `No admin token: set the admin-token attribute to the token the handler accepts. ${HOW_TO_ENABLE_ADMIN}`,
    });
    return undefined;
  }

  async #load(): Promise<void> {
    this.#loadAbort?.abort();
    const abort = (this.#loadAbort = new AbortController());
    const given = this.#range();
    const check = checkRange(given.from, given.to);
    this.#error = '';
    if (!check.ok) {
      this.#figures = undefined;
      this.#report({ kind: 'rejected', status: 0, route: '', message: `The from/to attributes are refused: ${check.message}` });
      return this.#rendered();
    }
    const api = this.#api(abort.signal);
    if (!api) {
      this.#figures = undefined;
      return this.#rendered();
    }
    const range = check.range;
    this.#rated = {};
    this.#loading = true;
    this.#host.requestUpdate();
    try {
      const [months, total, fromUsers, busiest, feedback] = await Promise.all([
        api.countByMonth(range),
        api.count(range),
        api.count(range, true),
        busiestUsers(api, range),
        api.feedbackByMonth(range),
      ]);
      performance.mark(MARK_ANSWERED);
      this.#figures = { range, months, total, fromUsers, busiest, feedback };
      this.#error = '';
    } catch (error) {
      if (abort.signal.aborted) return;
      this.#figures = undefined;
      this.#fail(error);
    } finally {
      if (!abort.signal.aborted) this.#loading = false;
    }
    await this.#rendered();
    if (!this.#figures) return;
    performance.mark(MARK_RENDERED);
    // A chart wider than its box opens on the latest months, which an owner looks at first.
    const chart = this.#host.renderRoot.querySelector<HTMLElement>('.chart-scroll');
    if (chart) chart.scrollLeft = chart.scrollWidth;
    // Then the rated answers, which need a read of each rated session: a load of their own.
    try {
      const [down, up] = await Promise.all([loadRated(api, range, 'down', 1), loadRated(api, range, 'up', 1)]);
      this.#rated = { down, up };
    } catch (error) {
      if (abort.signal.aborted) return;
      this.#fail(error);
    }
    await this.#rendered();
  }

  async #rendered(): Promise<void> {
    this.#host.requestUpdate();
    await this.#host.updateComplete;
  }

  /** Runs one drill-down step: aborts the step before it, reports its failure once. */
  async #step(task: (api: AdminApi) => Promise<void>, focus: string): Promise<void> {
    this.#drillAbort?.abort();
    const abort = (this.#drillAbort = new AbortController());
    const api = this.#api(abort.signal);
    if (!api) return void this.#host.requestUpdate();
    try {
      await task(api);
      this.#error = '';
    } catch (error) {
      if (abort.signal.aborted) return;
      this.#fail(error);
    }
    await this.#rendered();
    this.#host.renderRoot.querySelector<HTMLElement>(focus)?.focus();
  }

  openUser(user: ChatUser): void {
    this.#ratedOpen = undefined;
    this.settled = this.#step(async (api) => {
      this.#drill = { user, sessions: await api.sessions(user.id, 1, SESSIONS_PAGE_SIZE) };
    }, '#sessions-heading');
  }

  sessionsPage = (page: number): void => {
    const drill = this.#drill;
    if (!drill) return;
    this.settled = this.#step(async (api) => {
      this.#drill = { user: drill.user, sessions: await api.sessions(drill.user.id, page, SESSIONS_PAGE_SIZE) };
    }, '#sessions-heading');
  };

  openSession(session: ChatSession): void {
    const drill = this.#drill;
    if (!drill) return;
    this.settled = this.#step(async (api) => {
      this.#drill = {
        user: drill.user,
        sessions: drill.sessions,
        session,
        messages: await api.messages(session.id, 1, MESSAGES_PAGE_SIZE),
      };
    }, '#messages-heading');
  }

  messagesPage = (page: number): void => {
    const drill = this.#drill;
    if (!drill?.session) return;
    const session = drill.session;
    this.settled = this.#step(async (api) => {
      this.#drill = { ...drill, messages: await api.messages(session.id, page, MESSAGES_PAGE_SIZE), message: undefined };
    }, '#messages-heading');
  };

  openMessage(message: Message): void {
    const drill = this.#drill;
    if (!drill) return;
    this.settled = this.#step(async (api) => {
      this.#drill = { ...drill, message: (await api.message(message.id)) ?? message };
    }, '[part="message-detail"]');
  }

  ratedPage = (value: 'up' | 'down', page: number): void => {
    const range = this.#figures?.range;
    if (!range) return;
    this.settled = this.#step(async (api) => {
      this.#rated = { ...this.#rated, [value]: await loadRated(api, range, value, page) };
    }, `#rated-${value}-heading`);
  };

  /** A rated answer opens its conversation as the drill-down does: the user's sessions, the session's messages at the answer. */
  openRated = (rated: RatedAnswer): void => {
    this.settled = this.#step(
      async (api) => {
        const sizes = { sessions: SESSIONS_PAGE_SIZE, messages: MESSAGES_PAGE_SIZE };
        this.#drill = { ...(await conversationOf(api, rated, this.#figures?.busiest.users ?? [], sizes)), message: rated.answer };
        this.#ratedOpen = rated.rating.messageId;
      },
      rated.answer ? '[part="message-detail"]' : '#messages-heading',
    );
  };

  #exportCsv(): void {
    const figures = this.#figures;
    if (!figures) return;
    downloadText(
      `chatbot-usage-${isoDay(figures.range.fromMs)}-to-${isoDay(figures.range.toMs)}.csv`,
      usageCsv(figures.months, figures.feedback),
    );
  }

  #setMode(mode: 'chart' | 'table'): void {
    this.#mode = mode;
    this.#host.requestUpdate();
  }

  #drillTemplate(): TemplateResult | typeof nothing {
    const d = this.#drill;
    if (!d)
      return this.#figures?.busiest.users.length
        ? html`<p class="drill placeholder">Choose a user to see their sessions and messages.</p>`
        : nothing;
    return html`<section class="drill" aria-label="Sessions and messages">
      <div class="panel">${sessionsTemplate(d.user, d.sessions, d.session?.id, this.#format, this)}</div>
      ${d.messages ? html`<div class="panel">${messagesTemplate(d.messages, d.message?.id, this.#format, this)}</div>` : nothing}
      ${d.message ? html`<div class="panel">${messageDetailTemplate(d.message, this.#format)}</div>` : nothing}
    </section>`;
  }

  render(): TemplateResult {
    const f = this.#figures;
    return html`<div class="usage" aria-busy=${this.#loading ? 'true' : 'false'}>
      <header class="top">
        ${this.#form.render(this.#range())}
        <p class="note utc">Months are UTC calendar months, as the chatbot API counts them.</p>
      </header>
      <p part="error" class="error" role="alert" ?hidden=${!this.#error}>${this.#error}</p>
      ${this.#loading && !f ? html`<p class="note" role="status">Loading the figures…</p>` : nothing}
      ${
        f
          ? html`<section class="figures" aria-labelledby="figures-heading">
              <div class="section-head">
                <h2 id="figures-heading">Messages per month</h2>
                <div class="tools">
                  <div class="toggle" role="group" aria-label="Show as">
                    <button type="button" aria-pressed=${this.#mode === 'chart' ? 'true' : 'false'} @click=${() => this.#setMode('chart')}>Chart</button>
                    <button type="button" aria-pressed=${this.#mode === 'table' ? 'true' : 'false'} @click=${() => this.#setMode('table')}>Table</button>
                  </div>
                  <button type="button" part="export-button" @click=${() => this.#exportCsv()}>Export CSV</button>
                </div>
              </div>
              ${totalsTemplate(f, this.#format)}
              ${
                f.months.length === 0
                  ? html`<p class="empty">No months in this range.</p>`
                  : this.#mode === 'chart'
                    ? chartTemplate(f.months, this.#format)
                    : tableTemplate(f.months, this.#format)
              }
            </section>
            <section class="feedback" aria-labelledby="feedback-heading">
              ${feedbackMonthsTemplate(f.feedback, this.#format)}
              ${ratedAnswersTemplate(this.#rated, this.#ratedOpen, this.#format, this)}
            </section>
            <section class="people" aria-labelledby="users-heading">
              <h2 id="users-heading">Busiest users</h2>
              ${usersTemplate(f.busiest, this.#drill?.user.id, this.#format, this)}
            </section>`
          : nothing
      }
      ${this.#drillTemplate()}
    </div>`;
  }
}
