/**
 * A reply source that asks any OpenAI-compatible chat-completions endpoint (OpenAI, Azure's
 * compatible endpoint, Ollama, LM Studio, vLLM, llama.cpp's server, …) for the bot's reply, with the
 * recent messages of the session as context.
 */
import type { ReplyHistoryItem, ReplyRequest, ReplySource } from './types.js';

export interface OpenAIReplySourceOptions {
  /** Base URL of the API, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:11434/v1`; `/chat/completions` is appended. */
  baseUrl: string;
  /** Model name sent in every request, e.g. `gpt-4o-mini`. */
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>`; never appears in an error message. */
  apiKey: string;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof globalThis.fetch;
  /** Give up after this many milliseconds (default 30,000). */
  timeoutMs?: number;
  /** First message of every conversation, as the `system` role. Default: {@link DEFAULT_SYSTEM_PROMPT}. */
  systemPrompt?: string;
  /** How many of the session's earlier messages to send as context, most recent kept (default 10). */
  maxHistory?: number;
}

export const DEFAULT_SYSTEM_PROMPT =
  "You are the helpful assistant of a website's chat widget. Answer briefly and plainly. " +
  'You may use Markdown: links, lists and code blocks are rendered.';

type ChatRole = 'system' | 'user' | 'assistant';
export interface ChatCompletionMessage {
  role: ChatRole;
  content: string;
}

/**
 * The messages sent for one reply: the system prompt, the session's recent history (a `User`
 * message as `user`, any other sender, the bot or a human agent, as `assistant`), then the message
 * being answered.
 */
export function buildChatMessages(
  request: Pick<ReplyRequest, 'content' | 'history' | 'file'>,
  systemPrompt: string,
  maxHistory: number,
): ChatCompletionMessage[] {
  const recent: ReplyHistoryItem[] = maxHistory > 0 ? request.history.slice(-maxHistory) : [];
  const content = request.file ? `${request.content}\n\n(Attached file: ${request.file})` : request.content;
  return [
    { role: 'system', content: systemPrompt },
    ...recent.map((item): ChatCompletionMessage => ({ role: item.senderType === 'User' ? 'user' : 'assistant', content: item.text })),
    { role: 'user', content },
  ];
}

/**
 * Creates a reply source backed by an OpenAI-compatible `POST {baseUrl}/chat/completions`.
 * Errors reject with a message that says what failed (HTTP status and the endpoint's own error
 * text, a body that is not a completion, a timeout, an unreachable server); the API key is never
 * part of it.
 *
 * @example
 * const source = createOpenAIReplySource({
 *   baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3.2', apiKey: 'ollama',
 * });
 */
export function createOpenAIReplySource(options: OpenAIReplySourceOptions): ReplySource {
  const { model, apiKey } = options;
  const endpoint = completionsUrl(options.baseUrl);
  const where = `${endpoint.origin}${endpoint.pathname}`;
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const systemPrompt = options.systemPrompt ?? DEFAULT_SYSTEM_PROMPT;
  const maxHistory = options.maxHistory ?? 10;
  if (!model) throw new TypeError('OpenAI reply source: a model name is required.');
  if (!apiKey) throw new TypeError('OpenAI reply source: an API key is required (any text for servers that ignore it).');
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new RangeError(`OpenAI reply source: timeoutMs must be a positive number, got ${timeoutMs}.`);
  if (!Number.isInteger(maxHistory) || maxHistory < 0)
    throw new RangeError(`OpenAI reply source: maxHistory must be a whole number >= 0, got ${maxHistory}.`);

  // Endpoints sometimes echo the credential they refused; it must not reach a log or a response.
  const redact = (text: string): string => text.split(apiKey).join('[redacted]');
  const fail = (message: string, cause?: unknown): Error =>
    new Error(redact(`OpenAI reply source (${where}, model ${model}): ${message}`), cause === undefined ? undefined : { cause });

  return {
    name: `openai:${model}`,
    async reply(request: ReplyRequest, signal?: AbortSignal): Promise<string> {
      const timeout = AbortSignal.timeout(timeoutMs);
      const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
      const body = JSON.stringify({ model, messages: buildChatMessages(request, systemPrompt, maxHistory) });

      let response: Response;
      let text: string;
      try {
        response = await fetchImpl(endpoint, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${apiKey}` },
          body,
          signal: combined,
          redirect: 'error',
        });
        text = await response.text();
      } catch (error) {
        if (signal?.aborted) throw fail('the reply was cancelled.', signal.reason);
        if (timeout.aborted) throw fail(`no answer within ${timeoutMs} ms.`);
        throw fail(
          `could not reach the endpoint: ${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}.`,
        );
      }

      if (!response.ok) {
        const detail = errorText(text);
        throw fail(`HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${detail ? `: ${detail}` : '.'}`);
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw fail(`the answer is not JSON (starts with ${JSON.stringify(text.slice(0, 60))}).`);
      }
      const content = completionContent(parsed);
      if (content === undefined) throw fail('the answer has no choices[0].message.content.');
      if (content.trim() === '') throw fail('the model returned an empty reply.');
      return content;
    },
  };
}

function completionsUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(
      `OpenAI reply source: baseUrl must be an absolute URL such as https://api.openai.com/v1, got ${JSON.stringify(baseUrl)}.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`OpenAI reply source: baseUrl must be an http or https URL, got ${url.protocol}.`);
  }
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/chat/completions`;
  return url;
}

/** The reply text of a chat completion: a string, or the text parts of a content array. */
function completionContent(body: unknown): string | undefined {
  const choices = (body as { choices?: unknown } | null)?.choices;
  const message = Array.isArray(choices) ? (choices[0] as { message?: { content?: unknown } } | undefined)?.message : undefined;
  const content = message?.content;
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    const parts = content
      .map((part) =>
        part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : '',
      )
      .join('');
    return parts;
  }
  return undefined;
}

/** The endpoint's own error message (`{ error: { message } }` or `{ error: "…" }`), short. */
function errorText(text: string): string {
  let message: string = text;
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown } | null;
    const candidate = typeof body?.error === 'string' ? body.error : (body?.error?.message ?? body?.message);
    if (typeof candidate === 'string') message = candidate;
  } catch {
    // Not JSON: the raw text (often an HTML error page) is shown, shortened.
  }
  message = message.replace(/\s+/g, ' ').trim();
  return message.length > 200 ? `${message.slice(0, 200)}…` : message;
}
