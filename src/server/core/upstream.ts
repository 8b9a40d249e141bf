/**
 * The handler's only way to the upstream API. Requests are built and signed by the typed client's
 * own code (client/signed-request.ts: the query built once, the body serialized once, both signed
 * as sent), from configuration and validated values only. Every request is signed afresh (new
 * timestamp), carries exactly four headers, does not follow redirects and is aborted after the timeout.
 * Upstream faults become the statuses of docs/handler.md, "Routes" (400, 429, 502, 504), without upstream texts or internals.
 */
import { retryAfterSeconds } from '../../shared/retry-after.js';
import { unixSeconds } from '../../shared/signature.js';
import { prepareRequest, signedHeaders, type PreparedRequest } from '../../client/signed-request.js';
import type { ResolvedOptions } from './options.js';
import { declaredLength, readCapped, StreamTooLarge } from './capped-stream.js';
import { refuse, TEXT } from './responses.js';

/** Upstream answers larger than this are treated as malformed rather than buffered. */
export const MAX_UPSTREAM_BODY_BYTES = 4 * 1024 * 1024;
const decoder = new TextDecoder('utf-8', { fatal: true });

/** Reads an answer's headers by name, as `Headers.get` does. */
export type HeaderReader = Pick<Headers, 'get'>;

/** One upstream request, relative to `{apiBaseUrl}/Dev/{chatbotId}`. */
export interface UpstreamCall {
  method: 'GET' | 'POST';
  /** Fixed route text plus validated ids, e.g. `/messages/${messageId}`. */
  path: string;
  /** How logs name the call, without ids: `GET /messages/{messageId}`. */
  label: string;
  query?: Record<string, string | number | undefined>;
  /** The JSON body (POST): serialized once by the request builder, and those bytes signed and sent. */
  body?: unknown;
  /** Hears the answer's headers as soon as they arrive, whatever the status (the quota headers of sends). */
  onHeaders?: (headers: HeaderReader) => void;
}

/** An upstream answer the route decides about: 2xx, 400 or 404, with its parsed JSON body. */
export interface UpstreamAnswer {
  status: number;
  body: unknown;
}

class UpstreamTimeout extends Error {}

/**
 * The answer's body as text, at most {@link MAX_UPSTREAM_BODY_BYTES} of UTF-8. A body whose length
 * is declared, within the cap and not compressed is read whole in one go: HTTP delivers exactly
 * that many bytes, and a Web stream read chunk by chunk costs more than such an answer (its size is
 * still checked). Any other body is counted as it arrives, and reading stops past the cap: a
 * compressed answer can unpack to far more than it declares.
 */
async function readLimited(response: Response): Promise<string> {
  const declared = declaredLength(response.headers);
  const encoding = response.headers.get('Content-Encoding');
  if (declared !== undefined && declared <= MAX_UPSTREAM_BODY_BYTES && (!encoding || encoding === 'identity')) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.byteLength > MAX_UPSTREAM_BODY_BYTES) throw new StreamTooLarge();
    return decoder.decode(bytes);
  }
  if (!response.body) return '';
  return decoder.decode(await readCapped(response.body, MAX_UPSTREAM_BODY_BYTES));
}

/** What the handler judges of an upstream answer: its status, headers and body text. */
interface RawAnswer {
  status: number;
  headers: HeaderReader;
  text: string;
}

/**
 * A failed call, logged and answered: 504 when it ran out of time (body included), 502 when an
 * answer came but its body broke off, went past the cap or was not UTF-8, 502 when none came.
 */
function callFailed(options: ResolvedOptions, where: string, timedOut: boolean, status: number | undefined, code: unknown): never {
  if (timedOut) {
    options.logger.warn(`upstream ${where} did not answer within ${options.upstreamTimeoutMs} ms`);
    refuse(504, TEXT.upstreamTimeout);
  }
  if (status !== undefined) {
    options.logger.error(`upstream ${where} answered ${status} with a body that is too large or not UTF-8`);
    refuse(502, TEXT.upstreamDown);
  }
  options.logger.error(`upstream ${where} could not be reached${typeof code === 'string' ? ` (${code})` : ''}`);
  refuse(502, TEXT.upstreamDown);
}

/** The call over the `fetch` option: one timer for the whole call, body included. */
async function overFetch(options: ResolvedOptions, call: UpstreamCall, request: PreparedRequest, headers: Record<string, string>) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new UpstreamTimeout()), options.upstreamTimeoutMs);
  let response: Response | undefined;
  try {
    response = await options.fetch(request.url, {
      method: call.method,
      headers,
      body: request.bodyBytes,
      redirect: 'manual',
      // The handler's own signal only, never the browser request's: a send handed to upstream is
      // seen through even when the visitor's connection goes away meanwhile.
      signal: controller.signal,
    });
    call.onHeaders?.(response.headers);
    return { status: response.status, headers: response.headers, text: await readLimited(response) } satisfies RawAnswer;
  } catch (error) {
    callFailed(options, call.label, controller.signal.aborted, response?.status, (error as { cause?: { code?: unknown } })?.cause?.code);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Sends a signed request upstream and returns its answer when it is one the route must judge
 * (2xx, 400, 404). Anything else ends the request here with 429, 502 or 504.
 */
export async function callUpstream(options: ResolvedOptions, call: UpstreamCall): Promise<UpstreamAnswer> {
  const { logger } = options;
  const request = prepareRequest(
    options.upstreamBase,
    call.method,
    `/Dev/${options.chatbotId}${call.path}`,
    call.query,
    call.method === 'POST' ? call.body : undefined,
  );
  const headers = await signedHeaders(request, options, unixSeconds(options.now()));
  const where = call.label;
  const response = await overFetch(options, call, request, headers);
  const text = response.text;

  const status = response.status;
  if (status === 429) {
    // Seconds until upstream's quota window ends (a daily quota resets at UTC midnight), 60 when it did not say.
    const wait = retryAfterSeconds(429, response.headers, options.now()) ?? 60;
    refuse(429, TEXT.upstreamBusy, { 'Retry-After': String(Math.min(86_400, Math.max(1, wait))) });
  }
  if (status === 401 || status === 403) {
    logger.error(
      `the upstream refused the handler's credentials (${status} on ${where}): check CHATBOT_API_KEY/SECRET/ID (apiKey, apiSecret, chatbotId) and the server clock`,
    );
    refuse(502, TEXT.upstreamConfig);
  }
  if (status >= 500) {
    logger.error(`upstream ${where} answered ${status}`);
    refuse(502, TEXT.upstreamDown);
  }
  // opaqueredirect (status 0) on runtimes that hide manual redirects, 3xx elsewhere.
  if (status === 0 || (status >= 300 && status < 400)) {
    logger.error(`upstream ${where} answered with a redirect (${status}); redirects are not followed: check apiBaseUrl`);
    refuse(502, TEXT.upstreamDown);
  }
  if (status !== 400 && status !== 404 && (status < 200 || status >= 300)) {
    logger.error(`upstream ${where} answered ${status}, which the handler does not expect`);
    refuse(502, TEXT.upstreamDown);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    logger.error(`upstream ${where} answered ${status} with a body that is not JSON`);
    refuse(502, TEXT.upstreamDown);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    logger.error(`upstream ${where} answered ${status} with JSON that is not an object`);
    refuse(502, TEXT.upstreamDown);
  }
  return { status, body: parsed };
}
