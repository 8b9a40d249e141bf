/**
 * The built-in emulator of the upstream chatbot Developer API (docs/api.md): every
 * endpoint, HMAC verification, quotas, sessions and usage figures, on SQLite.
 *
 * @example
 * import { createEmulator } from 'chatbot-widget/emulator';
 * const emulator = createEmulator({ db: ':memory:' });
 * const { url, close } = await emulator.listen({ port: 0 });
 * const [bot] = emulator.chatbots; // bot.id, bot.apiKey, bot.apiSecret
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { validateChatbots, generateDemoChatbot, type ChatbotConfig } from './config.js';
import type { EmulatorContext } from './context.js';
import { apiErrors } from './errors.js';
import { writeJson } from './http-io.js';
import { handleRequest } from './pipeline.js';
import type { ReplySource } from './replies/types.js';
import { assertEmulatorDependencies } from './dependencies.js';
import { checkSeedRecord, importSeedFile, SeedError } from './seed.js';
import { openSqliteStore } from './store/sqlite.js';
import type { EmulatorStore, ImportedMessage } from './store/types.js';
import { countTokens } from './tokens.js';
import { randomUUID } from 'node:crypto';

export type { ChatbotConfig } from './config.js';
export { loadConfig, ConfigError, TIER_DAILY_LIMITS } from './config.js';
export { SeedError } from './seed.js';
export { EmulatorDependencyError, EMULATOR_INSTALL_COMMAND } from './dependencies.js';
export type { ReplySource, ReplyRequest, ReplyHistoryItem } from './replies/types.js';
export type { EmulatorStore } from './store/types.js';

/** Options of {@link createEmulator}; every one has a default. */
export interface EmulatorOptions {
  /** SQLite file (its folder is created) or `':memory:'`. Default `.data/emulator.sqlite`. */
  db?: string;
  /** Chatbots served. Default: one demo chatbot (`demo`, premium tier) whose generated key and
   * secret are kept in the database, so they stay the same across restarts on the same `db`. */
  chatbots?: ChatbotConfig[];
  /** Where replies come from. Default `createDefaultReplySource()` (the docs' knowledge base), loaded on the first send. */
  replySource?: ReplySource;
  /** Clock in ms, for tests: the quota day, the timestamp window and the session rule read it. */
  now?: () => number;
  /** Path prefix the API lives under. Default `/api`. */
  basePath?: string;
}

/** A running emulator. */
export interface Emulator {
  /** The chatbots served, with their keys and secrets. */
  readonly chatbots: ChatbotConfig[];
  /**
   * Node request listener. Answers requests whose path starts with `basePath` (a 404 envelope for
   * any other path). Signatures are checked against the raw `req.url` (or Express's
   * `req.originalUrl`), so mount it where the URL is not rewritten.
   */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** Starts its own node:http server; `port` 0 picks a free one. `url` is e.g. `http://127.0.0.1:PORT/api`. */
  listen(options?: { port?: number; host?: string }): Promise<{ url: string; port: number; close(): Promise<void> }>;
  /** Imports a JSON Lines seed file. Checks the whole file first; a bad line rejects
   * with a {@link SeedError} naming it, and nothing is imported. */
  importSeed(path: string): Promise<{ imported: number }>;
  /** Adds `count` realistic messages spread over the last 18 months (users, sessions, replies). */
  generateDemoData(count: number): Promise<{ generated: number }>;
  /** Closes the database. Servers from {@link Emulator.listen} are closed by their own `close()`. */
  close(): void;
}

const DEMO_CHATBOT_SETTING = 'demo-chatbot';

/** The demo chatbot kept in the database, or a new one stored there. */
function demoChatbot(store: EmulatorStore): ChatbotConfig {
  const saved = store.getSetting(DEMO_CHATBOT_SETTING);
  if (saved) {
    try {
      return validateChatbots([JSON.parse(saved)], 'stored demo chatbot')[0]!;
    } catch {
      // A damaged setting is replaced by fresh credentials below.
    }
  }
  const chatbot = generateDemoChatbot();
  store.setSetting(DEMO_CHATBOT_SETTING, JSON.stringify(chatbot));
  return chatbot;
}

