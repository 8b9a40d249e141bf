import { css } from 'lit';

/**
 * The widgets' theme tokens: each private `--_name` reads the public `--chatbot-*` custom property
 * a site sets, with a light default on `:host` and dark defaults for `theme="dark"` (and
 * `theme="auto"` when the system asks for dark). Every text pair meets WCAG AA (4.5:1).
 * Both elements use them, so they look alike with the same settings; each adds its own tokens.
 */
const dark = css`
  --_bg: var(--chatbot-background, #111827);
  --_surface: var(--chatbot-surface, #1f2937);
  --_text: var(--chatbot-text, #f3f4f6);
  --_muted: var(--chatbot-muted, #a1a9b8);
  --_border: var(--chatbot-border, #374151);
  --_accent: var(--chatbot-accent, #93c5fd);
  --_on-accent: var(--chatbot-on-accent, #0b1220);
  --_error-bg: var(--chatbot-error-background, #450a0a);
  --_error-text: var(--chatbot-error-text, #fecaca);
  color-scheme: dark;
`;

export const themeTokens = css`
  :host {
    --_bg: var(--chatbot-background, #ffffff);
    --_surface: var(--chatbot-surface, #f3f4f6);
    --_text: var(--chatbot-text, #111827);
    --_muted: var(--chatbot-muted, #4b5563);
    --_border: var(--chatbot-border, #d1d5db);
    --_accent: var(--chatbot-accent, #1d4ed8);
    --_on-accent: var(--chatbot-on-accent, #ffffff);
    --_error-bg: var(--chatbot-error-background, #fef2f2);
    --_error-text: var(--chatbot-error-text, #991b1b);
    --_focus: var(--chatbot-focus, var(--_accent));
    --_radius: var(--chatbot-radius, 14px);
    --_font: var(--chatbot-font, system-ui, sans-serif);
    --_font-size: var(--chatbot-font-size, 15px);
    color-scheme: light;
  }
  :host([theme='dark']) {
    ${dark}
  }
  @media (prefers-color-scheme: dark) {
    :host([theme='auto']) {
      ${dark}
    }
  }
`;

/**
 * Rules both elements' shadow roots start from: border-box sizing, form controls in the
 * element's font, the focus ring (only where the browser shows :focus-visible), and the
 * visually hidden text screen readers still read.
 */
export const baseRules = css`
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  button,
  textarea,
  input {
    font: inherit;
    color: inherit;
  }
  :focus-visible {
    outline: 2px solid var(--_focus);
    outline-offset: 2px;
  }
  .sr-only {
    position: absolute;
    inline-size: 1px;
    block-size: 1px;
    overflow: hidden;
    clip: rect(0 0 0 0);
    white-space: nowrap;
  }
`;
