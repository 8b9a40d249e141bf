import { ChatbotError } from './chatbot-error.js';

/**
 * The upstream could not be reached, or the connection broke before a whole answer arrived
 * (DNS failure, refused or reset connection, TLS failure). `cause` holds what `fetch` threw.
 * Reads are retried on it; a send is not, because the message may have been stored.
 */
export class ChatbotNetworkError extends ChatbotError {
  override name = 'ChatbotNetworkError';

  /** The URL that was being requested (it carries no credentials). */
  readonly url: string;

  constructor(url: string, options?: { cause?: unknown; detail?: string }) {
    const detail = options?.detail ?? describeCause(options?.cause);
    super(`Could not reach the chatbot API at ${url}${detail ? `: ${detail}` : ''}`, options);
    this.url = url;
  }
}

// undici wraps the useful part ("ECONNREFUSED 127.0.0.1:9") in `cause` of its bare "fetch failed".
function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return '';
  const inner = (cause as Error & { cause?: unknown }).cause;
  if (inner instanceof Error && inner.message) return inner.message;
  return cause.message;
}
