/**
 * Styles of what the panel draws around the messages: the suggested prompts of an empty
 * conversation (its greeting is laid out as a bot message, in conversation.styles.ts), the copy
 * and feedback buttons under a bot message, and a code block's bar with its copy button (sized as those). Colours are the theme's tokens, so both themes and the
 * host's `--chatbot-*` values apply.
 */
import { css } from 'lit';

export const conversationExtrasStyles = css`
  .suggestions {
    display: flex;
    flex-wrap: wrap;
    gap: 6px;
    justify-content: flex-end;
    padding: 0 12px 8px;
  }
  [part='suggestion'] {
    padding: 6px 12px;
    border: 1px solid var(--_accent);
    border-radius: 999px;
    background: var(--_bg);
    color: var(--_text);
    cursor: pointer;
    text-align: start;
    overflow-wrap: anywhere;
  }
  [part='suggestion']:hover:not(:disabled) {
    background: var(--_surface);
  }
  [part='suggestion']:disabled {
    cursor: not-allowed;
    opacity: 0.55;
  }
  .meta .icon-button,
  [part='code-copy-button'] {
    inline-size: 28px;
    block-size: 28px;
    color: var(--_muted);
  }
  .meta .icon-button svg,
  [part='code-copy-button'] svg {
    inline-size: 16px;
    block-size: 16px;
  }
  .meta .icon-button[aria-pressed='true'] {
    color: var(--_accent);
  }
  /* The copy button has a bar of its own above the code, so it never covers a line of it; code
     reads left to right on every page, so the button is at the bar's right end in right-to-left
     bubbles too. */
  .code-block {
    margin-block-end: 0.5em;
    border-radius: 8px;
    background: var(--_code-bg);
    direction: ltr;
  }
  .code-bar {
    display: flex;
    justify-content: flex-end;
  }
  .bubble .code-block pre {
    margin: 0;
    padding-block-start: 0;
  }
`;
