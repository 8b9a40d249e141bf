/**
 * `chatbot-widget/server/fastify`: the signing handler as a Fastify plugin. Translation only
 * (through the Node bridge). Fastify is a peer dependency, and only its types are imported.
 *
 * The plugin reads request bodies itself: in its own encapsulated scope it replaces Fastify's
 * body parsers by one that leaves the request stream unread, so the handler sees the exact bytes
 * (and caps them) and the site's own parsers and routes elsewhere are untouched. No body-parser
 * setting is needed in the application.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { createSigningHandler } from '../signing-handler.js';
import type { SigningHandlerOptions } from '../core/options.js';
import { keepAliveFetch } from './keep-alive-fetch.js';
import { runNodeRequest } from './node.js';

/** Options of the plugin: those of `createSigningHandler`. */
export type FastifyChatbotOptions = SigningHandlerOptions;

/**
 * Registers the handler's routes under `basePath` (default `/chatbot`). Register it without a
 * `prefix`: the handler matches the whole path, so put any prefix into `basePath` instead.
 *
 * @example
 * import Fastify from 'fastify';
 * import { fastifyChatbot } from 'chatbot-widget/server/fastify';
 * const app = Fastify();
 * await app.register(fastifyChatbot, { apiBaseUrl, apiKey, apiSecret, chatbotId });
 */
export async function fastifyChatbot(fastify: FastifyInstance, options: FastifyChatbotOptions): Promise<void> {
  if (fastify.prefix) {
    throw new TypeError(
      `fastifyChatbot: register the plugin without a prefix ("${fastify.prefix}") and set basePath: "${fastify.prefix}/chatbot" instead.`,
    );
  }
  // Fastify hands its own keys (prefix, logLevel, …) to the plugin along with the caller's.
  const handler = createSigningHandler({ fetch: keepAliveFetch, ...options });
  const basePath = (options.basePath ?? '/chatbot').replace(/\/+$/, '');

  // Encapsulated: these parsers apply only to the routes of this plugin.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request: FastifyRequest, _payload: unknown, done: (error: Error | null, body?: unknown) => void) =>
    done(null),
  );

  const answer = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.hijack();
    // The Node request as received: its raw target (dot segments refused, not resolved), its
    // unread body stream and its socket's address.
    await runNodeRequest(handler, request.raw, reply.raw);
  };
  fastify.all(basePath || '/', answer);
  fastify.all(`${basePath}/*`, answer);
}

// Fastify reads this to name the plugin in its errors and its route listing.
Object.defineProperty(fastifyChatbot, Symbol.for('fastify.display-name'), { value: 'chatbot-widget' });

export default fastifyChatbot;
