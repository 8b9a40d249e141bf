/**
 * Send budgets: what a visitor may still send, and the `X-RateLimit-*` headers that tell them.
 *
 * Windows counted for every send the handler hands on to upstream:
 * - the identity's own: `sendsPerMinute` and `sendsPerDay`;
 * - for visitors with tokens from `/visitor` (not `identify()` users), their client address's,
 *   whatever number of identities it holds: `sendsPerMinutePerAddress`, and in a UTC day
 *   `dailyQuotaSharePerAddress` of the chatbot's daily quota, rounded up. The quota is what
 *   upstream last reported in `X-RateLimit-Limit` (kept in the store, so every instance knows it);
 *   until it has, the free tier's 100 is assumed. So one address cannot spend everyone's day.
 * Upstream's own quota window (from its last `X-RateLimit-*` headers) joins them in the headers.
 *
 * A send is first checked (reads only) and counted only once it may go, so a send refused by one
 * window adds to no other. While upstream's last report says its quota is spent and its reset is
 * ahead, one send a minute goes on as a probe (it finds out when the quota was raised or reset
 * early) and the others are refused without a write: sends that upstream would refuse anyway
 * cannot fill the store with the counters of identities from ever new addresses.
 */
import { HEADER_RATE_LIMIT, HEADER_RATE_REMAINING, HEADER_RATE_RESET } from '../../shared/headers.js';
import type { ClientAddresses } from '../identity/client-address.js';
import type { HandlerContext, Identity, ResolvedOptions } from '../core/options.js';
import { countAll, countIn, DAY_MS, MINUTE_MS, secondsUntil, windowAt, type LimitWindow } from './rate-limits.js';
import { HandlerAnswer, refuse, TEXT } from '../core/responses.js';
import type { HeaderReader } from '../core/upstream.js';

/** Assumed daily quota until upstream has reported one: the smallest tier's, the free tier's. */
export const ASSUMED_DAILY_QUOTA = 100;
/** How long upstream's last reported quota is kept: the limit stays true past its day's reset. */
const UPSTREAM_QUOTA_KEEP_MS = 7 * DAY_MS;
/** While upstream's quota is spent, one send in each window this long still goes to upstream. */
export const UPSTREAM_PROBE_WINDOW_MS = MINUTE_MS;

/** Who is sending, as the budgets see it. `address` only for visitors with tokens. */
export interface Sender {
  userId: string;
  address?: string;
}

/** One window of a budget: its limit, what is used of it, when it ends (Unix ms). */
export interface BudgetWindow {
  limit: number;
  used: number;
  resetAt: number;
}

/** A sender's windows in the handler, and upstream's quota window when known. */
export interface Budget {
  own: BudgetWindow[];
  upstream?: BudgetWindow;
}

interface WindowSpec {
  name: string;
  subject: string;
  windowMs: number;
  limit: number;
  refusal: string;
  /** Counted for every identity of an address together (not for one identity alone). */
  shared: boolean;
}

/** A window of a send's budget at the time of the send. */
type SendWindow = LimitWindow & Pick<WindowSpec, 'shared' | 'windowMs'>;

/** A send checked against its budget and found within it: what counting it takes. */
export interface CheckedSend {
  now: number;
  /** The windows as read, before this send. */
  budget: Budget;
  /** Each window of `budget.own`, by the same index. */
  windows: SendWindow[];
  /** Upstream's quota is spent: the send goes only if it takes this window's probe. */
  probe?: { key: string; endsAt: number; quotaResetAt: number };
}

/** Upstream's daily quota as it last reported it. */
interface UpstreamQuota {
  limit: number;
  remaining: number;
  /** Unix seconds of its reset. */
  reset: number;
}

/** Whose budget a request of `identity` counts in: for visitors with tokens, their address's too. */
export function senderOf(
  addresses: ClientAddresses,
  request: Request,
  context: HandlerContext | undefined,
  identity: Identity & { visitor: boolean },
): Sender {
  return { userId: identity.userId, address: identity.visitor ? addresses.of(request, context) : undefined };
}

const upstreamQuotaKey = (options: ResolvedOptions) => `${options.chatbotId}:upstream-quota`;

async function upstreamQuota(options: ResolvedOptions): Promise<UpstreamQuota | undefined> {
  const text = await options.store.get(upstreamQuotaKey(options));
  if (!text) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined; // not written by the handler: as if upstream had not reported yet
  }
  if (value === null || typeof value !== 'object') return undefined;
  const quota = value as UpstreamQuota;
  return Number.isInteger(quota.limit) && quota.limit > 0 ? quota : undefined;
}

