import type { ChatbotErrorDetail, ChatbotErrorKind } from '../../events.js';
import type { RequestFailure } from '../../controllers/transport.js';
import { format, type WidgetStrings } from '../../strings.js';

/** A failed request in the visitor's words (the `error` part and `chatbot-error`'s `detail`). */
export function describeFailure(t: WidgetStrings, failure: RequestFailure, localId?: string): ChatbotErrorDetail {
  const fixed: Partial<Record<ChatbotErrorKind, string>> = {
    offline: t.errorOffline,
    unreachable: t.errorUnreachable,
    timeout: t.errorTimeout,
    server: t.errorServer,
    identity: t.errorIdentity,
  };
  const message =
    failure.kind === 'rate-limited'
      ? format(t.errorRateLimited, { seconds: failure.retryAfter ?? 1 })
      : (fixed[failure.kind] ??
        (failure.status === 413 ? t.errorTooLong : format(t.errorRejected, { detail: failure.detail || String(failure.status) })));
  return {
    kind: failure.kind,
    message,
    status: failure.status,
    ...(failure.retryAfter ? { retryAfter: failure.retryAfter } : {}),
    ...(localId ? { localId } : {}),
  };
}
