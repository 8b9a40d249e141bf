// End to end against the real emulator (createEmulator on in-memory SQLite, over loopback HTTP):
// a whole conversation read back through the spawned command, as a user would do it.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { runCli } from './run-cli.js';

// Echo replies keep the test independent of the knowledge base's wording.
const echo = { name: 'echo', reply: async (request: { content: string }) => `You said: ${request.content}` };

let emulator: Emulator;
let server: { url: string; close(): Promise<void> };
let env: Record<string, string>;

before(async () => {
  emulator = createEmulator({
    db: ':memory:',
    chatbots: [
      { id: 'bot_cli', apiKey: 'pk_cli', apiSecret: 'sk_cli_sécret', tier: 'enterprise', dailyLimit: 2 },
      { id: 'bot_other', apiKey: 'pk_other', apiSecret: 'sk_other', tier: 'enterprise', dailyLimit: 2 },
    ],
    replySource: echo,
  });
  server = await emulator.listen({ port: 0, host: '127.0.0.1' });
  env = { CHATBOT_API_BASE_URL: server.url, CHATBOT_API_KEY: 'pk_cli', CHATBOT_API_SECRET: 'sk_cli_sécret', CHATBOT_ID: 'bot_cli' };
});
after(async () => {
  await server.close();
  emulator.close();
});

async function cli(args: string[]) {
  const result = await runCli(args, env);
  assert.ok(!result.stdout.includes('sk_cli_sécret') && !result.stderr.includes('sk_cli_sécret'), 'the secret was printed');
  return result;
}

async function ok(args: string[]) {
  const result = await cli(args);
  assert.equal(result.code, 0, `${args.join(' ')}: ${result.stderr}`);
  assert.equal(result.stderr, '');
  return JSON.parse(result.stdout);
}

test('a conversation sent and read back through chatbot-api, then the quota refusing a third send', async () => {
  const user = 'zoë@example.com';
  const first = await ok(['send', 'Grüße 👋 日本語', '--user', user, '--name', 'Zoë']);
  assert.equal(first.data, 'You said: Grüße 👋 日本語');
  assert.equal(first.error, null);
  await ok(['send', 'and a second one', '--user', user, '--name', 'Zoë']);

  const users = await ok(['users']);
  assert.deepEqual(
    users.data.map((u: { id: string; name: string }) => [u.id, u.name]),
    [[user, 'Zoë']],
  );

  const sessions = await ok(['sessions', '--user', user]);
  assert.equal(sessions.totalItems, 1);
  const sessionId = sessions.data[0].id as string;

  const messages = await ok(['messages', '--session', sessionId, '--page-size', '3']);
  assert.equal(messages.totalItems, 4);
  assert.equal(messages.totalPages, 2);
  assert.deepEqual(
    messages.data.map((m: { senderType: string; text: string }) => `${m.senderType}: ${m.text}`),
    ['Bot: You said: and a second one', 'User: and a second one', 'Bot: You said: Grüße 👋 日本語'],
  );

  const one = await ok(['message', messages.data[0].id]);
  assert.equal(one.data.text, 'You said: and a second one');

  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const count = await ok(['count', '--from', '2020-01-01', '--to', tomorrow, '--sent', 'true']);
  assert.equal(count.data, 2);

  const table = await cli(['usage', '--from', new Date().toISOString().slice(0, 7) + '-01', '--to', tomorrow, '--table']);
  assert.equal(table.code, 0, table.stderr);
  const lines = table.stdout.trimEnd().split('\n');
  assert.match(lines[0]!, /^month\s+messages\s+user messages\s+users\s+sessions\s+tokens$/);
  assert.match(lines[1]!, /^\d{4}-\d{2}\s+4\s+2\s+1\s+1\s+\d+$/);

  const refused = await cli(['send', 'a third one', '--user', user, '--name', 'Zoë']);
  assert.equal(refused.code, 1);
  assert.equal(JSON.parse(refused.stdout).data, null);
  // The wait until the quota resets at UTC midnight, for a person: hours and minutes with the
  // reset time, or (in the last hour of the UTC day) minutes and seconds; never thousands of seconds.
  assert.match(
    refused.stderr,
    /^chatbot-api: Chatbot API answered 429 Too Many Requests: .+ \(retry in (\d{1,2} h( \d{1,2} min)?, at \d{4}-\d\d-\d\d 00:00 UTC|\d{1,2} min( \d{1,2} s)?|\d{1,2} s)\)\n$/,
  );
});

