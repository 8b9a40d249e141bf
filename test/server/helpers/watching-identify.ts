// A site's identify() that reads the request as a site's code would (its cookie, the body through
// a clone, its signal) and notes what it saw, so the adapters' tests can prove a host callback gets
// a working Request whatever the runtime hands the handler.
import type { Identity } from '../../../src/server/index.js';

/** What the site's identify() saw of one request. */
export interface SeenByIdentify {
  isRequest: boolean;
  cookie: string | null;
  body: string;
  signalLive: boolean;
}

/** An identify() that logs every visitor in as `userId`, and pushes what it saw into `seen`. */
export function watchingIdentify(seen: SeenByIdentify[], userId = 'host_user_1'): (request: Request) => Promise<Identity> {
  return async (request) => {
    seen.push({
      isRequest: request instanceof Request,
      cookie: request.headers.get('cookie'),
      body: await request.clone().text(),
      signalLive: request.signal instanceof AbortSignal && !request.signal.aborted,
    });
    return { userId };
  };
}