function specsFor(options: ResolvedOptions, sender: Sender, quota: UpstreamQuota | undefined): WindowSpec[] {
  const { limits } = options;
  const specs: WindowSpec[] = [
    {
      name: 'send-minute',
      subject: sender.userId,
      windowMs: MINUTE_MS,
      limit: limits.sendsPerMinute,
      refusal: TEXT.tooManySends,
      shared: false,
    },
    { name: 'send-day', subject: sender.userId, windowMs: DAY_MS, limit: limits.sendsPerDay, refusal: TEXT.dailyLimit, shared: false },
  ];
  if (sender.address !== undefined) {
    const dailyShare = Math.ceil(limits.dailyQuotaSharePerAddress * (quota?.limit ?? ASSUMED_DAILY_QUOTA));
    specs.push(
      {
        name: 'address-send-minute',
        subject: sender.address,
        windowMs: MINUTE_MS,
        limit: limits.sendsPerMinutePerAddress,
        refusal: TEXT.tooManySendsFromAddress,
        shared: true,
      },
      {
        name: 'address-send-day',
        subject: sender.address,
        windowMs: DAY_MS,
        limit: dailyShare,
        refusal: TEXT.addressDailyLimit,
        shared: true,
      },
    );
  }
  return specs;
}

/** Upstream's window as of `now`: a reported day that has ended is a fresh, unused one. */
function upstreamWindow(quota: UpstreamQuota | undefined, now: number): BudgetWindow | undefined {
  if (!quota) return undefined;
  if (quota.reset * 1000 > now) return { limit: quota.limit, used: quota.limit - quota.remaining, resetAt: quota.reset * 1000 };
  return { limit: quota.limit, used: 0, resetAt: (Math.floor(now / DAY_MS) + 1) * DAY_MS };
}

/** Whether upstream's last report says its quota is spent until a reset still ahead. */
function upstreamSpent(quota: UpstreamQuota | undefined, now: number): quota is UpstreamQuota {
  return quota !== undefined && quota.remaining === 0 && quota.reset * 1000 > now;
}

/** 429 for a send refused because upstream's quota is spent: retry once it resets. */
function refuseUpstreamSpent(budget: Budget, quotaResetAt: number, now: number): never {
  refuse(429, TEXT.upstreamBusy, { 'Retry-After': String(secondsUntil(quotaResetAt, now)), ...rateHeaders(budget) });
}

/**
 * Checks a send of `sender` against every window, writing nothing. Past any limit, answers 429
 * with `Retry-After` (of the refusing window that ends last) and the rate headers; the send then
 * never reaches upstream and no counter changes. Resolves to what {@link countSend} needs.
 */
export async function checkSend(options: ResolvedOptions, sender: Sender): Promise<CheckedSend> {
  const now = options.now();
  const quota = await upstreamQuota(options);
  const windows = specsFor(options, sender, quota).map((spec): SendWindow => {
    const { key, endsAt } = windowAt(options, spec.name, spec.subject, spec.windowMs, now);
    return { key, endsAt, limit: spec.limit, refusal: spec.refusal, shared: spec.shared, windowMs: spec.windowMs };
  });
  const probeSlot = upstreamSpent(quota, now) ? windowAt(options, 'upstream-probe', 'send', UPSTREAM_PROBE_WINDOW_MS, now) : undefined;
  const [used, probeTaken] = await Promise.all([
    Promise.all(windows.map((window) => countIn(options, window.key))),
    probeSlot ? options.store.get(probeSlot.key).then((value) => value !== undefined) : false,
  ]);
  const budget: Budget = {
    own: windows.map((window, i) => ({ limit: window.limit, used: used[i]!, resetAt: window.endsAt })),
    upstream: upstreamWindow(quota, now),
  };
  const full = windows.filter((window, i) => used[i]! >= window.limit).sort((a, b) => b.endsAt - a.endsAt)[0];
  if (full) refuse(429, full.refusal, { 'Retry-After': String(secondsUntil(full.endsAt, now)), ...rateHeaders(budget) });
  if (probeSlot && probeTaken) refuseUpstreamSpent(budget, quota!.reset * 1000, now);
  return { now, budget, windows, probe: probeSlot && { ...probeSlot, quotaResetAt: quota!.reset * 1000 } };
}

/**
 * `checked` while its windows are still the current ones; else (the send waited for its key into
 * another minute) a fresh check.
 */
export async function stillChecked(options: ResolvedOptions, sender: Sender, checked: CheckedSend): Promise<CheckedSend> {
  const turned = Math.floor(options.now() / MINUTE_MS) !== Math.floor(checked.now / MINUTE_MS);
  return turned ? checkSend(options, sender) : checked;
}

/**
 * Counts a send that {@link checkSend} let through: first the probe when upstream's quota is
 * spent, then the address's windows before the identity's, each day before its minute. If a
 * concurrent send took the last place meanwhile, the send is refused with 429 and every count it
 * made is taken back (rate-limits.ts). Resolves to the windows with this send counted.
 */
