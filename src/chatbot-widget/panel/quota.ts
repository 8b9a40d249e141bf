/**
 * The day's sends spent: from the handler's rate headers (`remaining` 0 until `resetAt`), the
 * composer says so instead of letting a send fail, and comes back by itself when the reset time
 * passes — this controller asks for an update at that moment.
 */
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import type { SendQuota } from '../io/send-quota.js';

/** setTimeout's longest delay (about 24.8 days); a later reset is checked again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Whether `quota` is the day's budget (not a minute's) and has not ended yet. */
export function dayWindow(quota: SendQuota | undefined): quota is SendQuota {
  return !!quota?.daily && quota.resetAt > Date.now();
}

/** Whether the day's budget is spent: no send is possible until `quota.resetAt`. */
export function quotaExhausted(quota: SendQuota | undefined): quota is SendQuota {
  return dayWindow(quota) && quota.remaining <= 0;
}

export class QuotaClock implements ReactiveController {
  #timer: ReturnType<typeof setTimeout> | undefined;
  #watched: number | undefined;

  readonly #host: ReactiveControllerHost;
  /** The visitor's tightest send window, as the handler last reported it. */
  readonly #quota: () => SendQuota | undefined;
  constructor(host: ReactiveControllerHost, quota: () => SendQuota | undefined) {
    this.#host = host;
    this.#quota = quota;

    host.addController(this);
  }

  /** Before every render: schedules an update at the reset time of a spent quota. */
  hostUpdate() {
    const quota = this.#quota();
    const until = quotaExhausted(quota) ? quota.resetAt : undefined;
    if (until === this.#watched) return;
    clearTimeout(this.#timer);
    this.#watched = until;
    if (until === undefined) return;
    this.#timer = setTimeout(
      () => {
        this.#watched = undefined;
        this.#host.requestUpdate();
      },
      Math.min(MAX_TIMER_MS, until - Date.now() + 50),
    );
  }

  hostDisconnected() {
    clearTimeout(this.#timer);
    this.#watched = undefined;
  }
}
