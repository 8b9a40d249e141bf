/**
 * The drill-down of `<chatbot-usage>`: the busiest users, one user's sessions, one session's
 * messages and one message's details. Every value from the API is shown as text through
 * {@link inertText} (never as HTML), so a message holding markup or script stays words on screen.
 */
import { html, nothing, type TemplateResult } from 'lit';
import type { ChatSession, ChatUser, Message } from '../shared/types.js';
import { inertText } from '../ui/inert-text.js';
import type { Page } from './admin-api.js';
import type { BusiestUsers } from './busiest-users.js';
import type { UsageFormat } from './usage-format.js';

export interface ListActions {
  openUser(user: ChatUser): void;
  openSession(session: ChatSession): void;
  openMessage(message: Message): void;
  sessionsPage(page: number): void;
  messagesPage(page: number): void;
}

/** Previous / Next of a listing, each disabled when there is nothing that way. */
export function pagerTemplate(label: string, page: Page<unknown>, go: (page: number) => void): TemplateResult {
  const last = Math.max(1, page.totalPages);
  return html`<nav part="pager" class="pager" aria-label=${label}>
    <button type="button" ?disabled=${page.page <= 1} @click=${() => go(page.page - 1)}>Previous</button>
    <span>${page.totalPages ? `Page ${page.page} of ${last}` : 'None'}</span>
    <button type="button" ?disabled=${page.page >= last} @click=${() => go(page.page + 1)}>Next</button>
  </nav>`;
}

export function usersTemplate(
  busiest: BusiestUsers,
  selected: string | undefined,
  format: UsageFormat,
  actions: ListActions,
): TemplateResult {
  const scope = busiest.complete
    ? `Every user active in the range (${format.number(busiest.read)}), ranked by the messages each has sent in all.`
    : `The ${format.count(busiest.read, 'user', 'users')} active most recently (of ${format.number(busiest.totalUsers)}), ranked by the messages each has sent in all.`;
  return html`<p class="note">${scope} Choose a user to see their sessions.</p>
    ${
      busiest.users.length
        ? html`<ol part="users" class="users">
          ${busiest.users.map(
            (user) => html`<li>
              <button type="button" part="user" data-user-id=${inertText(user.id)} aria-pressed=${user.id === selected ? 'true' : 'false'} @click=${() => actions.openUser(user)}>
                <span class="name">${inertText(user.name) || inertText(user.id)}</span>
                <span class="count">${format.number(user.messageCount)} sent</span>
                <span class="sub">${inertText(user.id)} · last ${format.time(user.lastMessageAt)}</span>
              </button>
            </li>`,
          )}
        </ol>`
        : html`<p class="empty">No user was active in this range.</p>`
    }`;
}

export function sessionsTemplate(
  user: ChatUser,
  sessions: Page<ChatSession>,
  selected: string | undefined,
  format: UsageFormat,
  actions: ListActions,
): TemplateResult {
  // With the id beside the name: many users share a name (every anonymous visitor is "Visitor").
  const who = user.name ? `${inertText(user.name)} (${inertText(user.id)})` : inertText(user.id);
  return html`<h3 id="sessions-heading" tabindex="-1">Sessions of ${who}, newest first</h3>
    ${
      sessions.items.length
        ? html`<ol part="sessions" class="sessions" aria-labelledby="sessions-heading">
          ${sessions.items.map(
            (session) => html`<li>
              <button type="button" part="session" data-session-id=${inertText(session.id)} aria-pressed=${session.id === selected ? 'true' : 'false'} @click=${() => actions.openSession(session)}>
                <span class="name">${format.time(session.createdAt)}</span>
                <span class="count">${format.count(session.messageCount, 'message', 'messages')}</span>
                <span class="sub">last ${format.time(session.lastMessageAt)}</span>
              </button>
            </li>`,
          )}
        </ol>`
        : html`<p class="empty">This user has no sessions.</p>`
    }
    ${pagerTemplate('Pages of sessions', sessions, actions.sessionsPage)}`;
}

export function messagesTemplate(
  messages: Page<Message>,
  selected: string | undefined,
  format: UsageFormat,
  actions: ListActions,
): TemplateResult {
  return html`<h3 id="messages-heading" tabindex="-1">Messages of the session, newest first</h3>
    ${
      messages.items.length
        ? html`<ol part="messages" class="messages" aria-labelledby="messages-heading">
          ${messages.items.map(
            (message) => html`<li>
              <button type="button" part="message" data-message-id=${inertText(message.id)} class=${message.senderType === 'User' ? 'from-user' : 'from-bot'} aria-pressed=${message.id === selected ? 'true' : 'false'} @click=${() => actions.openMessage(message)}>
                <span class="sub">${inertText(message.senderType)} · ${format.time(message.createdAt)}</span>
                <span class="text">${inertText(message.text)}</span>
              </button>
            </li>`,
          )}
        </ol>`
        : html`<p class="empty">This session has no messages.</p>`
    }
    ${pagerTemplate('Pages of messages', messages, actions.messagesPage)}`;
}

export function messageDetailTemplate(message: Message, format: UsageFormat): TemplateResult {
  const row = (label: string, value: string) => html`<dt>${label}</dt><dd>${value}</dd>`;
  return html`<section part="message-detail" class="detail" tabindex="-1" aria-labelledby="detail-heading">
    <h3 id="detail-heading">Message ${inertText(message.id)}</h3>
    <dl>
      ${row('From', inertText(message.senderType))} ${row('Sent', format.time(message.createdAt))} ${row('User', inertText(message.chatUserId))}
      ${row('Session', inertText(message.chatSessionId))} ${row('Tokens', format.number(Number(message.tokenCount) || 0))}
      ${typeof message.responseTime === 'number' ? row('Response time', `${message.responseTime} s`) : nothing}
      ${message.url ? row('Attachment', inertText(message.url)) : nothing}
    </dl>
    <p class="text">${inertText(message.text)}</p>
  </section>`;
}
