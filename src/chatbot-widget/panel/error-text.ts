import type { ChatbotErrorDetail, ChatbotErrorKind } from '../../ui/events.js';
import { MINUTE_MS } from '../../shared/limits.js';
import type { RequestFailure } from '../io/transport.js';
import { format } from '../../ui/format-text.js';
import type { WidgetStrings } from '../../ui/strings.js';

/**
 * A failed request in the visitor's words (the `error` part and `chatbot-error`'s `detail`): a
 * failure with the `localId` of a message is that message's send, one without is a read. A
 * refusal that asks for more than a minute's wait is a day's budget spent: `spent(resetAt)` says
 * until when, as the quota notice does, rather than a count of thousands of seconds.
 */
export function describeFailure(
  t: WidgetStrings,
  failure: RequestFailure,
  localId: string | undefined,
  spent: (resetAt: number) => string,
): ChatbotErrorDetail {
  const wait = failure.retryAfter ?? 1;
  const fixed: Partial<Record<ChatbotErrorKind, string>> = {
    offline: t.errorOffline,
    unreachable: t.errorUnreachable,
    timeout: t.errorTimeout,
    server: t.errorServer,
    identity: t.errorIdentity,
    'signed-out': t.errorSignedOut,
  };
  const message =
    failure.kind === 'rate-limited'
      ? wait * 1000 > MINUTE_MS
        ? spent(Date.now() + wait * 1000)
        : format(t.errorRateLimited, { seconds: wait })
      : (fixed[failure.kind] ??
        (failure.status === 413
          ? t.errorTooLong
          : format(localId ? t.errorRejected : t.errorLoadRejected, { detail: failure.detail || String(failure.status) })));
  return {
    kind: failure.kind,
    message,
    status: failure.status,
    ...(failure.retryAfter ? { retryAfter: failure.retryAfter } : {}),
    ...(localId ? { localId } : {}),
  };
}
