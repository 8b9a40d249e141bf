// Runs an example of examples/ with its own tooling (node, deno, bun, wrangler, next) against the
// real emulator over HTTP, and drives it as the widget would. The examples import
// `chatbot-widget` by package name: examples/node_modules/chatbot-widget links to this repository
// (its built dist/), as `npm install` of an example's `file:../..` dependency does for a user.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BOT_A, startHarness, type Harness } from '../../emulator/harness.js';
import { collectOutput, stopProcessGroup } from '../../helpers/process-group.js';
import { freePort } from '../../helpers/free-port.js';
import { rawRequest, type RawResponse } from '../../helpers/raw-request.js';
import { freshDocumentationAddress, freshLoopbackAddress } from '../../helpers/fresh-addresses.js';
import { assertMinuteLimit } from '../../helpers/minute-burst.js';

export { freePort };

export const root = fileURLToPath(new URL('../../../', import.meta.url));
export const examplesDir = join(root, 'examples');

/** A binary from the root devDependencies, or a failure that says how to install it. */
export function tool(relativePath: string, installHint: string): string {
  const path = join(root, relativePath);
  if (!existsSync(path)) throw new Error(`${relativePath} is missing: ${installHint}`);
  return path;
}

/** Links examples/node_modules/chatbot-widget to the repository, whose dist/ must be built. */
export function linkPackage(): void {
  if (!existsSync(join(root, 'dist/lib/server/index.js')))
    throw new Error('dist/ is missing: run `npm run build` (npm install runs it too).');
  const modules = join(examplesDir, 'node_modules');
  const link = join(modules, 'chatbot-widget');
  mkdirSync(modules, { recursive: true });
  try {
    if (lstatSync(link).isSymbolicLink() && readlinkSync(link) === '../..') return;
    rmSync(link, { recursive: true, force: true });
  } catch {
    // not there yet
  }
  try {
    symlinkSync('../..', link, 'dir');
  } catch (error) {
    // Another example's test made it at the same moment.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** The emulator for this test file (call at the file's top level), on the real clock: the handler signs with the real time. */
export function startEmulator(): Promise<Harness> {
  return startHarness({ now: () => Date.now() });
}

/** The environment every example reads. */
export function exampleEnv(emulator: Harness, port: number): Record<string, string> {
  return {
    CHATBOT_API_BASE_URL: emulator.url,
    CHATBOT_API_KEY: BOT_A.apiKey,
    CHATBOT_API_SECRET: BOT_A.apiSecret,
    CHATBOT_ID: BOT_A.id,
    PORT: String(port),
  };
}

export interface RunningExample {
  origin: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `command args` in the example's folder and waits until `origin` answers HTTP. The
 * process gets its own group, so stopping it stops whatever it started (workerd, Next's workers).
 * The caller stops it (in an `after` hook).
 */
export async function startExample(options: {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  port: number;
  timeoutMs?: number;
  cwd?: string;
}): Promise<RunningExample> {
  const cwd = options.cwd ?? join(examplesDir, options.name);
  const child: ChildProcess = spawn(options.command, options.args, {
    cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      // No update checks, metrics or telemetry: the tests stay off the network.
      DENO_NO_UPDATE_CHECK: '1',
      NEXT_TELEMETRY_DISABLED: '1',
      WRANGLER_SEND_METRICS: 'false',
      CLOUDFLARE_CF_FETCH_ENABLED: 'false',
      CI: 'true',
      NO_COLOR: '1',
      ...options.env,
    },
  });
  const output = collectOutput(child);
  const stop = () => stopProcessGroup(child);
  const origin = `http://127.0.0.1:${options.port}`;
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  while (true) {
    if (child.exitCode !== null)
      throw new Error(
        `${options.command} ${options.args.join(' ')} exited with ${child.exitCode} in examples/${options.name}:\n${output()}`,
      );
    try {
      await fetch(`${origin}/chatbot/nope`, { signal: AbortSignal.timeout(2_000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(
          `examples/${options.name} did not answer on ${origin} within ${(options.timeoutMs ?? 60_000) / 1000} s:\n${output()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return { origin, output, stop };
}

/**
 * Starts examples/`name` with `command args` on a free port against `emulator` (the environment
 * every example reads, and `env`), with the package linked as `npm install` would.
 */
export async function startExampleAgainst(
  emulator: Harness,
  options: { name: string; command: string; args: string[]; env?: Record<string, string> },
): Promise<RunningExample> {
  linkPackage();
  const port = await freePort();
  return startExample({ ...options, env: { ...exampleEnv(emulator, port), ...options.env }, port });
}

/**
 * The tests every server example passes, on `example()` once its `before` hook started it: the
 * widget's routes (driveConversation) and the page with the widget (assertServesWidgetPage).
 */
export function itServesTheWidgetAndItsRoutes(runtime: string, emulator: Harness, example: () => RunningExample | undefined): void {
  it("issues a visitor, sends, lists the visitor's own messages and refuses past the send limit", async () => {
    await driveConversation(example()!, emulator, runtime);
  });

  it("serves a page with the widget, and the widget's files from the installed package", async () => {
    await assertServesWidgetPage(example()!);
  });
}

/**
 * Where an example takes the client address of its per-address limits from: the connection
 * (Node, Bun, Deno), or a header its platform sets (`CF-Connecting-IP`, `X-Real-IP`).
 */
export type AddressSource = 'connection' | { header: string };

/** How a request comes from one client address: its headers, or the loopback address it connects from. */
interface Client {
  headers: Record<string, string>;
  localAddress?: string;
}

/** A client address no request to the example came from yet, as `source` carries it: its counts start at zero. */
function freshClient(source: AddressSource): Client {
  return source === 'connection'
    ? { headers: {}, localAddress: freshLoopbackAddress() }
    : { headers: { [source.header]: freshDocumentationAddress() } };
}

/** One request to the example as the widget makes it, from `client`. */
async function call(
  origin: string,
  method: string,
  path: string,
  options: { token?: string; body?: unknown; headers?: Record<string, string>; client?: Client } = {},
): Promise<RawResponse> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return rawRequest(Number(new URL(origin).port), {
    method,
    path,
    headers: {
      ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
      ...options.client?.headers,
      ...options.headers,
    },
    ...(body !== undefined ? { body } : {}),
    ...(options.client?.localAddress ? { localAddress: options.client.localAddress } : {}),
  });
}

/**
 * What every example must do: a visitor identity, a send answered by the emulator, the visitor's
 * own messages listed, an idempotent repeat answered from the store without a second message
 * upstream, and once an identity spent its 10 sends of a minute, a 429 with Retry-After, the
 * rest of that minute. Every request comes from a client address no request came from before,
 * as `source` carries it.
 */
export async function driveConversation(
  example: RunningExample,
  emulator: Harness,
  runtime: string,
  source: AddressSource = 'connection',
): Promise<void> {
  const where = () => `\n--- ${runtime} output ---\n${example.output()}`;
  const client = freshClient(source);
  const visitor = await call(example.origin, 'POST', '/chatbot/visitor', { body: {}, client });
  assert.equal(visitor.status, 200, visitor.text + where());
  const { token, userId } = visitor.json.data as { token: string; userId: string };

  const content = `hello from ${runtime}`;
  const sent = await call(example.origin, 'POST', '/chatbot/message', { token, body: { content, userId: 'v_someone_else' }, client });
  assert.equal(sent.status, 200, sent.text + where());
  assert.equal(sent.json.data, `You said: ${content}`);

  const list = await call(example.origin, 'GET', '/chatbot/messages', { token, client });
  assert.equal(list.status, 200, list.text + where());
  const texts = (list.json.data as { text: string; chatUserId: string }[]).map((m) => m.text).sort();
  assert.deepEqual(texts, [content, `You said: ${content}`].sort());
  // Stored under the identity the handler issued, not the userId the browser sent.
  assert.ok((list.json.data as { chatUserId: string }[]).every((m) => m.chatUserId === userId));
  const stored = await emulator.call('GET', `/Dev/${BOT_A.id}/messages?userId=${encodeURIComponent(userId)}`, {
    timestamp: Math.floor(Date.now() / 1000),
  });
  assert.equal(stored.body.totalItems, 2);

  // The same Idempotency-Key twice: the first answer again, and one message stored upstream.
  const key = `example-${runtime.replace(/[^A-Za-z0-9]+/g, '-')}-${Date.now()}`;
  const once = { token, body: { content: 'exactly once' }, headers: { 'Idempotency-Key': key }, client };
  const first = await call(example.origin, 'POST', '/chatbot/message', once);
  assert.equal(first.status, 200, first.text + where());
  const repeat = await call(example.origin, 'POST', '/chatbot/message', once);
  assert.equal(repeat.status, 200, repeat.text + where());
  assert.equal(repeat.text, first.text);
  assert.equal(repeat.headers['idempotency-replayed'], 'true');
  const afterRepeat = await emulator.call('GET', `/Dev/${BOT_A.id}/messages?userId=${encodeURIComponent(userId)}`, {
    timestamp: Math.floor(Date.now() / 1000),
  });
  assert.equal(afterRepeat.body.totalItems, 4, 'the repeated send was stored once (question and reply)');

  // 10 sends a minute per identity. A new identity sends each attempt from a new address, so that
  // no address's own limits (20 a minute, 10 a day on the emulator's free tier) come first.
  await assertMinuteLimit(
    10,
    async () => {
      const sender = await call(example.origin, 'POST', '/chatbot/visitor', { body: {}, client: freshClient(source) });
      assert.equal(sender.status, 200, sender.text + where());
      return async (i) => {
        const attempt = await call(example.origin, 'POST', '/chatbot/message', {
          token: sender.json.data.token,
          body: { content: `again ${i}` },
          client: freshClient(source),
        });
        return { status: attempt.status, retryAfter: attempt.headers['retry-after'] };
      };
    },
    { describe: where },
  );
}

/**
 * The example's page is a working one: it loads the widget's script, which the example serves
 * from the installed package with the chunks beside it (the entry asked for again each time, the
 * hashed chunks kept), and a phone lays it out at its own width. Files that are not the widget's
 * are not served.
 */
export async function assertServesWidgetPage(example: RunningExample): Promise<void> {
  const page = await fetch(`${example.origin}/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
  const html = await page.text();
  assert.match(html, /<script type="module" src="\/chatbot-widget\.js"><\/script>/);
  assert.match(html, /<chatbot-widget endpoint="\/chatbot"><\/chatbot-widget>/);
  assert.match(html, /<meta name="viewport" content="width=device-width, initial-scale=1">/);

  const entry = await fetch(`${example.origin}/chatbot-widget.js`);
  assert.equal(entry.status, 200);
  assert.match(entry.headers.get('content-type') ?? '', /^(text|application)\/javascript/);
  assert.match(entry.headers.get('cache-control') ?? '', /no-cache/);
  const code = await entry.text();
  assert.equal(code, readFileSync(join(root, 'dist/chatbot-widget.js'), 'utf8'), "the package's own file");
  const chunk = /import\(["'`]\.\/(chatbot-widget-chat-panel-[\w-]+\.js)["'`]\)/.exec(code)?.[1];
  assert.ok(chunk, 'the entry names the panel chunk');
  const panel = await fetch(`${example.origin}/${chunk}`);
  assert.equal(panel.status, 200);
  assert.match(panel.headers.get('cache-control') ?? '', /immutable/);
  assert.equal(await panel.text(), readFileSync(join(root, 'dist', chunk), 'utf8'));

  const versioned = await fetch(`${example.origin}/chatbot-widget.js?v=2`);
  assert.equal(versioned.status, 200, 'a query string on the script (a version a page adds)');
  assert.equal(await versioned.text(), code);

  for (const other of ['/chatbot-widget-missing.js', '/chatbot-widget-..%2Fpackage.js', '/lib/server/index.js']) {
    const response = await fetch(`${example.origin}${other}`);
    assert.equal(response.status, 404, other);
    assert.doesNotMatch(response.headers.get('cache-control') ?? '', /immutable|max-age=[1-9]/, `${other}: a 404 is not kept`);
    assert.doesNotMatch(await response.text(), /createSigningHandler|"name": "chatbot-widget"/, other);
  }
}

/**
 * New visitors are counted per client address as the platform's `header` carries it: from an
 * address no request came from, 30 a minute and then a 429, while another address is still served.
 */
export async function assertVisitorsCountedPerAddress(origin: string, header: string): Promise<void> {
  const newVisitorFrom = async (client: Client) => {
    const response = await call(origin, 'POST', '/chatbot/visitor', { body: {}, client });
    return { status: response.status, retryAfter: response.headers['retry-after'] };
  };
  await assertMinuteLimit(30, () => {
    const client = freshClient({ header });
    return () => newVisitorFrom(client);
  });
  assert.equal((await newVisitorFrom(freshClient({ header }))).status, 200, 'another address has its own count');
}
