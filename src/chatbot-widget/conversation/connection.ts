/**
 * What every controller of the conversation shares: the host element it renders through, and
 * the connection to one handler for one visitor (or signed-in user). A connection ends (its `signal` aborts) when the
 * endpoint changes, the element is removed or the visitor is reset; work that was under way for
 * it then stops where it stands instead of writing a stale view, in the way `@lit/task` aborts a
 * stale run. Controllers check `signal.aborted` after each await, and hand the signal to fetch.
 */
import type { ReactiveControllerHost } from 'lit';
import type { ChatbotErrorDetail } from '../../ui/events.js';
import type { HandlerCredentials, RequestFailure } from './transport.js';
import type { Visitor } from '../identity/visitor.js';

export interface ConversationHost extends ReactiveControllerHost, HTMLElement {
  readonly pageSize: number;
  readonly userName: string;
  /** What the page sends with each call (the `credentials` attribute). */
  readonly credentials: HandlerCredentials;
  /** The panel is shown (open, or inline). */
  readonly isShown: boolean;
}

/** Describes a failure in the visitor's words and reports it (`chatbot-error`). */
export type ReportFailure = (failure: RequestFailure, localId?: string) => ChatbotErrorDetail;

export interface Connection {
  /** Who the calls speak for, and the calls themselves. */
  readonly visitor: Visitor;
  readonly signal: AbortSignal;
}

/** Thrown (and swallowed) when a connection ended while its work was waiting. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError';
}

/** What controllers need from the one that owns them: redraw, and report a failure in words. */
export interface ControllerContext {
  readonly host: ConversationHost;
  /** Shows and reports a failure (the `error` part and `chatbot-error`). */
  fail(failure: RequestFailure, localId?: string): void;
  /**
   * A call made for a connection failed: shown as {@link fail} says, unless the connection ended
   * meanwhile or the error is no call's failure (the abort of an ended connection).
   */
  failedCall(error: unknown, signal: AbortSignal): void;
  /** Tells the other tabs that IndexedDB changed. */
  changed(): void;
}
