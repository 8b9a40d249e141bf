/**
 * `POST {base}/message`: sends as the caller, exactly once per `Idempotency-Key`, within the
 * caller's budgets, and tells the caller what is left of them in `X-RateLimit-*` headers.
 *
 * With a key: a finished key is answered from its record (no upstream call, no budget spent); a
 * key in flight is waited for; a key whose earlier attempt ended uncertain is first looked for
 * upstream; otherwise the send goes upstream and its outcome is recorded, even when the browser
 * has gone away meanwhile. A success names the two stored messages in `stored`.
 */
import { envelopeOf } from '../core/envelope.js';
import { callerIdentity } from '../identity/identity.js';
import { REPLAYED_HEADER } from '../../shared/headers.js';
import { IdempotencyRecordOf, idempotencyKeyOf, LostKey, type OwnedKey, type Outcome } from '../idempotency/idempotency.js';
import { readJsonObject } from '../core/request-body.js';
import { HandlerAnswer, jsonText } from '../core/responses.js';
import type { RouteContext } from './route-context.js';
import { checkSend, countSend, noteUpstreamQuota, senderOf, stillChecked, withRateHeaders, type Budget } from '../budgets/send-budget.js';
import { findStored, type StoredPair } from '../idempotency/stored-messages.js';
import { callUpstream, type UpstreamAnswer } from '../core/upstream.js';
import type { HeaderReader } from '../core/upstream.js';
import { chatbotMissing, requireJson, sendInput, type SendInput } from './visitor-routes.js';

const DEFAULT_NAME = 'Visitor';

/** The send answer's body: the upstream envelope, plus `stored` when the handler identified the messages. */
function successBody(reply: string, stored: StoredPair | undefined): string {
  return JSON.stringify({
    data: reply,
    error: null,
    totalItems: 0,
    pageSize: 0,
    currentPage: 0,
    totalPages: 0,
    ...(stored ? { stored } : {}),
  });
}

/** Sends `input` upstream as `identity`, noting upstream's quota figures on the way. */
async function forward(
  ctx: RouteContext,
  budget: Budget,
  identity: { userId: string; name?: string },
  input: SendInput,
): Promise<UpstreamAnswer> {
  const message = input.file ? { content: input.content, file: input.file } : { content: input.content };
  const body = { user: { id: identity.userId, name: identity.name ?? input.name ?? DEFAULT_NAME }, message };
  let quotaHeaders: HeaderReader | undefined;
  try {
    return await callUpstream(ctx.options, {
      method: 'POST',
      path: '/message',
      label: 'POST /message',
      body,
      onHeaders: (headers) => (quotaHeaders = headers),
    });
  } finally {
    if (quotaHeaders) budget.upstream = (await noteUpstreamQuota(ctx.options, quotaHeaders)) ?? budget.upstream;
  }
}

/** The outcome of an upstream answer the route judges (2xx, 400; 404 is the owner's problem). */
function outcomeOf(ctx: RouteContext, answer: UpstreamAnswer, stored: StoredPair | undefined): Outcome {
  if (answer.status === 400) return { status: 400, body: JSON.stringify(answer.body) };
  if (answer.status === 404) chatbotMissing(ctx, 'POST /message');
  const envelope = envelopeOf(answer.body as Record<string, unknown>);
  return { status: 200, body: successBody(typeof envelope.data === 'string' ? envelope.data : '', stored) };
}

/**
 * A record the store failed to update (its failure is logged by the store): the visitor still gets
 * the answer upstream gave. The key's lease then ends, and the next request with it looks upstream
 * before sending, so nothing is sent twice.
 */
function unrecorded(): void {}

/**
 * The keyed send, from holding the key to its recorded outcome. The lease is renewed before every
 * upstream call; a request that loses the key (this instance stalled past its lease and another
 * request took it) makes no further call and answers with the taker's outcome, so one key never
 * sends twice.
 */
