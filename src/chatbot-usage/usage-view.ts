/**
 * The view of `<chatbot-usage>`, loaded on the element's first connection: it loads the figures
 * of the range from the admin routes, draws them, and keeps the drill-down (user -> sessions ->
 * messages -> one message). Each load aborts the one before it, and a load that fails reports
 * once: one visible line in the `error` part and one `chatbot-error` event.
 */
import { adoptStyles, html, nothing, type LitElement, type TemplateResult } from 'lit';
import type { ChatSession, ChatUser, Message, MonthlyUsage } from '../shared/types.js';
import { AdminApi, AdminFailure, type Page } from './admin-api.js';
import { busiestUsers, type BusiestUsers } from './busiest-users.js';
import type { ChatbotUsage } from './chatbot-usage.js';
import { HOW_TO_ENABLE_ADMIN } from './failure-text.js';
import { checkRange, isoDay, lastTwelveMonths, type UsageRange } from './month-range.js';
import { chartTemplate, sumOf, tableTemplate } from './usage-chart.js';
import { downloadText, usageCsv } from './usage-csv.js';
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
}

interface Drill {
  user: ChatUser;
  sessions: Page<ChatSession>;
  session?: ChatSession;
  messages?: Page<Message>;
  message?: Message;
}

export class UsageView implements ListActions {
  settled: Promise<void> = Promise.resolve();
  #figures: Figures | undefined;
  #drill: Drill | undefined;
  #error = '';
  #formError: { field: 'from' | 'to'; message: string } | undefined;
  #loading = false;
  #mode: 'chart' | 'table' = 'chart';
  #loadAbort: AbortController | undefined;
  #drillAbort: AbortController | undefined;
  #queued = false;
  #format: UsageFormat;

  readonly #host: ChatbotUsage;
  constructor(host: ChatbotUsage) {
    this.#host = host;

    const root = host.renderRoot;
    if (root instanceof ShadowRoot) adoptStyles(root, [...(host.constructor as typeof LitElement).elementStyles, ...viewStyles]);
    this.#format = new UsageFormat(host.closest('[lang]')?.getAttribute('lang') ?? undefined);
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
    this.#loading = true;
    this.#host.requestUpdate();
    try {
      const [months, total, fromUsers, busiest] = await Promise.all([
        api.countByMonth(range),
        api.count(range),
        api.count(range, true),
        busiestUsers(api, range),
      ]);
      performance.mark(MARK_ANSWERED);
      this.#figures = { range, months, total, fromUsers, busiest };
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

  #submit(event: SubmitEvent): void {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const from = (form.elements.namedItem('from') as HTMLInputElement).value;
    const to = (form.elements.namedItem('to') as HTMLInputElement).value;
    const check = checkRange(from, to);
    if (!check.ok) {
      // Refused here, never sent: the owner fixes the field the message names.
      this.#formError = { field: check.field, message: check.message };
      this.#host.requestUpdate();
      void this.#host.updateComplete.then(() => (form.elements.namedItem(check.field) as HTMLInputElement).focus());
      return;
    }
    this.#formError = undefined;
    if (from === this.#range().from && to === this.#range().to) void this.reload();
    this.#host.from = from;
    this.#host.to = to;
  }

  #exportCsv(): void {
    const figures = this.#figures;
    if (!figures) return;
    downloadText(`chatbot-usage-${isoDay(figures.range.fromMs)}-to-${isoDay(figures.range.toMs)}.csv`, usageCsv(figures.months));
  }

  #setMode(mode: 'chart' | 'table'): void {
    this.#mode = mode;
    this.#host.requestUpdate();
  }

  #formTemplate(): TemplateResult {
    const { from, to } = this.#range();
    const invalid = (field: 'from' | 'to') => (this.#formError?.field === field ? 'true' : 'false');
    return html`<form part="range" class="range" novalidate @submit=${(e: SubmitEvent) => this.#submit(e)}>
      <label>From <input type="date" name="from" .value=${from} required aria-invalid=${invalid('from')} aria-describedby="range-help range-error" /></label>
      <label>To <input type="date" name="to" .value=${to} required aria-invalid=${invalid('to')} aria-describedby="range-help range-error" /></label>
      <button type="submit" class="primary">Show</button>
      <p id="range-help" class="note">From the start of “From” to just before “To”, in UTC.</p>
      <p id="range-error" class="form-error" role="alert">${this.#formError?.message ?? nothing}</p>
    </form>`;
  }

  #totalsTemplate(f: Figures): TemplateResult {
    const busiest = f.months.reduce<MonthlyUsage | undefined>(
      (best, m) => (!best || m.messageCount > best.messageCount ? m : best),
      undefined,
    );
    const item = (name: string, label: string, value: string) =>
      html`<div part="total" data-total=${name}><dt>${label}</dt><dd>${value}</dd></div>`;
    const monthsSum = sumOf(f.months, (m) => m.messageCount);
    return html`<dl class="totals">
        ${item('messages', 'Messages', this.#format.number(f.total))} ${item('from-users', 'From users', this.#format.number(f.fromUsers))}
        ${item('tokens', 'Tokens', this.#format.number(sumOf(f.months, (m) => m.tokenTotal)))}
        ${item('busiest-month', 'Busiest month', busiest && busiest.messageCount > 0 ? `${this.#format.monthLong(busiest.month)} (${this.#format.number(busiest.messageCount)})` : '—')}
      </dl>
      ${
        monthsSum !== f.total
          ? html`<p class="note warning">The months add up to ${this.#format.number(monthsSum)} messages, the count for the range is ${this.#format.number(f.total)}: upstream changed while loading; choose Show again.</p>`
          : nothing
      }`;
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
        ${this.#formTemplate()}
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
              ${this.#totalsTemplate(f)}
              ${
                f.months.length === 0
                  ? html`<p class="empty">No months in this range.</p>`
                  : this.#mode === 'chart'
                    ? chartTemplate(f.months, this.#format)
                    : tableTemplate(f.months, this.#format)
              }
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
