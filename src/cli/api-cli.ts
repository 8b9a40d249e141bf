/**
 * The `chatbot-api` command: argument parsing and printing around ChatbotClient.
 * Prints the JSON envelope received on stdout; exits 0 on 2xx, 1 on an API error (one line on
 * stderr, and the envelope on stdout when the answer had a JSON body), 2 on bad usage.
 * The API secret is never printed, not even inside an error.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ChatbotClient } from '../client/chatbot-client.js';
import { ChatbotError } from '../client/errors/chatbot-error.js';
import { ChatbotHttpError } from '../client/errors/chatbot-http-error.js';
import { schemeHint } from '../client/signed-request.js';
import { formatUsageTable } from './usage-table.js';

/** Where the command writes; injectable so it can run in-process too. */
interface CommandIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

const EXIT_OK = 0;
const EXIT_API_ERROR = 1;
const EXIT_USAGE = 2;

const HELP = `Usage: chatbot-api <command> [flags]

Calls the chatbot Developer API, signed with your key, and prints the JSON envelope.

Commands:
  send <text> --user ID --name NAME [--file URL]   send a message as that user, print the reply
  messages [--session ID] [--user ID] [--page N] [--page-size N]
  message <messageId>                                 one message
  count --from DATE --to DATE [--sent true|false]     number of messages in [from, to)
  usage --from DATE --to DATE [--table]               usage per month (--table: a readable table)
  users [--page N] [--page-size N]
  sessions [--user ID] [--page N] [--page-size N]

Credentials (flags override the environment):
  --base-url URL     CHATBOT_API_BASE_URL   the API base URL, ending in /api (http://localhost:8080/api)
  --api-key KEY      CHATBOT_API_KEY        pk_…
  --api-secret S     CHATBOT_API_SECRET     sk_… (prefer the environment: flags show up in process lists)
  --chatbot-id ID    CHATBOT_ID

Other flags:
  --timeout MS       time limit per attempt (default 10000)
  -h, --help         this text

Dates are ISO 8601 (2025-01-31, 2025-01-31T12:00:00Z). Exit codes: 0 success, 1 API or
network error (message on stderr), 2 bad usage.
`;