async function sendOnce(
  ctx: RouteContext,
  budget: Budget,
  identity: { userId: string; name?: string },
  input: SendInput,
  owned: OwnedKey,
): Promise<Outcome> {
  const { options } = ctx;
  const renew = () => owned.renew();
  try {
    if (owned.earlierAttempts.length > 0) {
      const earlier = await findStored(options, identity.userId, owned.key, owned.earlierAttempts, renew);
      if (earlier) {
        const [, reply] = earlier;
        const outcome = { status: 200, body: successBody(reply?.text ?? '', earlier) };
        await owned.finish(outcome).catch(unrecorded);
        return outcome;
      }
    }
    await renew();
  } catch (error) {
    if (error instanceof LostKey) return await owned.takenOver();
    await owned.release().catch(unrecorded); // nothing sent: the key stays as it was for the next retry
    throw error;
  }
  let answer: UpstreamAnswer;
  try {
    answer = await forward(ctx, budget, identity, input);
  } catch (error) {
    if (error instanceof HandlerAnswer && error.response.status === 429)
      await owned.release().catch(unrecorded); // upstream refused: nothing stored
    else await owned.uncertain().catch(unrecorded);
    throw error;
  }
  if (answer.status === 404) {
    await owned.release().catch(unrecorded);
    chatbotMissing(ctx, 'POST /message');
  }
  let stored: StoredPair | undefined;
  if (answer.status === 200) {
    const replyText = envelopeOf(answer.body as Record<string, unknown>).data;
    // Naming the stored messages is a help to the widget, not part of the send: if it fails, the
    // answer goes without `stored`. The lease is renewed so that repeats keep waiting for this
    // answer; a renewal that fails stops nothing, as a request that took the key would find this
    // send and name the same messages (claims are per key).
    stored = await findStored(
      options,
      identity.userId,
      owned.key,
      [owned.attempt()],
      () => owned.renew().catch(unrecorded),
      typeof replyText === 'string' ? replyText : undefined,
    ).catch(() => undefined);
  }
  const outcome = outcomeOf(ctx, answer, stored);
  await owned.finish(outcome).catch(unrecorded);
  return outcome;
}

/** `POST {base}/message`. */
export async function send(ctx: RouteContext): Promise<Response> {
  const { request, options } = ctx;
  requireJson(request);
  const identity = await callerIdentity(options, request, ctx.tokens);
  const sender = senderOf(ctx.addresses, request, ctx.context, identity);
  let budget: Budget | undefined;
  // Every answer to a known caller says what is left of their budget.
  const withRate = (response: Response) => withRateHeaders(options, sender, response, budget);
  try {
    const key = idempotencyKeyOf(request);
    const record = key === undefined ? undefined : new IdempotencyRecordOf(options, identity.userId, key);
    const settled = await record?.settled();
    if (settled) return await withRate(jsonText(settled.status, settled.body, { [REPLAYED_HEADER]: 'true' }));

    // Everything a request can be refused for is looked at before anything is written: a refused
    // request leaves the store as it was, so no stream of them can fill it.
    const input = sendInput(await readJsonObject(request, options.maxBodyBytes));
    const checked = await checkSend(options, sender);
    if (!record) {
      budget = await countSend(options, checked);
      const answer = await forward(ctx, budget, identity, input);
      const outcome = outcomeOf(ctx, answer, undefined);
      return await withRate(jsonText(outcome.status, outcome.body));
    }
    // With a key the budget is spent only once the key is this request's: repeats that arrive
    // together (tabs, a retry storm) wait for the first one's outcome and cost nothing.
    const claim = await record.claim(input.content);
    if ('outcome' in claim) return await withRate(jsonText(claim.outcome.status, claim.outcome.body, { [REPLAYED_HEADER]: 'true' }));
    try {
      budget = await countSend(options, await stillChecked(options, sender, checked));
    } catch (error) {
      await claim.owned.release().catch(unrecorded); // refused before sending: the key is as it was
      throw error;
    }
    const outcome = await sendOnce(ctx, budget, identity, input, claim.owned);
    return await withRate(jsonText(outcome.status, outcome.body));
  } catch (error) {
    if (error instanceof HandlerAnswer) throw new HandlerAnswer(await withRate(error.response));
    throw error;
  }
}
