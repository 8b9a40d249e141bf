/**
 * The `chatbot-emulator` command: argument parsing and printing around the emulator of
 * `src/emulator`. Exits 2 on bad usage, a bad config or a bad seed (one line on stderr), 1 when the
 * emulator cannot run; otherwise serves until the entry (chatbot-emulator.ts) stops it.
 */
import { createEmulator, ConfigError, loadConfig, SeedError, type ChatbotConfig, type ReplySource } from '../emulator/index.js';
import { assertEmulatorDependencies } from '../emulator/dependencies.js';
import { dailyLimitOf } from '../emulator/config.js';
import { existsSync } from 'node:fs';

/** better-sqlite3's name for a database that lives only as long as the process. */
const IN_MEMORY = ':memory:';

/** `1 message`, `10,000 messages`. */
function messages(count: number): string {
  return `${count.toLocaleString('en')} ${count === 1 ? 'message' : 'messages'}`;
}

const USAGE = `Usage: chatbot-emulator [flags]

Runs a local emulator of the chatbot Developer API (every endpoint, HMAC signatures, quotas) on SQLite.

Flags:
  --port N         port to listen on (default 8787; 0 picks a free one)
  --host H         address to listen on (default 127.0.0.1)
  --config FILE    chatbots and their keys: { "chatbots": [ { "id", "apiKey", "apiSecret", "tier", "dailyLimit"? } ] }
                   (default: one demo chatbot; its key and secret are printed, and kept in the
                   database file so they stay the same across restarts; with :memory: they are new each run)
  --db PATH        SQLite database file, or :memory: to keep nothing (default .data/emulator.sqlite)
  --seed FILE      import messages from JSON Lines before listening (the whole file is checked first);
                   adds to what the database holds
  --demo-data N    generate N realistic messages over the last 18 months before listening. It adds:
                   every start with it adds N more to the same database. For a clean demo, use a
                   fresh --db (or --db :memory:)
  -h, --help       show this help

Replies come from a knowledge base of the project's docs; set CHATBOT_EMULATOR_OPENAI_BASE_URL,
CHATBOT_EMULATOR_OPENAI_MODEL and CHATBOT_EMULATOR_OPENAI_API_KEY to use an OpenAI-compatible endpoint.`;

/** Where the command writes; injectable so it can run in-process too. */
interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The emulator the command started, serving until stopped. */
export interface ServingEmulator {
  stop(): Promise<void>;
}

class UsageError extends Error {}

interface Flags {
  port: number;
  host: string;
  config?: string;
  db: string;
  seed?: string;
  demoData: number;
  help: boolean;
}

function wholeNumber(flag: string, text: string, max: number): number {
  if (!/^\d+$/.test(text) || Number(text) > max) throw new UsageError(`${flag} needs a whole number from 0 to ${max}, not "${text}"`);
  return Number(text);
}

