// `chatbot-emulator` as a user runs it: flags, the start-up banner with the demo credentials,
// one-line errors with exit 2, a seed refused by line number, graceful shutdown on SIGTERM.
// Most cases call `runChatbotEmulator`, what the command's entry calls with its arguments, in this
// process (a new Node process with tsx costs about a second each); the entry itself is spawned for
// --help, one bad flag, and the start that restarts and stops on SIGTERM.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChatbotEmulator } from '../../src/cli/emulator-cli.js';
import { independentSignature } from '../helpers/independent-signer.js';
import { rawRequest } from '../emulator/harness.js';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'src/cli/chatbot-emulator.ts');
const dir = mkdtempSync(join(tmpdir(), 'emulator-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// Replies from the built-in knowledge base whatever the developer's shell has set.
const env = { ...process.env, CHATBOT_EMULATOR_REPLIES: 'knowledge-base' };

function runToEnd(args: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: root, env, encoding: 'utf8', timeout: 60_000 });
}

/** The command in this process, for a case that ends before it serves: its exit code and output. */
async function runInProcess(args: string[]) {
  let stdout = '';
  let stderr = '';
  const outcome = await runChatbotEmulator(args, env, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text) });
  if (typeof outcome !== 'number') {
    await outcome.stop();
    assert.fail(`chatbot-emulator ${args.join(' ')} started serving`);
  }
  return { status: outcome, stdout, stderr };
}

/** Starts the emulator in this process and answers its banner, printed by the time it listens. */
async function serveInProcess(args: string[]): Promise<{ banner: string; stop(): Promise<void> }> {
  let banner = '';
  const outcome = await runChatbotEmulator(['--port', '0', ...args], env, {
    stdout: (text) => (banner += text),
    stderr: (text) => (banner += text),
  });
  if (typeof outcome === 'number') assert.fail(`chatbot-emulator ${args.join(' ')} exited ${outcome} without serving: ${banner}`);
  return { banner, stop: () => outcome.stop() };
}

/** Starts the emulator's own process and resolves with its banner once it listens. */
function start(args: string[]): Promise<{ banner: string; stop(): Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--port', '0', ...args], { cwd: root, env });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  after(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    const check = setInterval(() => {
      if (/export CHATBOT_API_SECRET=\S+|chatbot\s+\S+ \(/.test(out) && out.includes('listening on')) {
        clearInterval(check);
        setTimeout(() => resolve({ banner: out, stop: () => (child.kill('SIGTERM'), exited) }), 50);
      }
    }, 25);
    void exited.then((code) => {
      clearInterval(check);
      reject(new Error(`exited ${code} before listening: ${err}`));
    });
  });
}

test('--help prints the flags and exits 0', () => {
  const res = runToEnd(['--help']);
  assert.equal(res.status, 0);
  for (const flag of ['--port', '--host', '--config', '--db', '--seed', '--demo-data']) assert.ok(res.stdout.includes(flag), flag);
  // --demo-data adds on every start: the help says so, and how to get a clean demo.
  assert.match(res.stdout, /--demo-data N[^]*It adds:\s+every start with it adds N more to the same database[^]*fresh --db/);
});

test('bad flags are one line on stderr and exit 2', async () => {
  for (const [args, run] of [
    [['--port', 'x'], runToEnd],
    [['--port', '70000'], runInProcess],
    [['--bogus'], runInProcess],
    [['--db'], runInProcess],
    [['--demo-data', '-5'], runInProcess],
    [['--config', join(dir, 'missing.json')], runInProcess],
  ] as const) {
    const res = await run([...args]);
    assert.equal(res.status, 2, args.join(' '));
    const lines = res.stderr.trim().split('\n');
    assert.equal(lines.length, 1, res.stderr);
    assert.match(lines[0]!, /^chatbot-emulator: /);
  }
});

test('a bad seed file exits 2 naming its line', async () => {
  const seed = join(dir, 'bad.jsonl');
  writeFileSync(
    seed,
    '{"chatbotId":"demo","chatSessionId":"s","chatUserId":"u","senderType":"User","text":"x","createdAt":"2025-01-01"}\n{broken\n',
  );
  const db = join(dir, 'bad-seed.sqlite');
  const res = await runInProcess(['--db', db, '--seed', seed, '--port', '0']);
  assert.equal(res.status, 2);
  assert.match(res.stderr, /line 2: not valid JSON/);
});

