/**
 * The cookie the test backend's `signedin-` handler reads as the site's login (backend.ts): its
 * value is the user id. Set by a test in its page, or in another browser context (devices.mjs).
 */
export const SIGNED_IN_COOKIE = 'member';
