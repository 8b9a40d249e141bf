// The framework examples (examples/react, examples/vue, examples/svelte), as a site owner would
// use them: each is built with Vite (`npm run typecheck` checks their types), served next to
// the real signing handler (with the emulator behind it) and driven in Chromium: the panel opens,
// a message is sent and answered, the page's event callbacks see it, and the `strings` property
// set from the framework shows in the widget. The React example is built and driven twice, with
// React 19 and with React 18 (aliased).
// One test file per variant (test/examples/*.test.ts), so each stays well inside the runner's
// per-file time limit on a loaded machine.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type InlineConfig } from 'vite';
import { chromium, type Browser } from 'playwright-core';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from '../../../scripts/find-browser.mjs';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { createSigningHandler } from '../../../src/server/index.js';
import { toNodeListener } from '../../../src/server/adapters/node.js';
import { strings as english } from '../../../src/ui/locales/en.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const modules = join(root, 'node_modules');
const CHATBOT = { id: 'bot_examples', apiKey: 'pk_examples', apiSecret: 'sk_examples_secret_value', tier: 'premium' as const };
/** What each example sets through `strings` (examples/*\/src). */
const STRINGS = { heading: 'Acme help', send: 'Ask' };

let emulator: Emulator;
let upstream: { url: string; close(): Promise<void> };
let handlerListener: ReturnType<typeof toNodeListener>;
let browser: Browser;
/** The Chromium {@link startBackendAndBrowser} launched. */
export const examplesBrowser = () => browser;
const work = mkdtempSync(join(tmpdir(), 'chatbot-examples-'));

export async function startBackendAndBrowser(): Promise<void> {
  const executablePath = await findBrowser();
  if (!executablePath) throw new Error(INSTALL_HINT);
  emulator = createEmulator({
    db: ':memory:',
    chatbots: [CHATBOT],
    replySource: { name: 'echo', reply: async (request) => `You said: ${request.content}` },
  });
  upstream = await emulator.listen({ port: 0 });
  const handler = createSigningHandler({
    apiBaseUrl: upstream.url,
    apiKey: CHATBOT.apiKey,
    apiSecret: CHATBOT.apiSecret,
    chatbotId: CHATBOT.id,
    basePath: '/chatbot',
    logger: { warn() {}, error() {} },
  });
  handlerListener = toNodeListener(handler);
  browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
}

export async function stopAll(): Promise<void> {
  await browser?.close();
  await upstream?.close();
  emulator?.close();
  rmSync(work, { recursive: true, force: true });
}

/** What `npm install` in an example does for `"chatbot-widget": "file:../.."`: a link to the repository. */
export function linkPackage(example: string): void {
  const link = join(root, 'examples', example, 'node_modules/chatbot-widget');
  if (existsSync(link)) return;
  mkdirSync(join(link, '..'), { recursive: true });
  try {
    symlinkSync('../../..', link, 'dir');
  } catch (error) {
    // The React 18 and 19 files may link the same example at the same moment.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
};

/** The built example at `/`, the signing handler at `/chatbot/`, on one origin. */
export async function serve(dist: string): Promise<{ origin: string; server: Server }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path.startsWith('/chatbot/')) return handlerListener(req, res);
    const file = join(dist, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dist) || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** Opens the chat, sends one message, and checks reply, event callbacks and `strings` on the page. */
async function drive(origin: string, text: string): Promise<void> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // A file the page asks for and the site does not have (a favicon, a chunk not copied) is a 404
  // on the visitor's console.
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`${response.status()} ${response.url()}`);
  });
  try {
    await page.goto(origin);
    const part = (name: string) => page.locator(`chatbot-widget [part~="${name}"]`);
    await part('launcher').click();
    await part('input').waitFor({ state: 'visible' });
    // The framework draws the page's state on its own schedule (React 19 a task later): wait for it.
    await page
      .locator('#opened', { hasText: 'yes' })
      .waitFor({ timeout: 5_000 })
      .catch(async () =>
        assert.fail(`the page did not see chatbot-open through its framework (#opened: ${await page.locator('#opened').textContent()})`),
      );
    assert.equal((await part('send-button').textContent())?.trim(), STRINGS.send, 'strings.send applied (set as a property)');
    assert.match((await part('header').textContent()) ?? '', new RegExp(STRINGS.heading), 'strings.heading applied');
    await part('input').fill(text);
    await part('input').press('Enter');
    await part('message-bot')
      .filter({ hasText: `You said: ${text}` })
      .waitFor({ timeout: 15_000 });
    await page.locator('#last-reply', { hasText: `You said: ${text}` }).waitFor({ timeout: 5_000 });
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
}

interface Variant {
  name: string;
  example: string;
  vite?: InlineConfig;
  /** A string the bundle holds only with the intended framework version. */
  bundleHas?: RegExp;
}

const react18 = (pkg: string) => join(modules, pkg);
const variants = {
  react19: { name: 'React 19', example: 'react', bundleHas: /\.version=[`"']19\./ },
  react18: {
    name: 'React 18',
    example: 'react',
    vite: {
      resolve: {
        alias: [
          { find: /^react$/, replacement: react18('react-18') },
          { find: /^react\/(.*)$/, replacement: `${react18('react-18')}/$1` },
          { find: /^react-dom$/, replacement: react18('react-dom-18') },
          { find: /^react-dom\/(.*)$/, replacement: `${react18('react-dom-18')}/$1` },
        ],
      },
    },
    bundleHas: /\.version=[`"']18\./,
  },
  vue: { name: 'Vue', example: 'vue' },
  svelte: { name: 'Svelte', example: 'svelte' },
} satisfies Record<string, Variant>;

/** Registers the test of one example variant (with its backend and browser) in the calling file. */
export function testExample(which: keyof typeof variants): void {
  const variant: Variant = variants[which];
  before(startBackendAndBrowser);
  after(stopAll);
  test(`examples/${variant.example} with ${variant.name}: builds, and the widget works in Chromium`, async () => {
    assert.ok(existsSync(join(root, 'dist/lib/browser/index.js')), 'dist/ is missing: run `npm run build`');
    const dir = join(root, 'examples', variant.example);
    linkPackage(variant.example);
    const outDir = join(work, variant.name.replace(/\W+/g, '-'));
    await build({ root: dir, logLevel: 'silent', ...variant.vite, build: { outDir, emptyOutDir: true } });
    // The package entry loads as the standalone file does: English is a chunk of its own, not in
    // the app's first chunk (a page in another language never fetches it).
    const entry = /<script[^>]+src="\/assets\/([^"]+\.js)"/.exec(readFileSync(join(outDir, 'index.html'), 'utf8'))?.[1];
    const withEnglish = readdirSync(join(outDir, 'assets')).filter(
      (f) => f.endsWith('.js') && readFileSync(join(outDir, 'assets', f), 'utf8').includes(english.errorTooLong),
    );
    assert.ok(entry, 'the built page names its script');
    assert.equal(withEnglish.length, 1, `English in one chunk: ${withEnglish.join(', ')}`);
    assert.notEqual(withEnglish[0], entry, "English is not in the app's first chunk");
    if (variant.bundleHas) {
      const bundle = readdirSync(join(outDir, 'assets'))
        .filter((f) => f.endsWith('.js'))
        .map((f) => readFileSync(join(outDir, 'assets', f), 'utf8'))
        .join('\n');
      assert.ok(variant.bundleHas.test(bundle), `the bundle carries ${variant.name}`);
    }
    const { origin, server } = await serve(outDir);
    try {
      await drive(origin, `hello from ${variant.name}`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
}
