/**
 * The visitors' feedback in `<chatbot-usage>`: thumbs up and down per UTC month (part `feedback`,
 * a table), and the rated answers, "not helpful" first, each with the question before it and the
 * visitor's comment (part `feedback-item`, a button opening the conversation). Questions,
 * answers and comments are visitor and bot text: shown through {@link inertText}, never as HTML.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ChatSession, ChatUser, FeedbackItem, FeedbackMonth, Message } from '../shared/types.js';
import { inertText } from '../ui/inert-text.js';
import type { AdminApi, Page } from './admin-api.js';
import type { UsageRange } from './month-range.js';
import { ratedAnswers, type RatedAnswer } from './rated-answers.js';
import { pagerTemplate } from './usage-lists.js';
import type { UsageFormat } from './usage-format.js';

/** Rated answers per page of each list. */
const RATED_PAGE_SIZE = 10;

/** One page of the ratings of one value, with their answers and questions. */
export interface RatedPage {
  value: 'up' | 'down';
  page: Page<FeedbackItem>;
  answers: RatedAnswer[];
}

export interface FeedbackActions {
  openRated(answer: RatedAnswer): void;
  ratedPage(value: 'up' | 'down', page: number): void;
}

/** A page of the ratings of one value in the range, with the answers and questions they rate. */
export async function loadRated(api: AdminApi, range: UsageRange, value: 'up' | 'down', page: number): Promise<RatedPage> {
  const ratings = await api.feedback(range, value, page, RATED_PAGE_SIZE);
  return { value, page: ratings, answers: await ratedAnswers(api, ratings.items) };
}

/**
 * The conversation of a rated answer as the drill-down shows it: its user (from `known`, else
 * named by id), their first page of sessions, and the page of the session's messages holding it.
 */
export async function conversationOf(
  api: AdminApi,
  { rating, position }: RatedAnswer,
  known: ChatUser[],
  pageSizes: { sessions: number; messages: number },
): Promise<{ user: ChatUser; sessions: Page<ChatSession>; session: ChatSession; messages: Page<Message> }> {
  const userId = rating.chatUserId;
  const user = known.find((u) => u.id === userId) ?? { id: userId, name: '', createdAt: '', lastMessageAt: '', messageCount: 0 };
  const [sessions, messages] = await Promise.all([
    api.sessions(userId, 1, pageSizes.sessions),
    api.messages(rating.chatSessionId, Math.floor((position ?? 0) / pageSizes.messages) + 1, pageSizes.messages),
  ]);
  // Not among the user's newest sessions: named by its id, so the messages still say whose they are.
  const session = sessions.items.find((s) => s.id === rating.chatSessionId) ?? {
    id: rating.chatSessionId,
    chatUserId: userId,
    createdAt: rating.createdAt,
    lastMessageAt: rating.createdAt,
    messageCount: messages.totalItems,
  };
  return { user, sessions, session, messages };
}

const LABELS = { up: 'Helpful', down: 'Not helpful' } as const;

export function feedbackMonthsTemplate(months: FeedbackMonth[], format: UsageFormat): TemplateResult {
  const sum = (pick: (m: FeedbackMonth) => number) => months.reduce((total, m) => total + (Number(pick(m)) || 0), 0);
  return html`<h2 id="feedback-heading">Visitors' feedback</h2>
    <p class="note">The thumbs up and down visitors gave the answers, by the UTC month of their latest choice.</p>
    <div class="table-scroll" tabindex="0" role="region" aria-label="Thumbs up and down per month, table">
      <table part="feedback">
        <thead>
          <tr><th scope="col">Month</th><th scope="col" class="number">${LABELS.up}</th><th scope="col" class="number">${LABELS.down}</th></tr>
        </thead>
        <tbody>
          ${months.map(
            (m) => html`<tr data-month=${inertText(m.month)} data-up=${Number(m.up) || 0} data-down=${Number(m.down) || 0}>
              <th scope="row">${format.monthLong(inertText(m.month))}</th>
              <td class="number">${format.number(Number(m.up) || 0)}</td><td class="number">${format.number(Number(m.down) || 0)}</td>
            </tr>`,
          )}
        </tbody>
        <tfoot>
          <tr><th scope="row">Total</th><td class="number" data-total="up">${format.number(sum((m) => m.up))}</td>
            <td class="number" data-total="down">${format.number(sum((m) => m.down))}</td></tr>
        </tfoot>
      </table>
    </div>`;
}

function ratedItem(answer: RatedAnswer, selected: string | undefined, format: UsageFormat, actions: FeedbackActions): TemplateResult {
  const { rating } = answer;
  const comment = typeof rating.comment === 'string' ? inertText(rating.comment) : '';
  return html`<li>
    <button type="button" part="feedback-item" data-message-id=${inertText(rating.messageId)} data-value=${rating.value}
      aria-pressed=${rating.messageId === selected ? 'true' : 'false'} @click=${() => actions.openRated(answer)}>
      <span class="name">${LABELS[rating.value] ?? ''}</span>
      <span class="count">${format.time(rating.createdAt)}</span>
      <span class="said question"><span class="label">Question:</span> ${
        answer.question ? inertText(answer.question.text) : html`<em>not found in the session</em>`
      }</span>
      <span class="said answer"><span class="label">Answer:</span> ${
        answer.answer ? inertText(answer.answer.text) : html`<em>no longer in its session</em>`
      }</span>
      ${comment ? html`<span class="said comment"><span class="label">Comment:</span> ${comment}</span>` : nothing}
      <span class="sub">${inertText(rating.chatUserId)}</span>
    </button>
  </li>`;
}

function ratedList(rated: RatedPage, selected: string | undefined, format: UsageFormat, actions: FeedbackActions): TemplateResult {
  const id = `rated-${rated.value}-heading`;
  return html`<h4 id=${id} tabindex="-1">${LABELS[rated.value]} (${format.number(rated.page.totalItems)})</h4>
    ${
      rated.answers.length
        ? html`<ol class="rated" aria-labelledby=${id}>${rated.answers.map((a) => ratedItem(a, selected, format, actions))}</ol>`
        : html`<p class="empty">None in this range.</p>`
    }
    ${rated.page.totalPages > 1 ? pagerTemplate(`Pages of “${LABELS[rated.value]}”`, rated.page, (n) => actions.ratedPage(rated.value, n)) : nothing}`;
}

/** The rated answers: "not helpful" first, then "helpful". */
export function ratedAnswersTemplate(
  lists: { down?: RatedPage | undefined; up?: RatedPage | undefined },
  selected: string | undefined,
  format: UsageFormat,
  actions: FeedbackActions,
): TemplateResult {
  return html`<h3 id="rated-heading">Rated answers</h3>
    <p class="note">Choose one to open its conversation.</p>
    ${lists.down ? ratedList(lists.down, selected, format, actions) : nothing}
    ${lists.up ? ratedList(lists.up, selected, format, actions) : nothing}`;
}
