/** An `authorizeAdmin` that accepts requests carrying a fixed `X-Admin-Token`. */
import { ADMIN_TOKEN_HEADER } from '../../shared/headers.js';
import { timingSafeEqual } from '../../shared/signature.js';

/** The header {@link adminTokenAuthorizer} reads, the one `<chatbot-usage>` sends. */
export { ADMIN_TOKEN_HEADER };

/**
 * Allows a request when its `X-Admin-Token` header equals `token`, compared in constant time.
 * The token must be at least 16 characters: it is a password for every conversation.
 *
 * @example
 * createSigningHandler({ ...credentials, authorizeAdmin: adminTokenAuthorizer(process.env.CHATBOT_ADMIN_TOKEN!) });
 */
export function adminTokenAuthorizer(token: string): (request: Request) => boolean {
  if (typeof token !== 'string' || token.length < 16) {
    throw new TypeError('adminTokenAuthorizer: the admin token must be a string of at least 16 characters (e.g. CHATBOT_ADMIN_TOKEN).');
  }
  return (request) => {
    const given = request.headers.get(ADMIN_TOKEN_HEADER);
    return given !== null && timingSafeEqual(given, token);
  };
}
