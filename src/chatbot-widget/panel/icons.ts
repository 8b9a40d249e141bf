import { html } from 'lit';

/** The panel's icons: inline SVG (no request, nothing a strict CSP refuses), hidden from assistive technology. */
export const historyIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M3 12a9 9 0 1 0 3-6.7L3 8" /><path d="M3 3v5h5M12 7v5l3 2" /></svg>`;
export const clipIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M21 11l-8.5 8.5a5 5 0 0 1-7-7L14 4a3.5 3.5 0 0 1 5 5l-8.5 8.5a2 2 0 0 1-3-3L15 7" /></svg>`;
/** Arrow into a tray: the transcript's download button. */
export const downloadIcon = html`<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M12 4v11M7 10l5 5 5-5M5 20h14" /></svg>`;
