import { css } from 'lit';

/**
 * The element's box before its view has loaded: nothing more, because this ships with every page
 * that loads the widget. The theme and the view's own styles come with the view.
 */
export const hostStyles = css`
  :host {
    display: block;
    min-inline-size: 0;
  }
  :host([hidden]),
  [hidden] {
    display: none !important;
  }
`;
