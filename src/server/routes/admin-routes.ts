/**
 * The admin routes: the upstream read endpoints, unrestricted, for requests the site owner's
 * `authorizeAdmin(request)` allows. Only the query parameters upstream documents are passed,
 * each re-encoded from its decoded value. The visitors' ratings are the handler's own: they are
 * answered from its store (feedback-routes.ts).
 */
import { MAX_PAGE_SIZE } from '../../shared/page-size.js';
import { envelopeOf } from '../core/envelope.js';
import { json, refuse, TEXT } from '../core/responses.js';
import type { RouteContext } from './route-context.js';
import { QueryReader, type RouteName } from '../core/route-table.js';
import { callUpstream, type UpstreamCall } from '../core/upstream.js';
import { feedbackCountByMonth, feedbackListing } from './feedback-routes.js';

/** The upstream call of an admin route, built from the documented parameters only. */
function adminCall(ctx: RouteContext): UpstreamCall {
  const query = new QueryReader(ctx.url.searchParams);
  const paging = () => ({ page: query.integer('page', 1, 1_000_000), pageSize: query.integer('pageSize', 1, MAX_PAGE_SIZE) });
  const range = () => ({ from: query.text('from', 64), to: query.text('to', 64) });
  const name: RouteName = ctx.route.name;
  switch (name) {
    case 'admin-users':
      return { method: 'GET', path: '/users', label: 'GET /users', query: paging() };
    case 'admin-sessions':
      return { method: 'GET', path: '/sessions', label: 'GET /sessions', query: { userId: query.text('userId'), ...paging() } };
    case 'admin-messages':
      return {
        method: 'GET',
        path: '/messages',
        label: 'GET /messages',
        query: { sessionId: query.text('sessionId'), userId: query.text('userId'), ...paging() },
      };
    case 'admin-message':
      return { method: 'GET', path: `/messages/${ctx.route.messageId!}`, label: 'GET /messages/{messageId}' };
    case 'admin-count':
      return { method: 'GET', path: '/messages/count', label: 'GET /messages/count', query: { ...range(), sent: query.text('sent', 5) } };
    case 'admin-count-by-month':
      return { method: 'GET', path: '/messages/count-by-month', label: 'GET /messages/count-by-month', query: range() };
    default:
      refuse(404, TEXT.notFound);
  }
}

/** Answers an admin route, or 403 when `authorizeAdmin` is absent or says no. */
export async function admin(ctx: RouteContext): Promise<Response> {
  const { authorizeAdmin, logger } = ctx.options;
  if (!authorizeAdmin || (await authorizeAdmin(ctx.request)) !== true) refuse(403, TEXT.adminDenied);
  if (ctx.route.name === 'admin-feedback') return feedbackListing(ctx);
  if (ctx.route.name === 'admin-feedback-count-by-month') return feedbackCountByMonth(ctx);
  const call = adminCall(ctx);
  const answer = await callUpstream(ctx.options, call);
  const body = answer.body as Record<string, unknown>;
  if (answer.status === 400) return json(400, body);
  if (answer.status === 404) {
    if (ctx.route.name === 'admin-message') refuse(404, TEXT.messageNotFound);
    logger.error(`upstream answered 404 on ${call.label}: the chatbot was not found, check CHATBOT_ID (chatbotId)`);
    refuse(502, TEXT.upstreamConfig);
  }
  return json(200, envelopeOf(body));
}
