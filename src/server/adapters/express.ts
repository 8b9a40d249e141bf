/**
 * `chatbot-widget/server/express`: the signing handler as Express middleware. Translation only
 * (through the Node bridge); Express is a peer dependency, and only its types are imported.
 */
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express';
import { createSigningHandler, type SigningHandler } from '../signing-handler.js';
import type { SigningHandlerOptions } from '../core/options.js';
import { keepAliveFetch } from './keep-alive-fetch.js';
import { runNodeRequest } from './node.js';
import { originForm } from './node-request.js';

export { toNodeListener, type NodeListener } from './node.js';

/** Express middleware. */
export type ExpressMiddleware = (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => void;

/** The body a parser such as `express.json()` already consumed, as JSON text again. */
function parsedBody(req: ExpressRequest): string | undefined {
  if (!req.readableEnded || req.body === undefined) return undefined;
  return typeof req.body === 'string' ? req.body : JSON.stringify(req.body);
}

/**
 * Wraps a handler as Express middleware. Mount it at the handler's base path; it answers every
 * request that reaches it. Mount it before any body parser (if one ran, its result is used).
 *
 * @example
 * app.use('/chatbot', toExpress(createSigningHandler(options)));
 */
export function toExpress(handler: SigningHandler): ExpressMiddleware {
  return (req, res) => {
    // originalUrl keeps the mount path Express strips from req.url, so routes match the base path.
    void runNodeRequest(handler, req, res, parsedBody(req), req.originalUrl);
  };
}

/**
 * Creates the signing handler and wraps it as Express middleware that answers requests under
 * `basePath` (default `/chatbot`) and passes every other request on with `next()`. Upstream
 * calls go over keep-alive `node:http` unless the `fetch` option says otherwise.
 *
 * @example
 * import express from 'express';
 * import { createExpressHandler } from 'chatbot-widget/server/express';
 * const app = express();
 * app.use(createExpressHandler({ apiBaseUrl, apiKey, apiSecret, chatbotId }));
 */
export function createExpressHandler(options: SigningHandlerOptions): ExpressMiddleware {
  const handler = createSigningHandler({ fetch: keepAliveFetch, ...options });
  const basePath = (options.basePath ?? '/chatbot').replace(/\/+$/, '');
  const middleware = toExpress(handler);
  return (req, res, next) => {
    // Absolute-form targets (from proxies) are matched on their path, like origin-form ones.
    const path = originForm(req.originalUrl).split('?')[0]!;
    if (path !== basePath && !path.startsWith(`${basePath}/`)) return next();
    middleware(req, res, next);
  };
}
