import { css, unsafeCSS } from 'lit';
import { conversationStyles } from '../conversation.styles.js';
import { CLIPBOARD_BUFFER_CLASS } from './clipboard.js';

/**
 * Text fields match :focus-visible even when clicked or focused on opening (the browser expects
 * typing), so theirs is the quiet kind: the 1px border becomes a 2px accent line. An outline,
 * not a box-shadow, so forced-colours (high-contrast) mode still draws it. (The history pane's
 * search box is given the same with its code: history-pane.ts.)
 */
const fieldFocus = css`
  [part='input']:focus-visible,
  .attachment input:focus-visible {
    outline-offset: -1px;
    border-color: var(--_focus);
  }
`;

/**
 * The launcher's unread badge: drawn only once the panel's code is here, as that code counts the
 * replies, so its look comes with it.
 */
const unreadBadge = css`
  [part='unread-badge'] {
    position: absolute;
    inset-block-start: -4px;
    inset-inline-end: -4px;
    min-inline-size: 22px;
    block-size: 22px;
    padding: 0 6px;
    border-radius: 999px;
    border: 2px solid var(--_bg);
    background: var(--chatbot-badge-background, #b91c1c);
    color: var(--chatbot-badge-text, #ffffff);
    font-size: 12px;
    font-weight: 700;
    line-height: 18px;
    text-align: center;
  }
`;

/**
 * The panel's styles: its conversation's (in the first load, for the snapshot: conversation.styles.ts)
 * and what only the panel draws: the history pane's place (its sessions and search bring their
 * own styles, history-pane.ts, as does the message a search result opened at), the bar over another
 * conversation, a message pending or not sent, the typing indicator, the error line and the
 * quota notice (a panel showing any of these keeps no snapshot), focus in the fields, the clipboard fallback's hidden field;
 * and the launcher's unread badge. Loaded with the panel's code.
 */
export const panelStyles = [
  conversationStyles,
  unreadBadge,
  css`
  [part='history'] {
    position: absolute;
    inset: 0;
    z-index: 2;
    overflow-y: auto;
    background: var(--_bg);
    padding: 8px;
  }
  [part='history'] h3 {
    margin: 4px 6px 8px;
    font-size: 0.95em;
  }
  .link-button {
    border: 0;
    background: none;
    color: var(--_link);
    text-decoration: underline;
    cursor: pointer;
    padding: 2px;
  }
  [part~='message-pending'] .bubble {
    opacity: 0.75;
  }
  [part~='message-failed'] .bubble {
    outline: 2px solid var(--_error-text);
  }
  [part~='message-failed'] .meta {
    color: var(--_error-text);
  }
  [part='retry-button'] {
    border: 1px solid currentColor;
    border-radius: 999px;
    background: var(--_bg);
    color: var(--_error-text);
    padding: 0 10px;
    font-size: 1em;
    cursor: pointer;
  }
  [part='retry-button']:disabled {
    cursor: not-allowed;
    opacity: 0.7;
  }
  [part='typing'] {
    align-self: flex-start;
    display: inline-flex;
    gap: 4px;
    padding: 12px 14px;
    border-radius: var(--_radius);
    background: var(--_bot-bg);
  }
  [part='typing'] span[aria-hidden] {
    inline-size: 7px;
    block-size: 7px;
    border-radius: 50%;
    background: var(--_muted);
    animation: blink 1.2s infinite ease-in-out both;
  }
  [part='typing'] span[aria-hidden]:nth-child(2) {
    animation-delay: 0.2s;
  }
  [part='typing'] span[aria-hidden]:nth-child(3) {
    animation-delay: 0.4s;
  }
  @keyframes blink {
    0%,
    80%,
    100% {
      opacity: 0.3;
    }
    40% {
      opacity: 1;
    }
  }
  [part='quota-notice'] {
    margin: 0;
    padding: 0.25rem 0.75rem;
  }
  .message-count {
    margin: 0;
    padding-inline: 4px;
    font-size: 0.8em;
    color: var(--_muted);
  }
  .message-count [data-over] {
    color: var(--_error-text);
    font-weight: 600;
  }
  [part='error'] {
    display: flex;
    align-items: flex-start;
    gap: 8px;
    margin: 0 12px 8px;
    padding: 8px 10px;
    border-radius: 10px;
    background: var(--_error-bg);
    color: var(--_error-text);
    font-size: 0.9em;
  }
  [part='error'] span {
    flex: 1;
  }
  [part='error'] button {
    border: 0;
    background: none;
    color: inherit;
    cursor: pointer;
    text-decoration: underline;
  }
  .${unsafeCSS(CLIPBOARD_BUFFER_CLASS)} {
    position: fixed;
    inset-block-start: 0;
    inset-inline-start: 0;
    inline-size: 1px;
    block-size: 1px;
    opacity: 0;
    pointer-events: none;
  }
  ${fieldFocus}
`,
];
