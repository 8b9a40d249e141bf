import type { LitElement } from 'lit';

/**
 * What the usage view and its range form take from `<chatbot-usage>`: its settings, its render
 * root and Lit's update cycle. The element builds the view, so the view names this shape rather
 * than the element's class, and imports run one way: element -> view -> form.
 */
export interface UsageHost extends LitElement {
  readonly endpoint: string;
  readonly adminToken: string;
  /** The range chosen: the form sets it, and the element then loads it. */
  from: string;
  to: string;
}