export async function countSend(options: ResolvedOptions, checked: CheckedSend): Promise<Budget> {
  const { now, probe } = checked;
  if (probe && !(await options.store.add(probe.key, String(now), probe.endsAt)))
    refuseUpstreamSpent(checked.budget, probe.quotaResetAt, now);
  const order = checked.windows
    .map((window, index) => ({ window, index }))
    .sort((a, b) => Number(b.window.shared) - Number(a.window.shared) || b.window.windowMs - a.window.windowMs);
  let counts: number[];
  try {
    counts = await countAll(
      options,
      order.map(({ window }) => window),
      now,
    );
  } catch (error) {
    if (probe) await options.store.swap(probe.key, String(now), undefined, probe.endsAt).catch(() => false);
    throw error;
  }
  const own = [...checked.budget.own];
  order.forEach(({ index }, i) => (own[index] = { ...own[index]!, used: counts[i]! }));
  return { own, upstream: checked.budget.upstream };
}

/** The windows of `sender` without counting (for answers that spend nothing, such as repeats). */
export async function readBudget(options: ResolvedOptions, sender: Sender): Promise<Budget> {
  const now = options.now();
  const quota = await upstreamQuota(options);
  const own = await Promise.all(
    specsFor(options, sender, quota).map(async (spec) => {
      const { key, endsAt } = windowAt(options, spec.name, spec.subject, spec.windowMs, now);
      return { limit: spec.limit, used: Number((await options.store.get(key)) ?? 0), resetAt: endsAt };
    }),
  );
  return { own, upstream: upstreamWindow(quota, now) };
}

/**
 * The `X-RateLimit-*` headers of the tightest window: the fewest sends left (ties: the one that
 * ends last). `Reset` is Unix seconds, as upstream gives it.
 */
export function rateHeaders(budget: Budget): Record<string, string> {
  let tightest: BudgetWindow | undefined;
  let fewest = Infinity;
  for (const window of budget.upstream ? [...budget.own, budget.upstream] : budget.own) {
    const left = Math.max(0, window.limit - window.used);
    if (left < fewest || (left === fewest && window.resetAt > tightest!.resetAt)) {
      tightest = window;
      fewest = left;
    }
  }
  if (!tightest) return {};
  return {
    [HEADER_RATE_LIMIT]: String(tightest.limit),
    [HEADER_RATE_REMAINING]: String(fewest),
    [HEADER_RATE_RESET]: String(Math.ceil(tightest.resetAt / 1000)),
  };
}

/**
 * `response` with the rate headers of `sender`'s budget (read without counting unless `budget` is
 * given), for every answer to a known caller: a page loaded again learns from its first listing
 * that the day is spent, before the visitor types. A store that cannot say leaves them out.
 */
export async function withRateHeaders(options: ResolvedOptions, sender: Sender, response: Response, budget?: Budget): Promise<Response> {
  return putRateHeaders(response, budget ?? (await readBudget(options, sender).catch(() => undefined)));
}

/**
 * For an answer that spends nothing and waits for upstream (a listing): starts reading `sender`'s
 * budget now, so the store's reads overlap the upstream call rather than follow it, and answers
 * the function that puts the headers on that answer. A store that cannot say leaves them out.
 */
export function rateHeadersReadNow(options: ResolvedOptions, sender: Sender): (response: Response) => Promise<Response> {
  const reading = readBudget(options, sender).catch(() => undefined);
  return async (response) => putRateHeaders(response, await reading);
}

/** `response` with the rate headers of `budget` it does not have yet; as it is without a budget. */
function putRateHeaders(response: Response, budget: Budget | undefined): Response {
  if (budget)
    for (const [name, value] of Object.entries(rateHeaders(budget))) if (!response.headers.has(name)) response.headers.set(name, value);
  return response;
}

/**
 * Keeps upstream's `X-RateLimit-*` figures of a send answer in the store. Best effort: a store
 * that fails here must not fail a send upstream already accepted.
 */
export async function noteUpstreamQuota(options: ResolvedOptions, headers: HeaderReader): Promise<BudgetWindow | undefined> {
  const limit = Number(headers.get(HEADER_RATE_LIMIT));
  const remaining = Number(headers.get(HEADER_RATE_REMAINING));
  const reset = Number(headers.get(HEADER_RATE_RESET));
  if (!Number.isInteger(limit) || limit < 1 || !Number.isInteger(remaining) || remaining < 0 || !Number.isInteger(reset)) return undefined;
  const quota: UpstreamQuota = { limit, remaining: Math.min(remaining, limit), reset };
  try {
    await options.store.put(upstreamQuotaKey(options), JSON.stringify(quota), options.now() + UPSTREAM_QUOTA_KEEP_MS);
  } catch (error) {
    if (!(error instanceof HandlerAnswer)) throw error;
  }
  return upstreamWindow(quota, options.now());
}
