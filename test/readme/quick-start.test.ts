// The README's quick start, followed as a new user would: its shell lines, `server.js` and
// `public/index.html`, taken from the README itself, in an empty directory, with the package
// installed from `npm pack` output (the package is not on a registry). The server then runs
// against a real emulator over HTTP, a visitor gets a reply through it, and the admin routes
// `<chatbot-usage>` reads open to the admin token. A README edit that
// breaks the quick start breaks this test.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { freePort } from '../helpers/free-port.js';
import { packedPackage } from '../helpers/packed-package.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const ADMIN_TOKEN = 'quick-start-admin-token-1234';
const CHATBOT = { id: 'quick', apiKey: 'pk_quick_start', apiSecret: 'sk_quick_start_secret', tier: 'premium' as const };

/** The fenced blocks of the README section that starts with `heading`, in order. */
function blocksOf(heading: string): Array<{ lang: string; code: string }> {
  const start = readme.indexOf(`\n## ${heading}\n`);
  assert.ok(start !== -1, `README has a section "${heading}"`);
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```(\w*)\n([^]*?)```/g)].map((m) => ({ lang: m[1]!, code: m[2]! }));
}

let emulator: Emulator;
let upstream: { url: string; close(): Promise<void> };
let work: string;
let server: ChildProcess | undefined;

before(async () => {
  emulator = createEmulator({
    db: ':memory:',
    chatbots: [CHATBOT],
    replySource: { name: 'echo', reply: async (r) => `Echo: ${r.content}` },
  });
  upstream = await emulator.listen({ port: 0 });
  work = mkdtempSync(join(tmpdir(), 'chatbot-quick-start-'));
});

after(async () => {
  server?.kill();
  await upstream?.close();
  emulator?.close();
  rmSync(work, { recursive: true, force: true });
});

test('the README quick start works verbatim from an empty directory', { timeout: 240_000 }, async () => {
  const [shell, serverJs, indexHtml] = blocksOf('Quick start: a script tag and a Node server');
  assert.equal(shell?.lang, 'sh');
  assert.equal(serverJs?.lang, 'js');
  assert.equal(indexHtml?.lang, 'html');
  const tarball = packedPackage();

  // The shell lines, one by one, with the tarball's real path and npm kept offline where it can.
  let cwd = work;
  for (const line of shell!.code.trim().split('\n')) {
    for (const step of line.replace('/path/to/chatbot-widget-0.1.0.tgz', tarball).split(' && ')) {
      const [command, ...args] = step.trim().split(/\s+/);
      if (command === 'cd') {
        cwd = join(cwd, args[0]!);
        continue;
      }
      if (command === 'mkdir') {
        for (const dir of args.filter((a) => !a.startsWith('-'))) mkdirSync(join(cwd, dir), { recursive: true });
        continue;
      }
      const extra = command === 'npm' && args[0] === 'install' ? ' --prefer-offline --no-audit --no-fund' : '';
      // Through the shell, as the user types it (globs such as `chatbot-widget*.js` included).
      execSync(step.trim() + extra, { cwd, stdio: 'pipe', timeout: 180_000, shell: '/bin/sh' });
    }
  }
  writeFileSync(join(cwd, 'server.js'), serverJs!.code);
  writeFileSync(join(cwd, 'public', 'index.html'), indexHtml!.code);
  assert.ok(
    readdirSync(join(cwd, 'public')).some((name) => /^chatbot-widget-.+\.js$/.test(name)),
    'the parts the widget loads by itself are copied beside it',
  );

  const port = await freePort();
  server = spawn(process.execPath, ['server.js'], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      CHATBOT_API_BASE_URL: upstream.url,
      CHATBOT_API_KEY: CHATBOT.apiKey,
      CHATBOT_API_SECRET: CHATBOT.apiSecret,
      CHATBOT_ID: CHATBOT.id,
      CHATBOT_ADMIN_TOKEN: ADMIN_TOKEN,
    },
  });
  const origin = `http://127.0.0.1:${port}`;
  await waitFor(async () => (await fetch(origin)).ok);

  const page = await (await fetch(origin)).text();
  assert.match(page, /<chatbot-widget endpoint="\/chatbot"/);
  const script = await fetch(`${origin}/chatbot-widget.js`);
  assert.equal(script.status, 200);
  assert.match(script.headers.get('content-type') ?? '', /javascript/);
  assert.doesNotMatch(await script.text(), new RegExp(CHATBOT.apiSecret));

  const visitor = await fetch(`${origin}/chatbot/visitor`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
  assert.equal(visitor.status, 200);
  const { token } = ((await visitor.json()) as { data: { token: string } }).data;
  const sent = await fetch(`${origin}/chatbot/message`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ content: 'Hello from the quick start' }),
  });
  assert.equal(sent.status, 200);
  assert.equal(((await sent.json()) as { data: string }).data, 'Echo: Hello from the quick start');

  // <chatbot-usage> on the same site: the admin routes open to the token, and only to it.
  const users = (token?: string) => fetch(`${origin}/chatbot/admin/users`, { headers: token ? { 'X-Admin-Token': token } : {} });
  assert.equal((await users(ADMIN_TOKEN)).status, 200, 'the admin token opens the admin routes');
  assert.equal((await users()).status, 403, 'without it they stay closed');
  assert.equal((await users(`${ADMIN_TOKEN}x`)).status, 403, 'as with any other token');
});

async function waitFor(ready: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      if (await ready()) return;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the quick start's server did not answer within ${ms} ms (${String(last)})`);
}
