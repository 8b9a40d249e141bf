import { css } from 'lit';
import { conversationExtrasStyles } from './conversation-extras.styles.js';

/**
 * The panel's own tokens on top of the shared theme (theme.styles.ts): bubbles, links and code.
 * Dark defaults for `theme="dark"`, and `theme="auto"` when the system asks for dark; every
 * colour pair meets WCAG AA (4.5:1 for text) against its background.
 */
const dark = css`
  --_user-bg: var(--chatbot-user-background, #1e40af);
  --_user-text: var(--chatbot-user-text, #ffffff);
  --_bot-bg: var(--chatbot-bot-background, #1f2937);
  --_bot-text: var(--chatbot-bot-text, #f3f4f6);
  --_link: var(--chatbot-link, #93c5fd);
  --_user-link: var(--chatbot-user-link, #ffffff);
  --_code-bg: var(--chatbot-code-background, #0b1220);
`;

/**
 * Scroll shadows on a code block wider than its bubble: a shade at each edge that hides more
 * code. The shades are fixed to the box (`scroll`); the covers that hide them at either end of
 * the code travel with it (`local`), so a shade shows only where code is cut off. The shade is
 * the text colour, so it shows in light and dark themes; left/right are physical because code
 * always reads and scrolls left to right, right-to-left pages included. Where `color-mix()` is
 * unknown the images drop out and the plain background colour stays.
 */
const scrollShadows = css`
  .bubble pre {
    --_shade: color-mix(in srgb, var(--_text) 30%, transparent);
    background-color: var(--_code-bg);
    background-image: linear-gradient(to right, var(--_code-bg) 30%, transparent), linear-gradient(to left, var(--_code-bg) 30%, transparent),
      linear-gradient(to right, var(--_shade), transparent), linear-gradient(to left, var(--_shade), transparent);
    background-position: left, right, left, right;
    background-size: 32px 100%, 32px 100%, 12px 100%, 12px 100%;
    background-repeat: no-repeat;
    background-attachment: local, local, scroll, scroll;
  }
`;

/**
 * The panel's conversation as it is in view: header, messages, composer. In the first load, as a
 * snapshot of the panel is drawn with them before the panel's code arrives (panel-snapshot.ts);
 * the panel draws with the same rules, so replacing the snapshot moves nothing. What a snapshot
 * never shows (the history pane, another conversation, a message not sent or not answered yet,
 * the error line, the quota notice, focus) is styled in the panel's chunk (panel/panel.styles.ts). They join the shell's styles (shell.styles.ts), whose
 * rules for the whole shadow root (box sizing, focus ring, reduced motion) apply here too.
 */
