/**
 * The routes a visitor's browser uses. Each one binds the upstream call to the caller's own
 * user id: the browser's `userId`, `user` or similar fields are never read.
 */
import { MAX_FILE_URL_CHARS, MAX_MESSAGE_CHARS, MAX_USER_NAME_CHARS } from '../../shared/limits.js';
import { unixSeconds } from '../../shared/signature.js';
import { hasLoneSurrogate } from '../../shared/well-formed.js';
import { MAX_PAGE_SIZE } from '../../shared/page-size.js';
import { belongsTo, envelopeOf } from '../core/envelope.js';
import { callerIdentity, hostIdentity, visitorClaims } from '../identity/identity.js';
import { countNewVisitor, countRevocation } from '../budgets/rate-limits.js';
import { isJsonRequest, readJsonObject } from '../core/request-body.js';
import { json, refuse, TEXT } from '../core/responses.js';
import type { RouteContext } from './route-context.js';
import { QueryReader } from '../core/route-table.js';
import { callUpstream, type UpstreamAnswer } from '../core/upstream.js';
import { isRevoked, revoke } from '../identity/revocation.js';
import { rateHeadersReadNow, senderOf } from '../budgets/send-budget.js';
import { bearerToken, issueVisitorToken, newVisitorId } from '../identity/visitor-token.js';

export function requireJson(request: Request): void {
  if (!isJsonRequest(request)) refuse(415, TEXT.notJson);
}

/** Upstream 404 on a chatbot-wide route means the chatbot id is wrong: the owner's problem. */
export function chatbotMissing(ctx: RouteContext, label: string): never {
  ctx.options.logger.error(`upstream answered 404 on ${label}: the chatbot was not found, check CHATBOT_ID (chatbotId)`);
  refuse(502, TEXT.upstreamConfig);
}

/** Passes on an upstream 400 validation body as it is. */
function validationFailure(answer: UpstreamAnswer): Response {
  return json(400, answer.body);
}

/**
 * `POST {base}/visitor`: renews a valid token, else issues a new identity (counted per address).
 * A revoked identity, or one past `visitorTokenMaxAgeSeconds` since it was first issued, is not
 * renewed: a new identity starts.
 */
export async function visitor(ctx: RouteContext): Promise<Response> {
  const { request, options } = ctx;
  requireJson(request);
  await readJsonObject(request, options.maxBodyBytes, true);
  if (options.identify) {
    // The host's login is the identity; there is no token to hand out.
    const identity = await hostIdentity(options, request);
    return json(200, { data: { token: null, userId: identity.userId }, error: null });
  }
  const now = unixSeconds(options.now());
  const claims = await visitorClaims(options, request, ctx.tokens);
  const renewable = claims && now < claims.firstIssuedAt + options.visitorTokenMaxAgeSeconds ? claims : undefined;
  if (!renewable) await countNewVisitor(options, ctx.addresses.of(request, ctx.context));
  const userId = renewable?.userId ?? newVisitorId();
  const { token } = await issueVisitorToken(await ctx.visitorKey, {
    userId,
    audience: options.chatbotId,
    nowSeconds: now,
    firstIssuedAt: renewable?.firstIssuedAt ?? now,
    ttlSeconds: options.visitorTokenTtlSeconds,
    maxAgeSeconds: options.visitorTokenMaxAgeSeconds,
  });
  return json(200, { data: { token, userId }, error: null });
}

/**
 * `DELETE {base}/visitor`: revokes the identity of the presented token on every instance sharing
 * the store; 204 with no body. Revoking an identity already revoked is 204 as well, so a reset can
 * be retried; a token that is not valid (forged, expired, another chatbot's) is 401. Revocations
 * are limited (revocation.ts): past a limit, 429 and the widget tries again later. With
 * `identify()` there are no tokens to revoke: 204.
 */
export async function revokeVisitor(ctx: RouteContext): Promise<Response> {
  const { request, options } = ctx;
  if (options.identify) return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
  const token = bearerToken(request);
  const claims = token ? await ctx.tokens.claims(token, unixSeconds(options.now())) : undefined;
  if (!claims) refuse(401, TEXT.noIdentity);
  if (!(await isRevoked(options, claims.userId))) {
    await countRevocation(options, ctx.addresses.of(request, ctx.context));
    await revoke(options, claims);
  }
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
}

export interface SendInput {
  content: string;
  file?: string;
  name?: string;
}

/**
 * The checked send body: content 1–4,000 characters, optional http(s) file URL and name; text with
 * a lone surrogate is refused. Writes nothing: a send is refused before any store write.
 */
