// The studio's snippets work as pasted: for a few configurations, the handler snippet for
// Express, Bun and Deno (demo/studio/snippets.ts) is put into a file of the matching example
// (examples/<name>/studio-snippet.*, removed afterwards) and run with that runtime's own tooling
// against the emulator; Chromium then opens a page on the handler's origin that holds only the
// script-tag snippet, served with the studio's CSP line, and the widget answers through it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from '../../scripts/find-browser.mjs';
import { cspHeader, handlerSnippet, scriptTagSnippet, type HandlerRuntime } from '../../demo/studio/snippets.js';
import type { StudioConfig } from '../../demo/studio/studio-config.js';
import {
  examplesDir,
  exampleEnv,
  freePort,
  linkPackage,
  root,
  startEmulator,
  startExample,
  tool,
  type RunningExample,
} from './support/run-example.js';

const emulator = await startEmulator();

/** How each runtime runs a file of its example's folder, as that example's README runs its own. */
const RUNTIMES: { runtime: HandlerRuntime; example: string; file: string; command: () => { command: string; args: string[] } }[] = [
  {
    runtime: 'express',
    example: 'express',
    file: 'studio-snippet.js',
    command: () => ({ command: process.execPath, args: ['studio-snippet.js'] }),
  },
  {
    runtime: 'bun',
    example: 'bun',
    file: 'studio-snippet.ts',
    command: () => ({
      command: tool('node_modules/bun/bin/bun.exe', 'run `npm install` (the "bun" devDependency)'),
      args: ['run', 'studio-snippet.ts'],
    }),
  },
  {
    runtime: 'deno',
    example: 'deno',
    file: 'studio-snippet.ts',
    command() {
      const [, ...args] = (JSON.parse(readFileSync(join(examplesDir, 'deno/deno.json'), 'utf8')).tasks.start as string).split(' ');
      return {
        command: tool('node_modules/deno/deno', 'run `npm install` (the "deno" devDependency)'),
        args: args.map((a) => (a === 'main.ts' ? 'studio-snippet.ts' : a)),
      };
    },
  },
];

/** A configuration per runtime: another base path, texts, a colour and a recipe. */
const configFor = (runtime: string): StudioConfig => ({
  attributes: {
    endpoint: `/${runtime}-support/chatbot`,
    heading: `Help on ${runtime}`,
    greeting: `Hello from the ${runtime} snippet`,
    suggestions: [`Ping ${runtime}?`],
    theme: runtime === 'bun' ? 'dark' : 'light',
  },
  properties: {},
  styles: { '--chatbot-accent': '#0f766e' },
  recipes: ['square-launcher'],
});

let browser: Browser;
before(async () => {
  const executablePath = await findBrowser();
  if (!executablePath) throw new Error(INSTALL_HINT);
  browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
  linkPackage();
});
after(() => browser?.close());

for (const { runtime, example, file, command } of RUNTIMES) {
  describe(`the studio's ${runtime} handler and script-tag snippets`, () => {
    let running: RunningExample | undefined;
    const config = configFor(runtime);
    const path = join(examplesDir, example, file);
    before(async () => {
      // Each snippet verbatim, the Express one listening on PORT by itself.
      writeFileSync(path, handlerSnippet(runtime, config));
      const port = await freePort();
      running = await startExample({
        name: example,
        ...command(),
        env: { ...exampleEnv(emulator, port), CHATBOT_KV_PATH: ':memory:' },
        port,
      });
    });
    after(async () => {
      await running?.stop();
      rmSync(path, { force: true });
    });

    it('runs, and the widget pasted on a page beside it answers under the CSP line', async () => {
      const origin = running!.origin;
      const context = { origin };
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
      page.on('pageerror', (error) => problems.push(error.message));
      // The page and the widget's files, as the site beside the handler serves them.
      await page.route(`${origin}/`, async (route) =>
        route.fulfill({
          contentType: 'text/html; charset=utf-8',
          headers: { 'Content-Security-Policy': (await cspHeader(config, context)).replace(/^Content-Security-Policy:\s*/, '') },
          body: `<!doctype html>\n<html lang="en">\n<title>Snippet</title>\n<body>\n${scriptTagSnippet(config, context)}</body>\n</html>\n`,
        }),
      );
      await page.route(/\/chatbot-widget[\w-]*\.js$/, (route) =>
        route.fulfill({
          contentType: 'text/javascript',
          body: readFileSync(join(root, 'dist', new URL(route.request().url()).pathname.slice(1))),
        }),
      );
      try {
        await page.goto(`${origin}/`);
        const part = (name: string) => page.locator(`chatbot-widget [part~="${name}"]`);
        await part('launcher').click();
        await part('greeting').getByText(`Hello from the ${runtime} snippet`).waitFor();
        await part('suggestion').getByText(`Ping ${runtime}?`).click();
        await part('message-bot').getByText(`You said: Ping ${runtime}?`).waitFor({ timeout: 20_000 });
        assert.equal(await part('launcher').evaluate((el) => getComputedStyle(el).borderRadius), '10px', 'the recipe applied');
        assert.deepEqual(problems, [], `nothing refused or failed:\n${running!.output()}`);
      } finally {
        await page.close();
      }
    });
  });
}
