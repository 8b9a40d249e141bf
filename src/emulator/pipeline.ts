/**
 * The request pipeline of the emulator, one explicit step after another:
 *
 *   route (404/405) → body under the cap (413) → authenticate (401) → chatbot exists (404)
 *   → key's access (403) → validate (400, 415) → quota (429) → handler → envelope
 *
 * Any refusal is an {@link ApiError} from the error factory; anything else that goes wrong is a
 * 500 envelope with no detail, and a one-line log without secrets.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HEADER_API_KEY, HEADER_SIGNATURE, HEADER_TIMESTAMP } from '../shared/headers.js';
import { authenticate } from './auth.js';
import type { EmulatorContext, HandlerResult } from './context.js';
import { ApiError, apiErrors } from './errors.js';
import { readBody, writeJson } from './http-io.js';
import { quotaState, rateLimitHeaders } from './quota.js';
import { countByMonth, countMessages, getMessage, listMessages, listSessions, listUsers } from './reads.js';
import { matchRoute } from './router.js';
import { send } from './send.js';
import { decodePathSegment, parseQuery, readSendBody } from './validation.js';

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
};

/** Whether a Content-Type names JSON (`application/json`, any parameters, any case). */
function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType.trim());
}

/**
 * Answers one request. `target` is the raw request target (path and query exactly as received):
 * the signature covers it byte for byte.
 */
export async function handleRequest(ctx: EmulatorContext, req: IncomingMessage, res: ServerResponse, target: string): Promise<void> {
  // Headers that must go out on every response from a point on (the quota's, on sends).
  let carried: Record<string, string> = {};
  try {
    const result = await pipeline();
    writeJson(res, result.status, result.body, { ...carried, ...result.headers });
  } catch (error) {
    if (error instanceof ApiError) {
      const extra: Record<string, string> = error.status === 413 ? { Connection: 'close' } : {};
      writeJson(res, error.status, error.body, { ...carried, ...error.headers, ...extra });
      if (error.status === 413) req.resume();
      return;
    }
    if (res.destroyed || req.destroyed) return; // the caller went away; nobody to answer
    console.error(`[emulator] ${req.method} ${target.split('?')[0]}: ${error instanceof Error ? error.message : String(error)}`);
    const failure = apiErrors.internal();
    writeJson(res, failure.status, failure.body, carried);
  }

  async function pipeline(): Promise<HandlerResult> {
    const queryAt = target.indexOf('?');
    const path = queryAt === -1 ? target : target.slice(0, queryAt);
    const rawQuery = queryAt === -1 ? '' : target.slice(queryAt + 1);

    // 1. Route.
    const route = matchRoute(path, ctx.basePath);
    if (!route) throw apiErrors.routeNotFound(ctx.basePath);
    if (req.method !== route.method) throw apiErrors.methodNotAllowed(route.method);

    // 2. Body, capped: it is part of what is signed.
    const body = await readBody(req);
    const receivedAt = ctx.now();

    // 3. Authenticate, 4. chatbot exists, 5. the key's access to it.
    const owner = authenticate(
      {
        method: req.method,
        target,
        body,
        apiKey: header(req, HEADER_API_KEY),
        signature: header(req, HEADER_SIGNATURE),
        timestamp: header(req, HEADER_TIMESTAMP),
      },
      ctx.keys,
      receivedAt,
    );
    const chatbotId = decodePathSegment(route.chatbotId);
    const chatbot = chatbotId === undefined ? undefined : ctx.chatbots.get(chatbotId);
    if (!chatbot) throw apiErrors.chatbotNotFound();
    if (chatbot.id !== owner.id) throw apiErrors.forbidden();

    // 6. Validate, 7. quota, 8. handler.
    if (route.name === 'send') {
      const quota = quotaState(ctx, chatbot, receivedAt);
      carried = rateLimitHeaders(quota);
      if (!isJson(header(req, 'content-type'))) throw apiErrors.unsupportedMediaType();
      const input = readSendBody(body);
      const aborted = new AbortController();
      res.once('close', () => {
        if (!res.writableFinished) aborted.abort(new Error('the caller closed the connection'));
      });
      return send(ctx, chatbot, input, quota, receivedAt, aborted.signal);
    }
    const query = parseQuery(rawQuery);
    switch (route.name) {
      case 'listMessages':
        return listMessages(ctx, chatbot, query);
      case 'getMessage':
        return getMessage(ctx, chatbot, route.messageId!);
      case 'count':
        return countMessages(ctx, chatbot, query);
      case 'countByMonth':
        return countByMonth(ctx, chatbot, query);
      case 'listUsers':
        return listUsers(ctx, chatbot, query);
      case 'listSessions':
        return listSessions(ctx, chatbot, query);
    }
  }
}
