/**
 * What the panel says of the visitor's daily quota: the `quota-notice` line while few sends are
 * left, and the words for a spent quota that the message field and the error line use too.
 */
import { html, nothing } from 'lit';
import type { SendQuota } from '../io/send-quota.js';
import { format, plural } from '../../ui/format-text.js';
import type { WidgetStrings } from '../../ui/strings.js';
import { dayWindow } from './quota.js';
import type { TimeFormat } from './time-format.js';

/** The `quota-notice` shows when this many sends or fewer are left of the day's budget. */
const QUOTA_NOTICE_AT = 3;

/** The notice's id, which the message field names as its description while no send is possible. */
export const QUOTA_NOTICE_ID = 'quota-notice';

/** What the quota's words need: the texts, and how times and numbers are written. */
export interface QuotaWords {
  readonly t: WidgetStrings;
  readonly time: TimeFormat;
  readonly formatTag: string;
}

/** "3 messages left today; more at 00:00", or at zero when sending is possible again. */
export function quotaText({ t, time, formatTag }: QuotaWords, remaining: number, resetAt: number): string {
  const at = time.format(new Date(resetAt).toISOString());
  return remaining <= 0 ? format(t.quotaExhausted, { time: at }) : plural(t, 'quotaLeft', remaining, formatTag, { time: at });
}

/** The notice, while the day's budget has {@link QUOTA_NOTICE_AT} sends left or fewer. */
export function renderQuotaNotice(words: QuotaWords, quota: SendQuota | undefined) {
  return dayWindow(quota) && quota.remaining <= QUOTA_NOTICE_AT
    ? html`<p part="quota-notice" id=${QUOTA_NOTICE_ID} class="note" role="status">${quotaText(words, quota.remaining, quota.resetAt)}</p>`
    : nothing;
}
