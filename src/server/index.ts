/**
 * `chatbot-widget/server`: the signing handler that keeps the API secret on the server and
 * lets each visitor see only their own conversations. Web-standard, runs on any runtime with
 * `fetch`, `Request`, `Response` and Web Crypto.
 */
export { createSigningHandler, type SigningHandler } from './signing-handler.js';
export {
  DEFAULT_LIMITS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_UPSTREAM_TIMEOUT_MS,
  DEFAULT_VISITOR_TOKEN_TTL_SECONDS,
  DEFAULT_VISITOR_TOKEN_MAX_AGE_SECONDS,
  type HandlerContext,
  type Identity,
  type Limits,
  type SigningHandlerOptions,
} from './core/options.js';
export { StoreFullError, type HandlerStore, type RecordRange, type RecordSets, type SetRecord } from './stores/store.js';
export { MemoryStore, type MemoryStoreOptions } from './stores/memory.js';
export { adminTokenAuthorizer, ADMIN_TOKEN_HEADER } from './identity/admin-token.js';
export type { Logger } from './core/logger.js';
