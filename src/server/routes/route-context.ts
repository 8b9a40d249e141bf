/** What every route function receives. */
import type { HandlerContext, ResolvedOptions } from '../core/options.js';
import type { MatchedRoute } from '../core/route-table.js';
import type { ClientAddresses } from '../identity/client-address.js';
import type { VerifiedTokens } from '../identity/verified-tokens.js';

export interface RouteContext {
  request: Request;
  url: URL;
  route: MatchedRoute;
  options: ResolvedOptions;
  /** The adapter's context (client address), if any. */
  context: HandlerContext | undefined;
  /** Key of the visitor tokens, derived once per handler. */
  visitorKey: Promise<string>;
  /** Checks visitor tokens, remembering the ones seen last. */
  tokens: VerifiedTokens;
  /** Reads client addresses for the per-address limits. */
  addresses: ClientAddresses;
}
