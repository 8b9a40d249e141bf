// End to end: the real command, spawned through tsx, against a loopback server that verifies
// every signature with its own node:crypto code. Checks stdout, stderr and exit codes.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { startVerifyingUpstream, type VerifyingUpstream } from '../helpers/verifying-upstream.js';
import { runCli } from './run-cli.js';
import { refusedOrigin } from '../helpers/refused-port.js';

let upstream: VerifyingUpstream;
let env: Record<string, string>;
before(async () => {
  upstream = await startVerifyingUpstream();
  env = {
    CHATBOT_API_BASE_URL: upstream.baseUrl,
    CHATBOT_API_KEY: upstream.apiKey,
    CHATBOT_API_SECRET: upstream.apiSecret,
    CHATBOT_ID: upstream.chatbotId,
  };
});
after(() => upstream.close());

/** Runs the command and returns its result with the requests the server saw meanwhile. */
async function run(args: string[], extraEnv: Record<string, string> = {}) {
  const start = upstream.requests.length;
  const result = await runCli(args, { ...env, ...extraEnv });
  return { ...result, requests: upstream.requests.slice(start) };
}

function assertNoSecret(result: { stdout: string; stderr: string }, secret = upstream.apiSecret) {
  assert.ok(!result.stdout.includes(secret), 'secret on stdout');
  assert.ok(!result.stderr.includes(secret), 'secret on stderr');
}

test('--help prints the usage on stdout and exits 0, credentials or not (the command as a user runs it)', async () => {
  const result = await runCli(['--help'], {}, 'tsx');
  assert.equal(result.code, 0);
  assert.match(result.stdout, /^Usage: chatbot-api <command> \[flags\]/);
  assert.match(result.stdout, /usage --from DATE --to DATE \[--table\]/);
  assert.equal(result.stderr, '');
});

test('send prints the envelope; the non-ASCII body is signed as sent', async () => {
  const text = 'Grüße 👋 日本語 with "quotes"';
  const result = await run(['send', text, '--user', 'zoë@example.com', '--name', 'Zoë', '--file', 'https://files.example/a.png']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.stderr, '');
  assert.deepEqual(JSON.parse(result.stdout), {
    data: `You said: ${text}`,
    error: null,
    totalItems: 0,
    pageSize: 0,
    currentPage: 0,
    totalPages: 0,
  });
  assert.equal(result.requests.length, 1);
  const [request] = result.requests;
  assert.equal(request?.verified, true, request?.failure);
  assert.equal(request?.method, 'POST');
  assert.deepEqual(JSON.parse(request?.body ?? ''), {
    user: { id: 'zoë@example.com', name: 'Zoë' },
    message: { content: text, file: 'https://files.example/a.png' },
  });
  assertNoSecret(result);
});

test('messages passes awkward filter values encoded once and signed as sent', async () => {
  const result = await run(['messages', '--session', 's/1 x', '--user', 'zoë@example.com', '--page', '2', '--page-size', '5']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.requests[0]?.url, '/api/Dev/bot_test/messages?sessionId=s%2F1%20x&userId=zo%C3%AB%40example.com&page=2&pageSize=5');
  assert.equal(result.requests[0]?.verified, true, result.requests[0]?.failure);
  assert.deepEqual(JSON.parse(result.stdout), { data: [], error: null, totalItems: 0, pageSize: 5, currentPage: 2, totalPages: 0 });
});

test('flags override the environment', async () => {
  const result = await run(['users', '--api-key', upstream.apiKey, '--page-size', '3'], { CHATBOT_API_KEY: 'pk_wrong' });
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.requests[0]?.verified, true);
  assert.equal(result.requests[0]?.url, '/api/Dev/bot_test/users?pageSize=3');
});

test('an API error prints the envelope on stdout, one line on stderr, and exits 1', async () => {
  const result = await run(['message', 'no-such-id']);
  assert.equal(result.code, 1);
  assert.deepEqual(JSON.parse(result.stdout), { data: null, error: 'Message not found' });
  assert.equal(result.stderr, 'chatbot-api: Chatbot API answered 404 Not Found: Message not found\n');
  assert.equal(result.requests[0]?.url, '/api/Dev/bot_test/messages/no-such-id');
});

test('count passes from, to and sent (any case) and prints the count', async () => {
  upstream.script({ body: { data: 12, error: null } });
  const result = await run(['count', '--from', '2025-01-01', '--to', '2025-02-01T00:00:00Z', '--sent', 'TRUE']);
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout), { data: 12, error: null });
  assert.equal(result.requests[0]?.url, '/api/Dev/bot_test/messages/count?from=2025-01-01&to=2025-02-01T00%3A00%3A00Z&sent=true');
});