test('emulator errors come back as exit 1 with the envelope or validation body on stdout', async () => {
  const backwards = await cli(['count', '--from', '2025-02-01', '--to', '2025-01-01']);
  assert.equal(backwards.code, 1);
  assert.deepEqual(JSON.parse(backwards.stdout).data, 0);
  assert.match(backwards.stderr, /^chatbot-api: Chatbot API answered 400 Bad Request: .*greater than.*\n$/);

  const badDate = await cli(['usage', '--from', 'yesterday', '--to', '2025-01-01']);
  assert.equal(badDate.code, 1);
  assert.ok(JSON.parse(badDate.stdout).errors.from, badDate.stdout);
  // One natural line: no generic title, no ".;", no hint about encoding '+' (the command does that).
  assert.equal(
    badDate.stderr,
    "chatbot-api: The chatbot API refused the request: from: The value 'yesterday' is not a valid ISO 8601 date for from (e.g. 2026-01-31 or 2026-01-31T12:00:00Z)\n",
  );
  const twoBad = await cli(['count', '--from', '2025-13-01T10:00:00+02:00', '--to', 'soon']);
  assert.equal(twoBad.code, 1);
  assert.equal(
    twoBad.stderr,
    "chatbot-api: The chatbot API refused the request: from: The value '2025-13-01T10:00:00+02:00' is not a valid ISO 8601 date for from " +
      "(e.g. 2026-01-31 or 2026-01-31T12:00:00Z); to: The value 'soon' is not a valid ISO 8601 date for to (e.g. 2026-01-31 or 2026-01-31T12:00:00Z)\n",
  );

  const missing = await cli(['message', 'no-such-message']);
  assert.equal(missing.code, 1);
  assert.equal(JSON.parse(missing.stdout).data, null);
  assert.match(missing.stderr, /^chatbot-api: Chatbot API answered 404 Not Found: /);

  const otherBot = await runCli(['users'], { ...env, CHATBOT_ID: 'bot_unknown' });
  assert.equal(otherBot.code, 1);
  assert.match(otherBot.stderr, /answered 404 Not Found/);

  const wrongSecret = await runCli(['users'], { ...env, CHATBOT_API_SECRET: 'sk_wrong' });
  assert.equal(wrongSecret.code, 1);
  assert.match(wrongSecret.stderr, /^chatbot-api: Chatbot API answered 401 Unauthorized: .*\(the API key or secret was refused: check/);
  assert.ok(!wrongSecret.stderr.includes('sk_wrong'));
});

test('a key pasted from a placeholder is named before anything is sent; a refused key is named as refused, not unreachable', async () => {
  // "pk_…" cannot go in a header: fetch throws, and that must not read as "Could not reach the chatbot API".
  for (const [args, extra, named] of [
    [['users'], { CHATBOT_API_KEY: 'pk_…' }, 'CHATBOT_API_KEY'],
    [['users', '--api-key', 'pk_cli with space'], {}, '--api-key'],
  ] as const) {
    const result = await runCli([...args], { ...env, ...extra });
    assert.equal(result.code, 2, result.stderr);
    assert.ok(result.stderr.startsWith(`chatbot-api: ${named} holds a character an HTTP header cannot carry`), result.stderr);
    assert.match(result.stderr, /still a placeholder/);
    assert.doesNotMatch(result.stderr, /reach/);
  }

  const wrongKey = await runCli(['users'], { ...env, CHATBOT_API_KEY: 'pk_wrong' });
  assert.equal(wrongKey.code, 1);
  assert.match(wrongKey.stderr, /^chatbot-api: Chatbot API answered 401 Unauthorized: .*\(the API key or secret was refused: /);

  // A real key of another chatbot: the API knows it but refuses it for this one.
  const otherKey = await runCli(['users'], { ...env, CHATBOT_API_KEY: 'pk_other', CHATBOT_API_SECRET: 'sk_other' });
  assert.equal(otherKey.code, 1);
  assert.match(
    otherKey.stderr,
    /^chatbot-api: Chatbot API answered 403 Forbidden: .*\(the API key has no access to this chatbot: check CHATBOT_ID/,
  );
});
