/**
 * The error text the backend's `hostile-` namespaces answer sends with (see backend.ts): HTML
 * and a javascript: link, as a compromised upstream might put in a 400 body. In its own file so
 * the browser tests can import it without the backend's Node imports.
 */
export const HOSTILE_ERROR = '<img src=x onerror="window.__pwned=1"><b style="color:red">bold</b> [link](javascript:window.__pwned=1)';
