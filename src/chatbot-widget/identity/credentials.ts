/**
 * Which cookies the page sends with each call to the handler, from the `credentials` attribute: its
 * own origin's (`same-origin`), or also a handler's on another origin (`include`), for a handler
 * whose `identify` reads the site's login. Anything else a page sets counts as the default.
 */
import type { HandlerCredentials } from '../io/transport.js';

export const credentialsOf = (value: unknown): HandlerCredentials => (value === 'include' ? 'include' : 'same-origin');