test('usage prints JSON, and with --table a readable aligned table', async () => {
  const months = [
    { month: '2025-01', messageCount: 1200, userMessageCount: 600, distinctUsers: 40, distinctSessions: 90, tokenTotal: 81234 },
    { month: '2025-02', messageCount: 0, userMessageCount: 0, distinctUsers: 0, distinctSessions: 0, tokenTotal: 0 },
  ];
  upstream.script({ body: { data: months, error: null } }, { body: { data: months, error: null } });
  const json = await run(['usage', '--from', '2025-01-01', '--to', '2025-03-01']);
  assert.equal(json.code, 0, json.stderr);
  assert.deepEqual(JSON.parse(json.stdout).data, months);
  const table = await run(['usage', '--from', '2025-01-01', '--to', '2025-03-01', '--table']);
  assert.equal(table.code, 0, table.stderr);
  assert.equal(
    table.stdout,
    [
      'month    messages  user messages  users  sessions  tokens',
      '2025-01     1,200            600     40        90  81,234',
      '2025-02         0              0      0         0       0',
      'total       1,200            600                   81,234',
      '',
    ].join('\n'),
  );
  assert.equal(table.requests[0]?.url, '/api/Dev/bot_test/messages/count-by-month?from=2025-01-01&to=2025-03-01');
});

test('sessions passes the user filter and paging', async () => {
  const result = await run(['sessions', '--user', 'a b', '--page', '1']);
  assert.equal(result.code, 0, result.stderr);
  assert.equal(result.requests[0]?.url, '/api/Dev/bot_test/sessions?userId=a%20b&page=1');
});

test('bad usage exits 2 with one clear line and a hint, before any request', async () => {
  const cases: Array<[string[], RegExp]> = [
    [[], /no command given/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['send', 'hi', '--name', 'Ann'], /send needs --user/],
    [['send', '--user', 'u', '--name', 'n'], /send needs the message text/],
    [['message'], /message needs a message id/],
    [['count', '--from', '2025-01-01'], /count needs --to/],
    [['count', '--from', '2025-01-01', '--to', '2025-02-01', '--sent', 'maybe'], /--sent must be true or false, got "maybe"/],
    [['messages', '--page', '0'], /--page must be a whole number of at least 1/],
    [['users', '--from', '2025-01-01'], /users does not take --from/],
    [['users', '--bogus'], /unknown option --bogus/],
  ];
  for (const [args, expected] of cases) {
    const result = await run(args);
    assert.equal(result.code, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.equal(result.stdout, '');
    const lines = result.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 2, result.stderr);
    assert.match(lines[0]!, expected);
    assert.equal(lines[1], 'Run "chatbot-api --help" for usage.');
    assert.equal(result.requests.length, 0);
  }
});

test('missing credentials are named, with the flag that can supply them', async () => {
  const result = await runCli(['users'], { CHATBOT_API_BASE_URL: upstream.baseUrl, CHATBOT_API_KEY: upstream.apiKey });
  assert.equal(result.code, 2);
  assert.match(
    result.stderr,
    /^chatbot-api: missing credentials: CHATBOT_API_SECRET \(or --api-secret\), CHATBOT_ID \(or --chatbot-id\)\n/,
  );
});