/**
 * Creates an emulator on a SQLite store. Throws a `ConfigError` for a bad chatbot list, and an
 * `EmulatorDependencyError` naming the install command when the emulator's own dependencies
 * (better-sqlite3, gpt-tokenizer, minisearch) are not installed.
 *
 * @example
 * const emulator = createEmulator({
 *   db: ':memory:',
 *   chatbots: [{ id: 'bot_a', apiKey: 'pk_a', apiSecret: 'sk_a', tier: 'free' }],
 *   replySource: { name: 'echo', reply: async (r) => `You said: ${r.content}` },
 * });
 * const server = await emulator.listen({ port: 0 });
 * // … signed requests to `${server.url}/Dev/bot_a/message` …
 * await server.close();
 * emulator.close();
 */
export function createEmulator(options: EmulatorOptions = {}): Emulator {
  assertEmulatorDependencies();
  const basePath = (options.basePath ?? '/api').replace(/\/+$/, '');
  if (basePath !== '' && !basePath.startsWith('/')) throw new TypeError('basePath must start with "/"');
  const configured = options.chatbots ? validateChatbots(options.chatbots, 'options.chatbots') : undefined;
  const store = openSqliteStore(options.db ?? '.data/emulator.sqlite');
  const chatbots = configured ?? [demoChatbot(store)];

  let replySource: Promise<ReplySource> | undefined = options.replySource ? Promise.resolve(options.replySource) : undefined;
  const ctx: EmulatorContext = {
    store,
    chatbots: new Map(chatbots.map((c) => [c.id, c])),
    keys: new Map(chatbots.map((c) => [c.apiKey, c])),
    now: options.now ?? Date.now,
    basePath,
    // The knowledge base indexes the docs: load it on the first send, not at start.
    replySource: () => {
      replySource ??= import('./replies/index.js').then((m) => m.createDefaultReplySource());
      replySource.catch(() => (replySource = undefined));
      return replySource;
    },
    countTokens,
  };
  const known = new Set(chatbots.map((c) => c.id));

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const target = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '/';
    if (!(target === basePath || target.startsWith(`${basePath}/`) || target.startsWith(`${basePath}?`))) {
      const error = apiErrors.routeNotFound(basePath);
      writeJson(res, error.status, error.body);
      return;
    }
    void handleRequest(ctx, req, res, target);
  };

  return {
    chatbots,
    listener,
    listen({ port = 8787, host = '127.0.0.1' } = {}) {
      const server = createServer(listener);
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const actual = (server.address() as AddressInfo).port;
          const shownHost = host.includes(':') ? `[${host}]` : host;
          resolve({
            url: `http://${shownHost}:${actual}${basePath}`,
            port: actual,
            close: () =>
              new Promise<void>((done) => {
                server.close(() => done());
                server.closeAllConnections();
              }),
          });
        });
      });
    },
    async importSeed(path: string) {
      return { imported: importSeedFile(path, store, known, countTokens) };
    },
    async generateDemoData(count: number) {
      if (!Number.isSafeInteger(count) || count < 0) throw new RangeError('count must be a whole number of at least 0');
      if (count === 0) return { generated: 0 };
      const { generateDemoMessages } = await import('./demo-data.js');
      const chatbotId = chatbots[0]!.id;
      let index = 0;
      function* messages(): Generator<ImportedMessage> {
        for (const record of generateDemoMessages({ count, chatbotId, now: new Date(ctx.now()), months: 18 })) {
          index++;
          const checked = checkSeedRecord(record, known, countTokens);
          if ('error' in checked) throw new SeedError(`demo record ${index}: ${checked.error}`, index);
          yield { ...checked.message, id: checked.message.id ?? randomUUID() };
        }
      }
      return { generated: store.importMessages(messages(), count) };
    },
    close() {
      store.close();
    },
  };
}
