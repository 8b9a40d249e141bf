// A conformance harness: a real emulator on a loopback port, requests over real HTTP through
// node:http (so the request target goes on the wire byte for byte), signed with the independent
// node:crypto signer of test/helpers, never with src/shared's sign().
import { request as httpRequest } from 'node:http';
import { after } from 'node:test';
import { createEmulator, type ChatbotConfig, type Emulator, type EmulatorOptions, type ReplySource } from '../../src/emulator/index.js';
import { independentSignature } from '../helpers/independent-signer.js';

export const BOT_A: ChatbotConfig = { id: 'bot_a', apiKey: 'pk_test_a', apiSecret: 'sk_test_a_secret', tier: 'free' };
export const BOT_B: ChatbotConfig = { id: 'bot_b', apiKey: 'pk_test_b', apiSecret: 'sk_test_b_secret', tier: 'premium' };
export const BOT_TINY: ChatbotConfig = {
  id: 'bot_tiny',
  apiKey: 'pk_test_tiny',
  apiSecret: 'sk_test_tiny',
  tier: 'enterprise',
  dailyLimit: 3,
};

/** A reply source that answers at once and deterministically, recording what it was asked. */
export function echoReplies(): ReplySource & { requests: Parameters<ReplySource['reply']>[0][] } {
  const requests: Parameters<ReplySource['reply']>[0][] = [];
  return {
    name: 'echo',
    requests,
    async reply(request) {
      requests.push(request);
      return `You said: ${request.content}`;
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/** Sends exactly `path` (raw target) and `body` bytes, with the given headers. */
export function rawRequest(
  port: number,
  options: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer },
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: options.method, path: options.path, headers: options.headers ?? {} },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

export interface Harness {
  emulator: Emulator;
  port: number;
  /** Base URL, ending in /api. */
  url: string;
  /** The emulator's clock (ms); tests move it. */
  clock: { now: number };
  replies: ReturnType<typeof echoReplies>;
  /** A request signed for `bot` (default BOT_A) at the emulator's clock; `path` is under /api. */
  call(
    method: string,
    path: string,
    options?: { body?: string; bot?: ChatbotConfig; timestamp?: number; headers?: Record<string, string>; signedPath?: string },
  ): Promise<RawResponse>;
  /** A send for `user` (default u1) with `content`. */
  send(content: string, options?: { user?: string; name?: string; bot?: ChatbotConfig; file?: string }): Promise<RawResponse>;
}

/** Starts an emulator for the current test file, closed after it. */
export async function startHarness(options: Partial<EmulatorOptions> & { start?: number } = {}): Promise<Harness> {
  const clock = { now: options.start ?? Date.UTC(2025, 5, 15, 12, 0, 0) };
  const replies = echoReplies();
  const emulator = createEmulator({
    db: ':memory:',
    chatbots: [BOT_A, BOT_B, BOT_TINY],
    replySource: replies,
    now: () => clock.now,
    ...options,
  });
  const server = await emulator.listen({ port: 0 });
  after(async () => {
    await server.close();
    emulator.close();
  });
  const call: Harness['call'] = (method, path, o = {}) => {
    const bot = o.bot ?? BOT_A;
    const body = o.body ?? '';
    const timestamp = o.timestamp ?? Math.floor(clock.now / 1000);
    const target = `/api${path}`;
    const signature = independentSignature(bot.apiSecret, method, o.signedPath ?? target, body, timestamp);
    return rawRequest(server.port, {
      method,
      path: target,
      body: body === '' ? undefined : body,
      headers: {
        'Content-Type': 'application/json',
        'X-API-Key': bot.apiKey,
        'X-Timestamp': String(timestamp),
        'X-Signature': signature,
        ...o.headers,
      },
    });
  };
  return {
    emulator,
    port: server.port,
    url: server.url,
    clock,
    replies,
    call,
    send: (content, o = {}) => {
      const bot = o.bot ?? BOT_A;
      const message: Record<string, string> = { content };
      if (o.file) message.file = o.file;
      const body = JSON.stringify({ user: { id: o.user ?? 'u1', name: o.name ?? 'Ann' }, message });
      return call('POST', `/Dev/${bot.id}/message`, { body, bot });
    },
  };
}

/** Keys of an object, sorted, to assert an envelope carries exactly its fields. */
export const keysOf = (value: object) => Object.keys(value).sort();
export const ENVELOPE_KEYS = ['data', 'error'];
export const PAGED_KEYS = ['currentPage', 'data', 'error', 'pageSize', 'totalItems', 'totalPages'];
export const VALIDATION_KEYS = ['errors', 'status', 'title', 'traceId', 'type'];
