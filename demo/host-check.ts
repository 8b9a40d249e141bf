/**
 * DNS rebinding: a page on another site can have its own name resolve to 127.0.0.1, and then
 * reaches a server on this machine as its own origin (the browser counts it as same-origin). So
 * while `npm start` listens on a loopback address, it answers only requests that name it by a
 * loopback name, as Vite's dev server does. With `HOST` set to another address the operator has
 * chosen who may reach it, and any name is answered.
 */

/**
 * `localhost` and names under it (`app.localhost`, a trailing dot allowed), an IPv4 address in
 * 127.0.0.0/8, `0.0.0.0` (which browsers on Linux and macOS send to this machine), or `[::1]`;
 * any port. A rebinding page cannot send these: its requests name its own host.
 */
const LOOPBACK_NAME = /^(?:(?:[a-z0-9-]+\.)*localhost\.?|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1\])(?::\d{1,5})?$/i;

/** Whether the server listens on loopback only: `localhost`, 127.0.0.0/8 or `::1`, however written. */
export function listensOnLoopback(host: string): boolean {
  const address = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return address === 'localhost' || address === '::1' || address === '0:0:0:0:0:0:0:1' || /^(?:::ffff:)?127(?:\.\d{1,3}){3}$/.test(address);
}

/** Whether a request's Host header names this machine by a loopback name. */
export function namesLoopback(hostHeader: string | undefined): boolean {
  return hostHeader !== undefined && LOOPBACK_NAME.test(hostHeader);
}