export const conversationStyles = css`
  :host {
    --_user-bg: var(--chatbot-user-background, #1d4ed8);
    --_user-text: var(--chatbot-user-text, #ffffff);
    --_bot-bg: var(--chatbot-bot-background, #f3f4f6);
    --_bot-text: var(--chatbot-bot-text, #111827);
    --_link: var(--chatbot-link, #1d4ed8);
    --_user-link: var(--chatbot-user-link, #ffffff);
    --_code-bg: var(--chatbot-code-background, #e5e7eb);
  }
  :host([theme='dark']) {
    ${dark}
  }
  @media (prefers-color-scheme: dark) {
    :host([theme='auto']) {
      ${dark}
    }
  }
  ${conversationExtrasStyles}
  [part='header'] {
    display: flex;
    align-items: center;
    gap: 6px;
    padding: 8px 10px;
    border-block-end: 1px solid var(--_border);
  }
  .icon-button:disabled {
    opacity: 0.45;
    cursor: default;
  }
  [part='header'] h2 {
    flex: 1;
    margin: 0;
    font-size: 1.05em;
    font-weight: 650;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .body {
    position: relative;
    flex: 1;
    min-block-size: 0;
    display: flex;
  }
  .meta,
  .note {
    font-size: 0.8em;
    color: var(--_muted);
  }
  .chat {
    flex: 1;
    min-inline-size: 0;
    display: flex;
    flex-direction: column;
  }
  [part='messages'] {
    position: relative;
    flex: 1;
    overflow-y: auto;
    overflow-anchor: none;
    padding: 12px;
    display: flex;
    flex-direction: column;
    gap: 10px;
  }
  .empty {
    margin: auto;
    color: var(--_muted);
    text-align: center;
  }
  [part='load-older'] {
    align-self: center;
  }
  /* A message never gets wider than the list: the flex items may shrink below their content
     (min-inline-size: 0), long words, URLs and inline code wrap anywhere, and a code block
     scrolls inside its bubble instead of widening it. */
  [part~='message'],
  .greeting {
    display: flex;
    flex-direction: column;
    min-inline-size: 0;
    max-inline-size: 85%;
    align-items: flex-start;
  }
  /* Code needs every pixel of a narrow panel: a reply holding a code block takes its whole width. */
  [part~='message-bot']:has(pre) {
    align-self: stretch;
    align-items: stretch;
    max-inline-size: none;
  }
  [part~='message-user'] {
    align-self: flex-end;
    align-items: flex-end;
  }
  .bubble {
    min-inline-size: 0;
    max-inline-size: 100%;
    padding: 8px 12px;
    border-radius: var(--_radius);
    background: var(--_bot-bg);
    color: var(--_bot-text);
    overflow-wrap: anywhere;
  }
  /* The visitor's text is plain: its own line breaks are kept (Markdown replies collapse a
     single newline to a space, as Markdown does). */
  .plain {
    white-space: pre-wrap;
  }
  [part~='message-bot'] .bubble,
  [part~='message-agent'] .bubble,
  .greeting .bubble {
    border-end-start-radius: 4px;
  }
  /* A person's reply is named above its bubble. */
  .sender {
    font-size: 0.8em;
    font-weight: 600;
    color: var(--_muted);
  }
  /* A notice (someone joined, the conversation closed) is no one's reply: a quiet line in the flow. */
  [part~='message-system'] {
    align-self: center;
    align-items: center;
    text-align: center;
  }
  [part~='message-system'] .bubble {
    padding-block: 0;
    background: none;
    color: var(--_muted);
    font-size: 0.85em;
  }
  [part~='message-user'] .bubble {
    background: var(--_user-bg);
    color: var(--_user-text);
    border-end-end-radius: 4px;
  }
  /* Isolated: a bidi override in the text before a link cannot reorder what the link says. */
  .bubble a {
    color: var(--_link);
    unicode-bidi: isolate;
  }
  [part~='message-user'] .bubble a {
    color: var(--_user-link);
  }
  .bubble p,
  .bubble ul,
  .bubble ol,
  .bubble pre,
  .bubble blockquote {
    margin: 0 0 0.5em;
  }
  .bubble > :last-child {
    margin-block-end: 0;
  }
  .bubble ul,
  .bubble ol {
    padding-inline-start: 1.3em;
  }
  .bubble code {
    font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
    font-size: 0.9em;
    background: var(--_code-bg);
    border-radius: 4px;
    padding: 0 3px;
    overflow-wrap: anywhere;
  }
  ${scrollShadows}
  .bubble pre {
    max-inline-size: 100%;
    overflow-x: auto;
    border-radius: 8px;
    padding: 8px;
    white-space: pre;
    /* Code reads left to right on right-to-left pages too, and scrolls that way. */
    direction: ltr;
    text-align: left;
  }
  .bubble pre code {
    padding: 0;
    background: none;
    overflow-wrap: normal;
  }
  .bubble blockquote {
    border-inline-start: 3px solid var(--_border);
    padding-inline-start: 8px;
  }
  /* A table wider than its bubble scrolls sideways inside it: the panel never widens. Its words
     keep whole (the bubble breaks anywhere), so a wide table scrolls instead of squeezing. */
  .table-scroll {
    overflow-x: auto;
    margin-block-end: 0.5em;
  }
  .bubble table {
    border-collapse: collapse;
    overflow-wrap: normal;
    font-size: 0.9em;
  }
  .bubble th,
  .bubble td {
    padding: 4px 8px;
    border: 1px solid var(--_border);
    vertical-align: top;
  }
  /* Header cells are centred by default; they follow their column like the others. */
  .bubble th {
    background: var(--_code-bg);
    text-align: start;
  }
  .bubble .align-center {
    text-align: center;
  }
  .bubble .align-end {
    text-align: end;
  }
  .meta {
    display: flex;
    align-items: center;
    gap: 8px;
    margin-block-start: 2px;
  }
  form {
    display: flex;
    flex-direction: column;
    gap: 6px;
    padding: 10px;
    border-block-start: 1px solid var(--_border);
  }
  .row {
    display: flex;
    align-items: flex-end;
    gap: 6px;
  }
  [part='input'],
  .attachment input {
    flex: 1;
    min-inline-size: 0;
    resize: none;
    max-block-size: 8em;
    field-sizing: content;
    padding: 8px 10px;
    border: 1px solid var(--_border);
    border-radius: 10px;
    background: var(--_bg);
  }
  [part='send-button'] {
    padding: 8px 14px;
    border: 0;
    border-radius: 10px;
    background: var(--_accent);
    color: var(--_on-accent);
    font-weight: 600;
    cursor: pointer;
  }
  [part='send-button']:disabled {
    cursor: not-allowed;
    opacity: 0.55;
  }
  .attachment {
    display: flex;
    gap: 6px;
    align-items: center;
  }
`;
