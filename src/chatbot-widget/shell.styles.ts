import { css } from 'lit';
import { baseRules, themeTokens } from '../ui/theme.styles.js';

/*
 * Focus is drawn in the accent's colour: #1d4ed8 is 6.7:1 on white and 6.1:1 on the surface
 * (WCAG non-text contrast asks 3:1); the dark accent #93c5fd is 9.8:1 on its background. A
 * custom --chatbot-accent should keep 3:1 too, or set --chatbot-focus. (Comments live out here,
 * not in the CSS: the bundle ships the CSS text as written.)
 */

/*
 * Text properties inherit into the shadow DOM from wherever the page puts the element: a site's
 * `text-align: center` (Vite's React template has one on #root) would centre every reply. The
 * host starts them afresh (the `font` shorthand resets style, weight, variant and stretch too),
 * and lays its text out horizontally on a page set vertically (a chat reads in lines across, and
 * the floating panel is bounded by the viewport's width and height); direction, visibility and
 * the cursor still come from the page.
 */

/*
 * A snapshot of the panel (panel-snapshot.ts) is laid out as the panel's contents, and contains
 * its painting: whatever classes and parts its stored nodes carry (the launcher's, fixed to the
 * viewport), nothing of it is drawn outside its own box.
 */

/*
 * The launcher's corner: `side` is end (the default) or start, which follow the page's direction
 * (logical insets: end is the left in a right-to-left page), or left or right, which a site picks
 * when it means that physical side whatever the direction; only those two set physical insets.
 */

/**
 * The styles of the first load: theme tokens, the launcher and the panel's frame. The panel's
 * contents bring their own (panel/panel.styles.ts) when its code loads; a snapshot of them is
 * drawn with those of its conversation (conversation.styles.ts), which ship in the first load.
 */
export const shellStyles = [
  themeTokens,
  baseRules,
  css`
  :host {
    --_width: var(--chatbot-width, 380px);
    --_height: var(--chatbot-height, 600px);
    --_offset: var(--chatbot-offset, 20px);
    --_launcher-size: var(--chatbot-launcher-size, 56px);
    --_z: var(--chatbot-z-index, 2147483000);
    display: block;
    font: var(--_font-size) / 1.45 var(--_font);
    color: var(--_text);
    text-align: start;
    text-indent: 0;
    text-transform: none;
    letter-spacing: normal;
    word-spacing: normal;
    white-space: normal;
    writing-mode: horizontal-tb;
  }
  :host([mode='inline']) {
    block-size: 100%;
    min-block-size: 320px;
  }
  [hidden] {
    display: none !important;
  }
  .icon-button {
    display: inline-grid;
    place-items: center;
    inline-size: 36px;
    block-size: 36px;
    border: 0;
    border-radius: 999px;
    background: transparent;
    cursor: pointer;
  }
  .icon-button:hover,
  .icon-button[aria-pressed='true'] {
    background: var(--_surface);
  }
  svg {
    inline-size: 22px;
    block-size: 22px;
    fill: none;
    stroke: currentColor;
    stroke-width: 2;
    stroke-linecap: round;
    stroke-linejoin: round;
  }

  [part='launcher'] {
    position: fixed;
    inset-block-end: var(--_offset);
    inset-inline-end: var(--_offset);
    z-index: var(--_z);
    display: grid;
    place-items: center;
    inline-size: var(--_launcher-size);
    block-size: var(--_launcher-size);
    border: 0;
    border-radius: 999px;
    background: var(--_accent);
    color: var(--_on-accent);
    box-shadow: 0 6px 24px rgb(0 0 0 / 0.25);
    cursor: pointer;
    transition: transform 0.15s ease;
  }
  [part='launcher']:hover {
    transform: scale(1.05);
  }
  [part='launcher'] svg {
    inline-size: 26px;
    block-size: 26px;
  }
  :host([side='start']) [part='launcher'],
  :host([side='start']) .floating[part='panel'] {
    inset-inline-end: auto;
    inset-inline-start: var(--_offset);
  }
  :host([side='left']) [part='launcher'],
  :host([side='left']) .floating[part='panel'] {
    left: var(--_offset);
    right: auto;
  }
  :host([side='right']) [part='launcher'],
  :host([side='right']) .floating[part='panel'] {
    left: auto;
    right: var(--_offset);
  }

  [part='panel'] {
    display: flex;
    flex-direction: column;
    overflow: hidden;
    background: var(--_bg);
    color: var(--_text);
  }
  .floating[part='panel'] {
    position: fixed;
    z-index: var(--_z);
    inset-block-end: calc(var(--_offset) * 2 + var(--_launcher-size) - 8px);
    inset-inline-end: var(--_offset);
    inline-size: min(var(--_width), calc(100vi - 2 * var(--_offset)));
    block-size: min(var(--_height), calc(100dvb - 3 * var(--_offset) - var(--_launcher-size)));
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
    box-shadow: 0 12px 48px rgb(0 0 0 / 0.28);
  }
  /* Opened by the visitor, it rises into view; a page loaded with it open shows it at once. */
  .rises[part='panel']:not([hidden]) {
    animation: rise 0.18s ease-out;
  }
  /* Closed, the floating panel stays laid out, unseen: nothing in it can be seen, pointed at,
     focused or read out, and opening has only to paint it (the panel draws its newest bubbles
     while closed). */
  .floating[part='panel'][hidden] {
    display: flex !important;
    visibility: hidden;
    pointer-events: none;
  }
  .inline[part='panel'] {
    block-size: 100%;
    border: 1px solid var(--_border);
    border-radius: var(--_radius);
  }
  @keyframes rise {
    from {
      opacity: 0;
      transform: translateY(12px);
    }
  }
  @media (max-width: 480px) {
    .floating[part='panel'] {
      inset: 0;
      inline-size: 100%;
      block-size: 100%;
      border: 0;
      border-radius: 0;
    }
  }
  .snapshot {
    display: flex;
    flex: 1;
    flex-direction: column;
    min-block-size: 0;
    contain: paint;
  }
  .loading {
    margin: auto;
    padding: 12px;
    color: var(--_muted);
    text-align: center;
  }
  /* The loading line shows only if the panel's code takes longer than a glance: from the HTTP
     cache it arrives in a frame or two, and a line seen for one frame is a flicker on every page
     load of a page that keeps the chat open. Screen readers hear it at once: it is transparent
     meanwhile, not hidden. */
  .loading[role='status'] {
    animation: show-late 0s 0.1s backwards;
  }
  @keyframes show-late {
    from {
      opacity: 0;
    }
  }
  .loading button {
    border: 0;
    background: none;
    color: inherit;
    text-decoration: underline;
    cursor: pointer;
  }
  /* The loading line's wait is no motion (it appears at once when it appears): it stays. */
  @media (prefers-reduced-motion: reduce) {
    *:not(.loading),
    *::before,
    *::after {
      animation: none !important;
      transition: none !important;
      scroll-behavior: auto !important;
    }
  }
`,
];
