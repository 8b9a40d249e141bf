/**
 * What the page sends with each call to the handler: its own origin's cookies (`same-origin`), or
 * also a handler's on another origin (`include`), for a handler whose `identify` reads the site's
 * login (the `credentials` attribute). Anything else a page sets counts as the default.
 */
export type HandlerCredentials = 'same-origin' | 'include';

export const credentialsOf = (value: unknown): HandlerCredentials => (value === 'include' ? 'include' : 'same-origin');
