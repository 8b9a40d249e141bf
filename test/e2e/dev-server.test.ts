// `npm run dev`: Vite serves index.html with the widget compiled from source, and proxies
// /chatbot to the signing handler of a running `npm start`. A visitor's message goes through.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer, type ViteDevServer } from 'vite';
import { chromium, type Browser } from 'playwright-core';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from '../../scripts/find-browser.mjs';
import { startStack, type RunningStack } from '../helpers/start-stack.js';

let stack: RunningStack;
let vite: ViteDevServer;
let browser: Browser;

before(async () => {
  const executablePath = await findBrowser();
  if (!executablePath) throw new Error(INSTALL_HINT);
  stack = await startStack();
  process.env.CHATBOT_DEV_BACKEND = stack.origin;
  // The project's vite.config.ts, as `npm run dev` loads it, on a free port.
  vite = await createServer({ server: { port: 0, host: '127.0.0.1' }, logLevel: 'silent' });
  await vite.listen();
  browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
});

after(async () => {
  await browser?.close();
  await vite?.close();
  await stack?.stop();
  delete process.env.CHATBOT_DEV_BACKEND;
});

test('the dev page runs the widget from source and talks to npm start through the proxy', async () => {
  const { port } = vite.httpServer!.address() as AddressInfo;
  const page = await browser.newPage();
  await page.goto(`http://127.0.0.1:${port}/`);
  const inline = page.locator('chatbot-widget[mode="inline"]');
  await inline.locator('[part~="input"]').fill('How do I embed the widget?');
  await inline.locator('[part~="input"]').press('Enter');
  const reply = inline.locator('[part~="message-bot"]').last();
  await reply.waitFor({ timeout: 30_000 });
  assert.match((await reply.textContent()) ?? '', /embed|chatbot-widget/i);
  await page.close();
});
