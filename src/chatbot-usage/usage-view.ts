/**
 * The view of `<chatbot-usage>`, loaded on the element's first connection: it loads the figures
 * of the range from the admin routes and draws them, with the drill-down (user -> sessions ->
 * messages -> one message, drill-down.ts) below. Each load aborts the one before it, and a load
 * that fails reports once: one visible line in the `error` part and one `chatbot-error` event.
 * A Lit reactive controller of the element: each update that finds `endpoint`, `admin-token`,
 * `from` or `to` changed loads again.
 */
import { adoptStyles, html, nothing, type LitElement, type ReactiveController, type TemplateResult } from 'lit';
import type { FeedbackMonth, MonthlyUsage } from '../shared/types.js';
import { AdminApi, AdminFailure } from './admin-api.js';
import { busiestUsers, type BusiestUsers } from './busiest-users.js';
import type { UsageHost } from './usage-host.js';
import { DrillDown } from './drill-down.js';
import { HOW_TO_ENABLE_ADMIN } from './failure-text.js';
import { checkRange, isoDay, lastTwelveMonths, type UsageRange } from './month-range.js';
import { RangeForm } from './range-form.js';
import { chartTemplate, tableTemplate } from './usage-chart.js';
import { totalsTemplate } from './usage-totals.js';
import { downloadText, usageCsv } from './usage-csv.js';
import { feedbackStyles } from './feedback.styles.js';
import { feedbackMonthsTemplate, loadRated, ratedAnswersTemplate, type FeedbackActions, type RatedPage } from './feedback-view.js';
import type { RatedAnswer } from './rated-answers.js';
import type { ChatbotUsageErrorDetail } from './usage-events.js';
import { UsageFormat } from './usage-format.js';
import { usersTemplate } from './usage-lists.js';
import { viewStyles } from './usage-view.styles.js';

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

export class UsageView implements ReactiveController, FeedbackActions {
  /** The last load of the figures, done. */
  #loaded: Promise<void> = Promise.resolve();
  #figures: Figures | undefined;
  /** The rated answers shown, "not helpful" first. */
  #rated: { down?: RatedPage; up?: RatedPage } = {};
  #error = '';
  #loading = false;
  #mode: 'chart' | 'table' = 'chart';
  #loadAbort: AbortController | undefined;
  #queued = false;
  /** The settings the figures were last asked for: `endpoint`, `admin-token`, `from`, `to`. */
  #settings: string;
  #format: UsageFormat;
  readonly #form: RangeForm;
  readonly #drillDown: DrillDown;

  readonly #host: UsageHost;
  constructor(host: UsageHost) {
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
    this.#drillDown = new DrillDown(
      {
        api: (signal) => this.#api(signal),
        fail: (error) => this.#fail(error),
        clearError: () => (this.#error = ''),
        rendered: () => this.#rendered(),
        renderRoot: host.renderRoot,
      },
      this.#format,
    );
    host.addController(this);
    this.#settings = this.#settingsNow();
    this.#loadSoon();
  }

  hostUpdate(): void {
    const settings = this.#settingsNow();
    if (settings === this.#settings) return;
    this.#settings = settings;
    this.#loadSoon();
  }

  #settingsNow(): string {
    const host = this.#host;
    return JSON.stringify([host.endpoint, host.adminToken, host.from, host.to]);
  }

  /** The last load and the last drill-down step, both done. */
  get settled(): Promise<void> {
    return Promise.all([this.#loaded, this.#drillDown.settled]).then(() => undefined);
  }

  /** Loads the figures once the current task is done (once, however many settings changed in it). */
  #loadSoon(): void {
    if (this.#queued) return;
    this.#queued = true;
    const run = Promise.resolve().then(() => {
      this.#queued = false;
      return this.#load();
    });
    this.#loaded = run;
  }

  reload(): Promise<void> {
    this.#loaded = this.#load();
    return this.#loaded;
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
    // A chart wider than its box opens on the latest months, which an owner looks at first, and
    // so does a feedback table taller than its box (its total under them). The latest months are
    // at the inline end: on the left on a right-to-left page, where scrollLeft counts down from 0.
    const root = this.#host.renderRoot;
    const chart = root.querySelector<HTMLElement>('.chart-scroll');
    if (chart) chart.scrollLeft = getComputedStyle(chart).direction === 'rtl' ? -chart.scrollWidth : chart.scrollWidth;
    const feedback = root.querySelector<HTMLElement>('.feedback .table-scroll');
    if (feedback) feedback.scrollTop = feedback.scrollHeight;
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

  ratedPage = (value: 'up' | 'down', page: number): void => {
    const range = this.#figures?.range;
    if (!range) return;
    void this.#drillDown.step(async (api) => {
      this.#rated = { ...this.#rated, [value]: await loadRated(api, range, value, page) };
    }, `#rated-${value}-heading`);
  };

  openRated = (rated: RatedAnswer): void => this.#drillDown.openRated(rated, this.#figures?.busiest.users ?? []);

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
              ${ratedAnswersTemplate(this.#rated, this.#drillDown.ratedOpen, this.#format, this)}
            </section>
            <section class="people" aria-labelledby="users-heading">
              <h2 id="users-heading">Busiest users</h2>
              ${usersTemplate(f.busiest, this.#drillDown.userId, this.#format, this.#drillDown)}
            </section>`
          : nothing
      }
      ${this.#drillDown.render(!!f?.busiest.users.length)}
    </div>`;
  }
}