export function sendInput(body: Record<string, unknown>): SendInput {
  const { content, file, name } = body;
  if (typeof content !== 'string' || content.trim() === '') refuse(400, 'Write a message before sending.');
  if ([...content].length > MAX_MESSAGE_CHARS) refuse(400, `A message can be at most ${MAX_MESSAGE_CHARS} characters long.`);
  // Upstream would store U+FFFD in its place: the stored text would not be the one sent, and a
  // retry could not find it (exactly once matches the text).
  if (hasLoneSurrogate(content)) refuse(400, TEXT.loneSurrogateMessage);
  const input: SendInput = { content };
  if (file !== undefined && file !== null && file !== '') {
    let url: URL | undefined;
    try {
      // Written out in full as upstream wants it (`https://…`): the URL parser alone would also
      // take `https:host/x` or a leading space, which upstream refuses after a counted attempt.
      url = typeof file === 'string' && file.length <= MAX_FILE_URL_CHARS && /^https?:\/\//i.test(file) ? new URL(file) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      refuse(400, 'The file must be an http or https link, written out in full (https://…).');
    input.file = file as string;
  }
  if (name !== undefined && name !== null) {
    if (typeof name !== 'string' || [...name.trim()].length > MAX_USER_NAME_CHARS)
      refuse(400, `Your name can be at most ${MAX_USER_NAME_CHARS} characters long.`);
    if (hasLoneSurrogate(name)) refuse(400, TEXT.loneSurrogateName);
    if (name.trim() !== '') input.name = name.trim();
  }
  return input;
}

/** A listing answer with every record that is not the caller's dropped, in case upstream ignored the filter. */
function ownListing(ctx: RouteContext, answer: UpstreamAnswer, label: string, userId: string): Response {
  if (answer.status === 400) return validationFailure(answer);
  if (answer.status === 404) chatbotMissing(ctx, label);
  const body = answer.body as Record<string, unknown>;
  if (!Array.isArray(body.data)) {
    ctx.options.logger.error(`upstream ${label} answered without a data array`);
    refuse(502, TEXT.upstreamDown);
  }
  const own = body.data.filter((record) => belongsTo(record, userId));
  if (own.length !== body.data.length) {
    ctx.options.logger.error(`upstream ${label} returned records of other users despite the userId filter; they were withheld`);
  }
  return json(200, envelopeOf(body, own));
}

/**
 * A listing of the caller's own records upstream (`/sessions` or `/messages`), by page, with
 * `more` query parameters of its own; the answer carries the caller's rate headers, whose store
 * reads overlap the upstream call.
 */
async function ownListingRoute(
  ctx: RouteContext,
  path: '/sessions' | '/messages',
  more: (query: QueryReader) => Record<string, string | undefined> = () => ({}),
): Promise<Response> {
  const identity = await callerIdentity(ctx.options, ctx.request, ctx.tokens);
  const query = new QueryReader(ctx.url.searchParams);
  const upstreamQuery = {
    ...more(query),
    userId: identity.userId,
    page: query.integer('page', 1, 1_000_000),
    pageSize: query.integer('pageSize', 1, MAX_PAGE_SIZE),
  };
  const withRate = rateHeadersReadNow(ctx.options, senderOf(ctx.addresses, ctx.request, ctx.context, identity));
  const label = `GET ${path}`;
  const answer = await callUpstream(ctx.options, { method: 'GET', path, label, query: upstreamQuery });
  return withRate(ownListing(ctx, answer, label, identity.userId));
}

/** `GET {base}/sessions?page&pageSize`: the caller's sessions. */
export function sessions(ctx: RouteContext): Promise<Response> {
  return ownListingRoute(ctx, '/sessions');
}

/** `GET {base}/messages?sessionId&page&pageSize`: the caller's messages, optionally of one session. */
export function messages(ctx: RouteContext): Promise<Response> {
  return ownListingRoute(ctx, '/messages', (query) => ({ sessionId: query.text('sessionId') }));
}

/** `GET {base}/messages/{messageId}`: one message, 404 unless it is the caller's. */
export async function message(ctx: RouteContext): Promise<Response> {
  const identity = await callerIdentity(ctx.options, ctx.request, ctx.tokens);
  const answer = await callUpstream(ctx.options, {
    method: 'GET',
    path: `/messages/${ctx.route.messageId!}`,
    label: 'GET /messages/{messageId}',
  });
  const body = answer.body as Record<string, unknown>;
  // Someone else's message answers exactly like a missing one, so ids cannot be probed.
  if (answer.status !== 200 || !belongsTo(body.data, identity.userId)) refuse(404, TEXT.messageNotFound);
  return json(200, { data: body.data, error: null });
}