function parseFlags(argv: string[]): Flags {
  const flags: Flags = { port: 8787, host: '127.0.0.1', db: '.data/emulator.sqlite', demoData: 0, help: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '-h' || arg === '--help') {
      flags.help = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') && eq !== -1 ? arg.slice(0, eq) : arg;
    const known = ['--port', '--host', '--config', '--db', '--seed', '--demo-data'];
    if (!known.includes(name)) throw new UsageError(`unknown argument "${arg}" (see --help)`);
    let value: string | undefined;
    if (eq !== -1 && arg.startsWith('--')) value = arg.slice(eq + 1);
    else {
      value = argv[++i];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${name} needs a value (see --help)`);
    }
    if (value === '') throw new UsageError(`${name} needs a value (see --help)`);
    switch (name) {
      case '--port':
        flags.port = wholeNumber('--port', value, 65535);
        break;
      case '--host':
        flags.host = value;
        break;
      case '--config':
        flags.config = value;
        break;
      case '--db':
        flags.db = value;
        break;
      case '--seed':
        flags.seed = value;
        break;
      case '--demo-data':
        flags.demoData = wholeNumber('--demo-data', value, 100_000_000);
        break;
    }
  }
  return flags;
}

/**
 * Runs `chatbot-emulator` with `argv` (without the node and script paths). Resolves with the exit
 * code when it ends without serving (--help, bad usage, a refused config or seed, a port in use),
 * or with the emulator it started, listening.
 */
export async function runChatbotEmulator(
  argv: string[],
  env: Record<string, string | undefined>,
  io: CommandIo,
): Promise<number | ServingEmulator> {
  const fail = (message: string, code: number) => {
    io.stderr(`chatbot-emulator: ${message}\n`);
    return code;
  };

  let flags: Flags;
  try {
    flags = parseFlags(argv);
  } catch (error) {
    return fail((error as Error).message, 2);
  }
  if (flags.help) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }

  try {
    assertEmulatorDependencies();
  } catch (error) {
    return fail((error as Error).message, 1);
  }
  // The reply sources load the search index: imported once the dependencies are known to be there.
  const { createReplySourceFromEnv } = await import('../emulator/replies/index.js');

  let chatbots: ChatbotConfig[] | undefined;
  let replySource: ReplySource;
  try {
    if (flags.config) chatbots = loadConfig(flags.config);
    replySource = createReplySourceFromEnv(env);
  } catch (error) {
    return fail((error as Error).message, 2);
  }

  const inMemory = flags.db === IN_MEMORY;
  // Known before opening (which creates the file): whether data from earlier runs is in there.
  const existingDb = !inMemory && existsSync(flags.db);

  let emulator;
  try {
    emulator = createEmulator({ db: flags.db, replySource, ...(chatbots ? { chatbots } : {}) });
  } catch (error) {
    return fail(`cannot open the database ${flags.db}: ${(error as Error).message}`, 2);
  }

  try {
    if (flags.seed) {
      const started = performance.now();
      const { imported } = await emulator.importSeed(flags.seed);
      io.stdout(`Imported ${messages(imported)} from ${flags.seed} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    }
    if (flags.demoData > 0) {
      const started = performance.now();
      const { generated } = await emulator.generateDemoData(flags.demoData);
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      // --demo-data adds on every start; on a database from an earlier run, say so, since the
      // listings now hold more than N.
      const said = existingDb
        ? `Added ${generated.toLocaleString('en')} demo ${generated === 1 ? 'message' : 'messages'} to the existing database ${flags.db} in ${seconds} s ` +
          '(every --demo-data start adds more; use a fresh --db for a clean demo)'
        : `Generated ${generated.toLocaleString('en')} demo ${generated === 1 ? 'message' : 'messages'} in ${seconds} s`;
      io.stdout(`${said}\n`);
    }
  } catch (error) {
    emulator.close();
    if (error instanceof SeedError || error instanceof ConfigError) return fail(error.message, 2);
    return fail(`import failed: ${(error as Error).message}`, 1);
  }

  let server;
  try {
    server = await emulator.listen({ port: flags.port, host: flags.host });
  } catch (error) {
    emulator.close();
    const code = (error as NodeJS.ErrnoException).code;
    return fail(
      code === 'EADDRINUSE'
        ? `port ${flags.port} on ${flags.host} is in use; pick another with --port`
        : `cannot listen on ${flags.host}:${flags.port}: ${(error as Error).message}`,
      1,
    );
  }

  const lines = [
    `chatbot-emulator listening on ${server.url}`,
    `  database  ${inMemory ? `${IN_MEMORY} (in memory: nothing is kept after exit)` : flags.db}`,
    `  replies   ${replySource.name}`,
  ];
  for (const bot of emulator.chatbots) lines.push(`  chatbot   ${bot.id} (${bot.tier}, ${messages(dailyLimitOf(bot))} a UTC day)`);
  if (!flags.config) {
    // A local development emulator: its generated demo credentials are meant to be copied.
    const bot = emulator.chatbots[0]!;
    lines.push(
      `  API key   ${bot.apiKey}`,
      inMemory
        ? `  secret    ${bot.apiSecret}   (generated for this run: with --db ${IN_MEMORY}, the next start has new credentials)`
        : `  secret    ${bot.apiSecret}   (stored in ${flags.db}: the same on every start with this database)`,
      '',
      'Use it from a shell:',
      `  export CHATBOT_API_BASE_URL=${server.url}`,
      `  export CHATBOT_ID=${bot.id}`,
      `  export CHATBOT_API_KEY=${bot.apiKey}`,
      `  export CHATBOT_API_SECRET=${bot.apiSecret}`,
    );
  }
  io.stdout(`${lines.join('\n')}\n`);

  return {
    async stop() {
      await server.close();
      emulator.close();
    },
  };
}
