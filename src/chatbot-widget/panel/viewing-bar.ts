/**
 * The bar over a past session opened from the history pane: the session's date, and the way
 * back to the current conversation. Only the pane opens a past session, so the bar comes with
 * the pane's code (and its look with the pane's styles, history-pane.ts).
 */
import { html, nothing } from 'lit';
import type { WidgetStrings } from '../../ui/strings.js';
import type { HistoryPaneController } from './history-pane-controller.js';
import type { TimeFormat } from './time-format.js';

export function renderViewingBar(pane: HistoryPaneController, t: WidgetStrings, time: TimeFormat) {
  const { viewing } = pane.conversation;
  if (!viewing) return nothing;
  const viewed = pane.history.sessions.find((s) => s.id === viewing);
  return html`<div class="viewing"><span>${viewed ? time.format(viewed.createdAt, true) : ''}</span>
    <button class="link-button" type="button" @click=${pane.backToChat}>${t.backToChat}</button></div>`;
}