test('starts, prints URL and demo credentials, serves signed requests, keeps the credentials across restarts, stops on SIGTERM', async () => {
  const db = join(dir, 'cli.sqlite');
  const first = await start(['--db', db, '--demo-data', '50']);
  const url = /listening on (http:\/\/\S+\/api)/.exec(first.banner)![1]!;
  const key = /export CHATBOT_API_KEY=(\S+)/.exec(first.banner)![1]!;
  const secret = /export CHATBOT_API_SECRET=(\S+)/.exec(first.banner)![1]!;
  const id = /export CHATBOT_ID=(\S+)/.exec(first.banner)![1]!;
  assert.match(key, /^pk_/);
  assert.match(secret, /^sk_/);
  assert.ok(first.banner.includes(`export CHATBOT_API_BASE_URL=${url}`));
  const port = Number(new URL(url).port);
  const path = `/api/Dev/${id}/messages`;
  const ts = Math.floor(Date.now() / 1000);
  const res = await rawRequest(port, {
    method: 'GET',
    path,
    headers: { 'X-API-Key': key, 'X-Timestamp': String(ts), 'X-Signature': independentSignature(secret, 'GET', path, '', ts) },
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.totalItems, 50);
  assert.match(first.banner, /^Generated 50 demo messages in [\d.]+ s$/m);
  assert.ok(first.banner.includes(`  secret    ${secret}   (stored in ${db}: the same on every start with this database)`), first.banner);
  assert.equal(await first.stop(), 0, 'graceful exit on SIGTERM');

  // --demo-data again on the same database adds to it, and the banner says so.
  const second = await start(['--db', db, '--demo-data', '1']);
  assert.ok(second.banner.includes(`export CHATBOT_API_SECRET=${secret}`), 'same secret on the same database');
  const added = second.banner.split('\n').find((line) => line.startsWith('Added '));
  assert.ok(added?.startsWith(`Added 1 demo message to the existing database ${db} in `), second.banner);
  assert.ok(added?.endsWith(' s (every --demo-data start adds more; use a fresh --db for a clean demo)'), added);
  const port2 = Number(new URL(/listening on (http:\/\/\S+\/api)/.exec(second.banner)![1]!).port);
  const ts2 = Math.floor(Date.now() / 1000);
  const again = await rawRequest(port2, {
    method: 'GET',
    path,
    headers: { 'X-API-Key': key, 'X-Timestamp': String(ts2), 'X-Signature': independentSignature(secret, 'GET', path, '', ts2) },
  });
  assert.equal(again.body.totalItems, 51);
  assert.equal(await second.stop(), 0);
});

test('with --db :memory:, the banner says the demo credentials and data last only this run', async () => {
  const run = await serveInProcess(['--db', ':memory:']);
  const secret = /export CHATBOT_API_SECRET=(\S+)/.exec(run.banner)![1]!;
  assert.ok(
    run.banner.includes(`  secret    ${secret}   (generated for this run: with --db :memory:, the next start has new credentials)`),
    run.banner,
  );
  assert.match(run.banner, /^ {2}database {2}:memory: \(in memory: nothing is kept after exit\)$/m);
  assert.doesNotMatch(run.banner, /kept across restarts|the same on every start/);
  await run.stop();
});

test('with --config, the configured chatbots are served and no secret is printed', async () => {
  const config = join(dir, 'config.json');
  writeFileSync(
    config,
    JSON.stringify({
      chatbots: [
        { id: 'bot_cfg', apiKey: 'pk_cfg', apiSecret: 'sk_cfg_secret', tier: 'free' },
        { id: 'bot_one', apiKey: 'pk_one', apiSecret: 'sk_one_secret', tier: 'enterprise', dailyLimit: 1 },
        { id: 'bot_big', apiKey: 'pk_big', apiSecret: 'sk_big_secret', tier: 'premium' },
      ],
    }),
  );
  const run = await serveInProcess(['--db', ':memory:', '--config', config]);
  assert.match(run.banner, /chatbot\s+bot_cfg \(free, 100 messages a UTC day\)/);
  assert.match(run.banner, /chatbot\s+bot_one \(enterprise, 1 message a UTC day\)/);
  assert.match(run.banner, /chatbot\s+bot_big \(premium, 10,000 messages a UTC day\)/);
  assert.ok(!run.banner.includes('sk_one_secret') && !run.banner.includes('sk_big_secret'));
  assert.ok(!run.banner.includes('sk_cfg_secret'));
  await run.stop();
});
