/**
 * What the conversation's controllers share: the host element they render through
 * (`ConversationHost`) and how a failure is shown and reported (`ControllerContext`). The
 * connection a call works for is handed to them on its own (identity/connection.ts).
 */
import type { ReactiveControllerHost } from 'lit';
import type { ChatbotErrorDetail } from '../../ui/events.js';
import type { HandlerCredentials, RequestFailure } from '../io/transport.js';

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
