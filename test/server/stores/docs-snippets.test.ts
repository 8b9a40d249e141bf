// The snippets of docs/stores.md, run as written, each with its own tooling, in a project folder
// that has the package installed (a link to this repository, whose dist/ `npm install` built):
// - Redis + Express under Node, and Deno KV under Deno: two processes on one store act as one (a
//   token revoked on one is refused by the other, new visitors are counted across both);
// - the Workers entry and wrangler.toml under `wrangler dev`: a revocation outlives a restart,
//   so it lives in the Durable Object, not in the isolate's memory.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRecordingUpstream, API_KEY, API_SECRET, CHATBOT_ID, type RecordingUpstream } from '../helpers/recording-upstream.js';
import { startRedisServer, type RunningRedis } from '../../helpers/redis-server.js';
import { startWranglerDev } from '../../helpers/wrangler-dev.js';
import { freePort } from '../../helpers/free-port.js';
import { denoBinary } from '../../helpers/runtime-binaries.js';
import { freshLoopbackAddress } from '../../helpers/fresh-addresses.js';
import { assertMinuteLimit } from '../../helpers/minute-burst.js';
import { visitorAttempt } from '../helpers/handler-server.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const docs = readFileSync(`${root}docs/stores.md`, 'utf8');

/** The code block after `<!-- tested: name -->` in docs/stores.md. */
function snippet(name: string): string {
  const match = new RegExp(`<!-- tested: ${name} -->\\n\`\`\`\\w+\\n([\\s\\S]*?)\`\`\``).exec(docs);
  assert.ok(match, `docs/stores.md has the snippet "${name}"`);
  return match[1]!;
}

/** A folder with the package and the given dependencies installed (links), and the files. */
function project(files: Record<string, string>, dependencies: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'chatbot-docs-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(root.replace(/\/$/, ''), join(dir, 'node_modules/chatbot-widget'));
  for (const name of dependencies) symlinkSync(join(root, 'node_modules', name), join(dir, 'node_modules', name));
  const manifest = {
    name: 'docs-snippet',
    private: true,
    type: 'module',
    dependencies: Object.fromEntries(['chatbot-widget', ...dependencies].map((name) => [name, '*'])),
  };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

interface Started {
  origin: string;
  stop(): Promise<void>;
}

/** Starts a snippet's process on a free port and waits until it answers. */
async function startProcess(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<Started> {
  const port = await freePort();
  const child: ChildProcess = spawn(command, args, {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      DENO_NO_UPDATE_CHECK: '1',
      NO_COLOR: '1',
      PORT: String(port),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill();
    await exited;
  };
  for (const deadline = Date.now() + 60_000; ;) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(' ')} exited with ${child.exitCode}:\n${output}`);
    try {
      await fetch(origin, { signal: AbortSignal.timeout(2_000) });
      return { origin, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`${command} did not answer within 60 s:\n${output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

async function call(origin: string, method: string, path: string, token?: string) {
  const response = await fetch(`${origin}/chatbot${path}`, {
    method,
    headers: {
      ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
    },
    body: method === 'POST' ? '{}' : undefined,
  });
  const text = await response.text();
  return { status: response.status, text, json: text ? JSON.parse(text) : undefined };
}

async function newToken(origin: string): Promise<string> {
  const issued = await call(origin, 'POST', '/visitor');
  assert.equal(issued.status, 200, issued.text);
  return issued.json.data.token;
}

/** Two processes of one snippet share its store: revocation and the new-visitor limit hold across both. */
async function actAsOne(first: Started, second: Started): Promise<void> {
  const revoked = await newToken(first.origin);
  const kept = await newToken(first.origin);
  assert.equal((await call(first.origin, 'DELETE', '/visitor', revoked)).status, 204);
  assert.equal((await call(second.origin, 'GET', '/sessions', revoked)).status, 401, 'revoked on the first, refused by the second');
  assert.equal((await call(second.origin, 'GET', '/sessions', kept)).status, 200, 'a token that was not revoked still works');

  // 30 new visitors a minute per address: from an address no request came from, 31 alternating
  // between the two get 30 identities and a 429, which processes counting alone (16 and 15) never would.
  await assertMinuteLimit(30, () => {
    const address = freshLoopbackAddress();
    return (i) => visitorAttempt(Number(new URL(i % 2 ? second.origin : first.origin).port), address);
  });
}

const upstreamEnv = (upstream: RecordingUpstream) => ({
  CHATBOT_API_BASE_URL: upstream.baseUrl,
  CHATBOT_API_KEY: API_KEY,
  CHATBOT_API_SECRET: API_SECRET,
  CHATBOT_ID,
});

describe('docs/stores.md, run as written', () => {
  let upstream: RecordingUpstream;
  const cleanup: (() => Promise<void> | void)[] = [];
  before(async () => {
    upstream = await startRecordingUpstream();
  });
  after(async () => {
    for (const step of cleanup.reverse()) await step();
    await upstream?.close();
  });

  it('Redis with Express: two Node processes on one Redis act as one handler', async () => {
    const redis: RunningRedis = await startRedisServer();
    cleanup.push(() => redis.stop());
    const dir = project({ 'server.mjs': snippet('redis-express') }, ['express', 'redis']);
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const env = { ...upstreamEnv(upstream), REDIS_URL: redis.url };
    const first = await startProcess(process.execPath, ['server.mjs'], dir, env);
    cleanup.push(() => first.stop());
    const second = await startProcess(process.execPath, ['server.mjs'], dir, env);
    cleanup.push(() => second.stop());
    await actAsOne(first, second);
  });

  it('Deno KV: two Deno processes on one KV database act as one handler', async () => {
    const deno = denoBinary();
    const dir = project({ 'main.ts': snippet('deno') }, []);
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const command = /^\/\/ main\.ts: deno (run [^\n]+) main\.ts$/m.exec(snippet('deno'));
    assert.ok(command, 'the snippet says how to run it');
    const env = { ...upstreamEnv(upstream), KV_PATH: join(dir, 'kv.sqlite') };
    const args = [...command[1]!.split(' '), 'main.ts'];
    const first = await startProcess(deno, args, dir, env);
    cleanup.push(() => first.stop());
    const second = await startProcess(deno, args, dir, env);
    cleanup.push(() => second.stop());
    await actAsOne(first, second);
  });

  it('Workers: the entry and wrangler.toml keep a revocation in the Durable Object, across a restart', async () => {
    const dir = project({ 'wrangler.toml': snippet('workers-toml'), 'src/index.js': snippet('workers-entry') }, []);
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const state = join(dir, '.state');
    const options = { cwd: dir, persistTo: state, vars: upstreamEnv(upstream) };
    let worker = await startWranglerDev(join(dir, 'wrangler.toml'), options);
    const revoked = await newToken(worker.origin);
    const kept = await newToken(worker.origin);
    const revocation = await call(worker.origin, 'DELETE', '/visitor', revoked);
    assert.equal(revocation.status, 204, `${revocation.text}\n${worker.output()}`);
    await worker.stop();
    worker = await startWranglerDev(join(dir, 'wrangler.toml'), options);
    cleanup.push(() => worker.stop());
    const refused = await call(worker.origin, 'GET', '/sessions', revoked);
    assert.equal(refused.status, 401, `the new isolate knows the revocation: ${refused.text}\n${worker.output()}`);
    const accepted = await call(worker.origin, 'GET', '/sessions', kept);
    assert.notEqual(accepted.status, 401, `a token that was not revoked is accepted: ${accepted.text}`);
  });
});
