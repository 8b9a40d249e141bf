/**
 * Routes of the Developer API (docs/api.md), matched on the raw path under the base path.
 * Literal segments match in any case, as upstream's router does; a single trailing slash is
 * ignored. Path parameters stay raw here: the pipeline decodes them after authentication, since
 * the signature covers the raw text.
 */

export type RouteName = 'send' | 'listMessages' | 'getMessage' | 'count' | 'countByMonth' | 'listUsers' | 'listSessions';

interface RouteMatch {
  name: RouteName;
  /** The one method the route answers. */
  method: 'GET' | 'POST';
  /** Raw (still percent-encoded) `{chatbotId}` segment. */
  chatbotId: string;
  /** Raw `{messageId}` segment, for `getMessage`. */
  messageId?: string;
}

const same = (a: string | undefined, b: string) => a !== undefined && a.toLowerCase() === b.toLowerCase();

/** The route a raw path (no query) names, or undefined. `basePath` is e.g. `/api`. */
export function matchRoute(path: string, basePath: string): RouteMatch | undefined {
  if (!path.startsWith(`${basePath}/`)) return undefined;
  let rest = path.slice(basePath.length + 1);
  if (rest.endsWith('/')) rest = rest.slice(0, -1);
  const segments = rest.split('/');
  if (segments.some((s) => s === '')) return undefined;
  const [dev, chatbotId, resource, sub, ...extra] = segments;
  if (!same(dev, 'Dev') || chatbotId === undefined || resource === undefined || extra.length > 0) return undefined;
  if (sub === undefined) {
    if (same(resource, 'message')) return { name: 'send', method: 'POST', chatbotId };
    if (same(resource, 'messages')) return { name: 'listMessages', method: 'GET', chatbotId };
    if (same(resource, 'users')) return { name: 'listUsers', method: 'GET', chatbotId };
    if (same(resource, 'sessions')) return { name: 'listSessions', method: 'GET', chatbotId };
    return undefined;
  }
  if (!same(resource, 'messages')) return undefined;
  if (same(sub, 'count')) return { name: 'count', method: 'GET', chatbotId };
  if (same(sub, 'count-by-month')) return { name: 'countByMonth', method: 'GET', chatbotId };
  return { name: 'getMessage', method: 'GET', chatbotId, messageId: sub };
}
