/**
 * A connection: the calls to one handler for one visitor (or signed-in user). A connection ends
 * (its `signal` aborts) when the endpoint changes, the element is removed or the visitor is reset;
 * work that was under way for it then stops where it stands instead of writing a stale view, in
 * the way `@lit/task` aborts a stale run. Controllers check `signal.aborted` after each await, and
 * hand the signal to fetch.
 */
import type { Visitor } from './visitor.js';

export interface Connection {
  /** Who the calls speak for, and the calls themselves. */
  readonly visitor: Visitor;
  readonly signal: AbortSignal;
}

/** Thrown (and swallowed) when a connection ended while its work was waiting. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}
