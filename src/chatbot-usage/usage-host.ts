import type { ReactiveControllerHost } from 'lit';

/**
 * What the usage view and its range form take from `<chatbot-usage>`: its settings, its render
 * root and Lit's update cycle. The element builds the view, so the view names this shape rather
 * than the element's class, and imports run one way: element -> view -> form.
 */
export interface UsageHost extends ReactiveControllerHost, HTMLElement {
  readonly renderRoot: HTMLElement | DocumentFragment;
  readonly endpoint: string;
  readonly adminToken: string;
  /** First day of the range (`YYYY-MM-DD`, inclusive): the form sets it, and the element then loads the range. */
  from: string;
  /** End of the range (`YYYY-MM-DD`, exclusive), set as `from` is. */
  to: string;
}
