import { html } from 'lit';

/** The launcher's icons (the panel's are in panel/icons.ts): inline SVG (no request, nothing a strict CSP refuses), hidden from assistive technology. */
export const chatIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1.1-4.4A8 8 0 1 1 21 12z" /></svg>`;
export const closeIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M6 6l12 12M18 6L6 18" /></svg>`;
