/**
 * `createSigningHandler`: the Web-standard core, `(request) => Promise<Response>`, using only
 * `fetch`, `Request`, `Response`, `URL` and Web Crypto, so the same code serves Node, Deno, Bun,
 * Cloudflare Workers and Next.js route handlers.
 *
 * The order of checks: route table (404/400) → preflight → method (405) → browser origin (403)
 * → the route (identity 401, admin 403, content type 415, limits 429, body 413/400, upstream).
 */
import { admin } from './routes/admin-routes.js';
import { corsHeaders, enforceBrowserRules, preflight } from './core/browser-rules.js';
import { resolveOptions, type HandlerContext, type SigningHandlerOptions } from './core/options.js';
import { failure, HandlerAnswer, TEXT } from './core/responses.js';
import type { RouteContext } from './routes/route-context.js';
import { matchRoute, pathOfTarget, type MatchedRoute, type RouteName } from './core/route-table.js';
import { RefusedOriginLog } from './core/refused-origins.js';
import { send } from './routes/send-route.js';
import { feedback } from './routes/feedback-routes.js';
import { message, messages, revokeVisitor, sessions, visitor } from './routes/visitor-routes.js';
import { VerifiedTokens } from './identity/verified-tokens.js';
import { ClientAddresses } from './identity/client-address.js';
import { visitorKey } from './identity/visitor-token.js';

/** The handler: a Web `Request` in, a `Response` out. */
export type SigningHandler = (request: Request, context?: HandlerContext) => Promise<Response>;

const VISITOR_ROUTES: Partial<Record<RouteName, (ctx: RouteContext) => Promise<Response>>> = {
  visitor,
  revoke: revokeVisitor,
  send,
  sessions,
  messages,
  message,
  feedback,
};

/** Adds `extra` headers to a response (its headers may be immutable, so copy when needed). */
function withHeaders(response: Response, extra: Record<string, string>): Response {
  try {
    for (const [name, value] of Object.entries(extra)) response.headers.set(name, value);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(extra)) headers.set(name, value);
    return new Response(response.body, { status: response.status, headers });
  }
}

/**
 * Creates the signing handler that site owners mount next to their site.
 *
 * @example
 * const handler = createSigningHandler({
 *   apiBaseUrl: 'https://chat.example.com/api',
 *   apiKey: process.env.CHATBOT_API_KEY!,
 *   apiSecret: process.env.CHATBOT_API_SECRET!,
 *   chatbotId: process.env.CHATBOT_ID!,
 * });
 * // Deno: Deno.serve((request, info) => handler(request, { clientAddress: info.remoteAddr.hostname }));
 *
 * @throws TypeError naming the option, when an option is missing or malformed.
 */
export function createSigningHandler(options: SigningHandlerOptions): SigningHandler {
  const resolved = resolveOptions(options);
  let key: Promise<string> | undefined;
  const visitorKeyOnce = () => (key ??= visitorKey(resolved.apiSecret, resolved.visitorTokenSecret));
  const tokens = new VerifiedTokens(visitorKeyOnce, resolved.chatbotId);
  const addresses = new ClientAddresses(resolved);
  const refusedOrigins = new RefusedOriginLog(resolved.logger);
  const onRefused = (origin: string) => refusedOrigins.note(origin);

  return async function signingHandler(request: Request, context?: HandlerContext): Promise<Response> {
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return failure(400, TEXT.badPath);
    }
    // Some runtimes call handlers with a second argument of their own (Next.js `{ params }`,
    // Workers `env`): read only the two documented fields, and only as strings.
    const rawPath = typeof context?.rawPath === 'string' && context.rawPath.startsWith('/') ? pathOfTarget(context.rawPath) : undefined;
    const cors = corsHeaders(request, url, resolved.allowedOrigins, !!resolved.identify);
    let route: MatchedRoute | undefined;
    try {
      route = matchRoute(rawPath ?? url.pathname, resolved.basePath, request.method);
      if (request.method === 'OPTIONS') {
        const headers = preflight(request, url, resolved.allowedOrigins, !!resolved.identify, onRefused);
        return new Response(null, { status: 204, headers: { ...headers, 'Cache-Control': 'no-store' } });
      }
      if (request.method !== route.method)
        return failure(405, TEXT.methodNotAllowed, { ...cors, Allow: `${route.allow ?? route.method}, OPTIONS` });
      enforceBrowserRules(request, url, resolved.allowedOrigins, onRefused);
      const ctx: RouteContext = {
        request,
        url,
        route,
        options: resolved,
        context,
        visitorKey: visitorKeyOnce(),
        tokens,
        addresses,
      };
      const answer = route.admin ? await admin(ctx) : await VISITOR_ROUTES[route.name]!(ctx);
      return withHeaders(answer, cors);
    } catch (error) {
      if (error instanceof HandlerAnswer) return withHeaders(error.response, cors);
      // Only the error's kind: messages of host callbacks or runtimes may quote request data.
      resolved.logger.error(
        `unexpected ${(error as Error)?.name ?? 'error'} while answering ${request.method} ${route?.name ?? 'a request'}`,
      );
      return failure(500, TEXT.internal, cors);
    }
  };
}
