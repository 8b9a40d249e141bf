import { css } from 'lit';
import { themeTokens } from '../theme.styles.js';

/** What the element needs before its view has loaded: the theme and its box. */
export const hostStyles = [
  themeTokens,
  css`
    :host {
      display: block;
      min-inline-size: 0;
      font-family: var(--_font);
      font-size: var(--_font-size);
      line-height: 1.45;
      color: var(--_text);
      background: var(--_bg);
    }
    :host([hidden]),
    [hidden] {
      display: none !important;
    }
    .loading {
      margin: 0;
      padding: 1rem;
      color: var(--_muted);
    }
  `,
];
