/**
 * The client address the per-address limits count, as each handler reads it: the `clientAddress`
 * option's answer, else the adapter's, in its bucket (without a port; an IPv6 /64 counts as one
 * address, see address-bucket.ts).
 */
import type { HandlerContext, ResolvedOptions } from '../core/options.js';
import { addressBucket } from './address-bucket.js';

/** The bucket of requests without an address, or with one that is no IP address: one for all of them. */
const UNKNOWN_ADDRESS = 'unknown';
/** Longest address text read: every real address, with a port and brackets, is far shorter. */
const MAX_ADDRESS_CHARS = 100;

/** One per handler: it tells that handler's owner, once, when addresses are not IP addresses. */
export class ClientAddresses {
  /** Told already: once per handler, not per request. */
  #toldOfUnknown = false;

  readonly #options: ResolvedOptions;
  constructor(options: ResolvedOptions) {
    this.#options = options;
  }

  /** The address bucket of `request`. */
  of(request: Request, context: HandlerContext | undefined): string {
    const options = this.#options;
    const chosen = options.clientAddress ? options.clientAddress(request) : context?.clientAddress;
    // Without an address every such request shares one bucket: safe, if strict.
    if (typeof chosen !== 'string' || chosen.trim() === '') return UNKNOWN_ADDRESS;
    const bucket = addressBucket(chosen.slice(0, MAX_ADDRESS_CHARS));
    if (bucket !== undefined) return bucket;
    if (!this.#toldOfUnknown) {
      this.#toldOfUnknown = true;
      // Not quoted: the text may come from a header anyone can write.
      options.logger.warn(
        'a client address is not an IP address (IPv4 or IPv6, with or without a port): requests with such addresses ' +
          'share one per-address limit. Check the clientAddress option or the adapter. This is said once.',
      );
    }
    return UNKNOWN_ADDRESS;
  }
}
