/**
 * The panel's title bar: the history button (a toggle), the title (the dialog's name), the
 * transcript's download button and, floating, the close button.
 */
import { html, nothing } from 'lit';
import { inertText } from '../../ui/inert-text.js';
import type { WidgetStrings } from '../../ui/strings.js';
import { closeIcon } from '../icons.js';
import { downloadIcon, historyIcon } from './icons.js';

/** What the header shows and what its buttons do. */
export interface PanelHeaderView {
  readonly t: WidgetStrings;
  /** The host's `heading` (shown as text; the language's heading when empty). */
  readonly heading: unknown;
  readonly floating: boolean;
  readonly historyOpen: boolean;
  /** Whether the conversation shown has anything to download. */
  readonly downloadable: boolean;
  toggleHistory(): void;
  download(): void;
  close(): void;
}

export function renderPanelHeader(view: PanelHeaderView) {
  const { t } = view;
  return html`<div part="header">
    <button part="history-button" class="icon-button" type="button" aria-pressed=${view.historyOpen ? 'true' : 'false'}
      aria-label=${view.historyOpen ? t.hideHistory : t.showHistory} @click=${view.toggleHistory}>${historyIcon}</button>
    <h2 id="heading" dir="auto">${inertText(view.heading) || t.heading}</h2>
    <button part="download-button" class="icon-button" type="button" aria-label=${t.downloadTranscript}
      ?disabled=${!view.downloadable} @click=${view.download}>${downloadIcon}</button>
    ${
      view.floating
        ? html`<button part="close-button" class="icon-button" type="button" aria-label=${t.closeChat} @click=${view.close}>${closeIcon}</button>`
        : nothing
    }
  </div>`;
}