const GLOBAL_OPTIONS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'api-secret': { type: 'string' },
  'chatbot-id': { type: 'string' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

const COMMAND_OPTIONS = {
  send: { user: { type: 'string' }, name: { type: 'string' }, file: { type: 'string' } },
  messages: { session: { type: 'string' }, user: { type: 'string' }, page: { type: 'string' }, 'page-size': { type: 'string' } },
  message: {},
  count: { from: { type: 'string' }, to: { type: 'string' }, sent: { type: 'string' } },
  usage: { from: { type: 'string' }, to: { type: 'string' }, table: { type: 'boolean' } },
  users: { page: { type: 'string' }, 'page-size': { type: 'string' } },
  sessions: { user: { type: 'string' }, page: { type: 'string' }, 'page-size': { type: 'string' } },
} as const satisfies Record<string, ParseArgsConfig['options']>;

type Command = keyof typeof COMMAND_OPTIONS;
type Values = Record<string, string | boolean | undefined>;

/** A mistake in how the command was called: exit 2 with a hint. */
class UsageError extends Error {}

const CREDENTIALS = [
  { option: 'baseUrl', flag: 'base-url', env: 'CHATBOT_API_BASE_URL' },
  { option: 'apiKey', flag: 'api-key', env: 'CHATBOT_API_KEY' },
  { option: 'apiSecret', flag: 'api-secret', env: 'CHATBOT_API_SECRET' },
  { option: 'chatbotId', flag: 'chatbot-id', env: 'CHATBOT_ID' },
] as const;

/**
 * Runs `chatbot-api` with `argv` (without the node and script paths) and resolves with the
 * exit code. `fetch` is only for embedding; the command itself uses the global one.
 */
export async function runChatbotApi(
  argv: string[],
  env: Record<string, string | undefined>,
  io: CommandIo,
  fetchImpl?: typeof fetch,
): Promise<number> {
  // Defence in depth: whatever goes to stderr passes through here, and no secret known to the
  // command (from the environment, then from a flag) gets through.
  const secrets = [env.CHATBOT_API_SECRET].filter((value): value is string => !!value);
  const redact = (text: string) => secrets.reduce((out, secret) => out.split(secret).join('[redacted]'), text);
  const fail = (text: string) => io.stderr(`chatbot-api: ${redact(text)}\n`);
  try {
    const { command, values, positionals } = parseCommandLine(argv);
    if (values.help || command === 'help') {
      io.stdout(HELP);
      return EXIT_OK;
    }
    if (typeof values['api-secret'] === 'string' && values['api-secret']) secrets.push(values['api-secret']);
    const credentials = readCredentials(values, env);
    const timeoutMs = values.timeout === undefined ? undefined : positiveInteger('--timeout', values.timeout as string);
    const request = buildCall(command, values, positionals);
    const baseUrlSource = values['base-url'] === undefined ? 'CHATBOT_API_BASE_URL' : '--base-url';
    checkBaseUrl(credentials.baseUrl, baseUrlSource);
    let client: ChatbotClient;
    try {
      client = new ChatbotClient({ ...credentials, timeoutMs, fetch: fetchImpl });
    } catch (error) {
      // Name what the user set, not the client's option.
      throw new UsageError((error as Error).message.replace(/^ChatbotClient: /, '').replace(/^baseUrl\b/, baseUrlSource));
    }
    try {
      const envelope = await request(client);
      if (command === 'usage' && values.table)
        io.stdout(formatUsageTable((envelope as { data: Parameters<typeof formatUsageTable>[0] }).data));
      else io.stdout(`${JSON.stringify(envelope, null, 2)}\n`);
      return EXIT_OK;
    } catch (error) {
      if (!(error instanceof ChatbotError)) throw error;
      if (error instanceof ChatbotHttpError && error.body !== undefined) io.stdout(`${JSON.stringify(error.body, null, 2)}\n`);
      const hint = error instanceof ChatbotHttpError ? REFUSED_HINT[error.status] : undefined;
      fail(hint ? `${error.message} (${hint})` : error.message);
      return EXIT_API_ERROR;
    }
  } catch (error) {
    if (error instanceof UsageError) {
      fail(error.message);
      io.stderr('Run "chatbot-api --help" for usage.\n');
      return EXIT_USAGE;
    }
    fail(`unexpected failure: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT_API_ERROR;
  }
}

function parseCommandLine(argv: string[]): { command: Command | 'help'; values: Values; positionals: string[] } {
  const allOptions: ParseArgsConfig['options'] = { ...GLOBAL_OPTIONS };
  for (const options of Object.values(COMMAND_OPTIONS)) Object.assign(allOptions, options);
  let parsed: { values: Values; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv, options: allOptions, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (error) {
    const message = (error as Error).message;
    const unknown = /^Unknown option '([^']+)'/.exec(message);
    // parseArgs names the option without its value, so a mistyped --api-secret=… shows no secret.
    throw new UsageError(unknown ? `unknown option ${unknown[1]}` : (message.split('\n')[0] ?? 'bad arguments'));
  }
  const [name, ...positionals] = parsed.positionals;
  if (name === undefined) {
    if (parsed.values.help) return { command: 'help', values: parsed.values, positionals };
    throw new UsageError('no command given');
  }
  if (name === 'help') return { command: 'help', values: parsed.values, positionals };
  if (!Object.hasOwn(COMMAND_OPTIONS, name)) {
    throw new UsageError(`unknown command "${name}"; commands: ${Object.keys(COMMAND_OPTIONS).join(', ')}`);
  }
  const command = name as Command;
  const allowed = new Set([...Object.keys(GLOBAL_OPTIONS), ...Object.keys(COMMAND_OPTIONS[command])]);
  for (const [option, value] of Object.entries(parsed.values)) {
    if (value !== undefined && !allowed.has(option)) throw new UsageError(`${command} does not take --${option}`);
  }
  return { command, values: parsed.values, positionals };
}

function readCredentials(values: Values, env: Record<string, string | undefined>) {
  const found: Partial<Record<(typeof CREDENTIALS)[number]['option'], string>> = {};
  const missing: string[] = [];
  for (const { option, flag, env: name } of CREDENTIALS) {
    const value = (values[flag] as string | undefined) ?? env[name];
    if (value === undefined || value.trim() === '') missing.push(`${name} (or --${flag})`);
    else if (option === 'apiKey' && !HEADER_SAFE.test(value)) {
      // fetch would refuse to send it, which reads as "could not reach"; not echoed back.
      throw new UsageError(
        `${values[flag] === undefined ? name : `--${flag}`} holds a character an HTTP header cannot carry (such as "…" or a space); ` +
          "is it still a placeholder? Use the key as issued (npm start prints an export line with its emulator's)",
      );
    } else found[option] = value;
  }
  if (missing.length) throw new UsageError(`missing ${missing.length === 1 ? 'credential' : 'credentials'}: ${missing.join(', ')}`);
  return found as Record<(typeof CREDENTIALS)[number]['option'], string>;
}

const BASE_URL_EXAMPLE = 'http://localhost:8080/api';

/** The API key travels in the X-Api-Key header: visible ASCII only. */
const HEADER_SAFE = /^[\x21-\x7e]+$/;

/** What to check when the API refuses the credentials themselves. */
const REFUSED_HINT: Partial<Record<number, string>> = {
  401: 'the API key or secret was refused: check CHATBOT_API_KEY and CHATBOT_API_SECRET (or --api-key, --api-secret)',
  403: 'the API key has no access to this chatbot: check CHATBOT_ID (or --chatbot-id) and that the key is the one issued for it',
};

/**
 * The base URL's two common slips, caught before any request: no scheme (`localhost:8080/api`,
 * which a URL parser reads as the scheme "localhost:"), and a path without the `/api` suffix
 * every route lives under (the upstream answers 404 to everything then). `source` is what the
 * user set: the variable or the flag.
 */
function checkBaseUrl(value: string, source: string): void {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new UsageError(
      `${source} must be an absolute http(s) URL ending in /api, e.g. ${BASE_URL_EXAMPLE}; got "${value}"${schemeHint(value)}`,
    );
  }
  if (url.username || url.password) {
    // Not echoed: the value holds a password.
    throw new UsageError(
      `${source} must not contain a user name or password; the key and secret go in CHATBOT_API_KEY and CHATBOT_API_SECRET`,
    );
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (!path.endsWith('/api')) {
    const suggestion = path === '' && !url.search && !url.hash ? `; did you mean "${url.origin}/api"?` : '';
    throw new UsageError(`${source} must end in /api, e.g. ${BASE_URL_EXAMPLE}; got "${value}"${suggestion}`);
  }
}

type Call = (client: ChatbotClient) => Promise<unknown>;

function buildCall(command: Command, values: Values, positionals: string[]): Call {
  const text = (name: string) => values[name] as string | undefined;
  const required = (name: string) => {
    const value = text(name);
    if (value === undefined || value === '') throw new UsageError(`${command} needs --${name}`);
    return value;
  };
  const arity = (count: number, what: string) => {
    if (positionals.length < count) throw new UsageError(`${command} needs ${what}`);
    // Extra arguments are not echoed back: a pasted secret would end up on the screen.
    if (positionals.length > count) {
      throw new UsageError(
        count === 0 ? `${command} takes no arguments` : `${command} takes exactly one argument (${what}); quote it if it has spaces`,
      );
    }
  };
  const paging = () => ({
    page: values.page === undefined ? undefined : positiveInteger('--page', values.page as string),
    pageSize: values['page-size'] === undefined ? undefined : positiveInteger('--page-size', values['page-size'] as string),
  });

  switch (command) {
    case 'send': {
      arity(1, 'the message text');
      const content = positionals[0]!;
      const user = { id: required('user'), name: required('name') };
      const file = text('file');
      return async (client) => (await client.sendMessage({ user, message: file === undefined ? { content } : { content, file } })).envelope;
    }
    case 'messages': {
      arity(0, '');
      const query = { sessionId: text('session'), userId: text('user'), ...paging() };
      return (client) => client.listMessages(query);
    }
    case 'message': {
      arity(1, 'a message id');
      const id = positionals[0]!;
      if (id === '' || id === '.' || id === '..') throw new UsageError('message needs a message id');
      return (client) => client.getMessage(id);
    }
    case 'count': {
      arity(0, '');
      const range = { from: required('from'), to: required('to') };
      const sent = values.sent === undefined ? undefined : booleanFlag('--sent', values.sent as string);
      return (client) => client.countMessages({ ...range, sent });
    }
    case 'usage': {
      arity(0, '');
      const range = { from: required('from'), to: required('to') };
      return (client) => client.countMessagesByMonth(range);
    }
    case 'users': {
      arity(0, '');
      const query = paging();
      return (client) => client.listUsers(query);
    }
    case 'sessions': {
      arity(0, '');
      const query = { userId: text('user'), ...paging() };
      return (client) => client.listSessions(query);
    }
  }
}

function positiveInteger(flag: string, value: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} must be a whole number of at least 1, got "${value}"`);
  }
  return Number(value);
}

function booleanFlag(flag: string, value: string): boolean {
  const lower = value.trim().toLowerCase();
  if (lower === 'true') return true;
  if (lower === 'false') return false;
  throw new UsageError(`${flag} must be true or false, got "${value}"`);
}