test('a base URL without the /api suffix or without a scheme is bad usage naming what the user set, with an example', async () => {
  const origin = new URL(upstream.baseUrl).origin;
  const cases: Array<[string[], Record<string, string>, string]> = [
    [
      ['users'],
      { CHATBOT_API_BASE_URL: origin },
      `CHATBOT_API_BASE_URL must end in /api, e.g. http://localhost:8080/api; got "${origin}"; did you mean "${origin}/api"?`,
    ],
    [
      ['users'],
      { CHATBOT_API_BASE_URL: `${origin}/` },
      `CHATBOT_API_BASE_URL must end in /api, e.g. http://localhost:8080/api; got "${origin}/"; did you mean "${origin}/api"?`,
    ],
    [
      ['users'],
      { CHATBOT_API_BASE_URL: `${origin}/chatbot` },
      `CHATBOT_API_BASE_URL must end in /api, e.g. http://localhost:8080/api; got "${origin}/chatbot"`,
    ],
    [
      ['users', '--base-url', origin],
      {},
      `--base-url must end in /api, e.g. http://localhost:8080/api; got "${origin}"; did you mean "${origin}/api"?`,
    ],
    [
      ['users'],
      { CHATBOT_API_BASE_URL: 'localhost:8099/api' },
      'CHATBOT_API_BASE_URL must be an absolute http(s) URL ending in /api, e.g. http://localhost:8080/api; got "localhost:8099/api"; did you mean "http://localhost:8099/api"?',
    ],
    [
      ['users', '--base-url', 'ftp://host/api'],
      {},
      '--base-url must be an absolute http(s) URL ending in /api, e.g. http://localhost:8080/api; got "ftp://host/api"',
    ],
    [
      ['users'],
      { CHATBOT_API_BASE_URL: 'http://me:hunter2@localhost:8099/api' },
      'CHATBOT_API_BASE_URL must not contain a user name or password; the key and secret go in CHATBOT_API_KEY and CHATBOT_API_SECRET',
    ],
    // What only the client checks is reported under the user's name for it too.
    [
      ['users'],
      { CHATBOT_API_BASE_URL: `${upstream.baseUrl}?x=1` },
      'CHATBOT_API_BASE_URL must not have a query or fragment; it ends in /api',
    ],
  ];
  for (const [args, extraEnv, expected] of cases) {
    const result = await run(args, extraEnv);
    assert.equal(result.code, 2, `${args.join(' ')} ${JSON.stringify(extraEnv)}: ${result.stderr}`);
    assert.equal(result.stderr, `chatbot-api: ${expected}\nRun "chatbot-api --help" for usage.\n`);
    assert.equal(result.requests.length, 0, 'nothing sent');
  }
  // A trailing slash after /api is fine.
  assert.equal((await run(['users'], { CHATBOT_API_BASE_URL: `${upstream.baseUrl}/` })).code, 0);
});

test('the secret is never printed: not on a 401, not for a bad base URL, not when pasted as an argument', async () => {
  const secret = 'sk_cli_never_print_me';
  const refused = await run(['users', '--api-secret', secret]);
  assert.equal(refused.code, 1);
  assert.equal(
    refused.stderr,
    'chatbot-api: Chatbot API answered 401 Unauthorized: Invalid signature ' +
      '(the API key or secret was refused: check CHATBOT_API_KEY and CHATBOT_API_SECRET (or --api-key, --api-secret))\n',
  );
  assertNoSecret(refused, secret);

  // The base URL is echoed in its error; the secret pasted into it is not.
  const badBase = await run(['users'], { CHATBOT_API_SECRET: secret, CHATBOT_API_BASE_URL: `not-a-url-${secret}` });
  assert.equal(badBase.code, 2);
  assert.match(
    badBase.stderr,
    /^chatbot-api: CHATBOT_API_BASE_URL must be an absolute http\(s\) URL ending in \/api, e\.g\. http:\/\/localhost:8080\/api; got "not-a-url-\[redacted\]"/,
  );
  assertNoSecret(badBase, secret);
  const badBaseFlag = await run(['users', '--api-secret', secret, '--base-url', `ftp://x/${secret}`]);
  assert.equal(badBaseFlag.code, 2);
  assertNoSecret(badBaseFlag, secret);

  const pasted = await run(['users', secret], { CHATBOT_API_SECRET: secret });
  assert.equal(pasted.code, 2);
  assert.match(pasted.stderr, /users takes no arguments/);
  assertNoSecret(pasted, secret);

  const mistyped = await run(['users', `--api-secrt=${secret}`]);
  assert.equal(mistyped.code, 2);
  assert.match(mistyped.stderr, /unknown option --api-secrt/);
  assertNoSecret(mistyped, secret);
});

test('an unreachable upstream exits 1 with one line naming the URL', async () => {
  const origin = await refusedOrigin();
  const result = await run(['users'], { CHATBOT_API_BASE_URL: `${origin}/api` });
  assert.equal(result.code, 1);
  assert.equal(result.stdout, '');
  assert.ok(result.stderr.startsWith(`chatbot-api: Could not reach the chatbot API at ${origin}/api/Dev/bot_test/users: `), result.stderr);
  assert.match(result.stderr, /ECONNREFUSED[^\n]*\n$/);
  assert.equal(result.stderr.split('\n').length, 2, 'one line');
  assertNoSecret(result);
});

test('npm run --silent api runs the same command', async () => {
  const start = upstream.requests.length;
  const result = await runCli(['users'], env, 'npm');
  assert.equal(result.code, 0, result.stderr);
  assert.deepEqual(JSON.parse(result.stdout).data, []);
  assert.equal(upstream.requests.slice(start)[0]?.verified, true);
});
