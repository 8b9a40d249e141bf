// examples/nextjs with Next's own tooling: `next build` with no CHATBOT_* variables set (the
// handler is created on the first request, not at module load), then `next start` with them,
// against the emulator over HTTP. Route handlers get no client address: the example names the
// platform's header (x-real-ip), so two addresses are counted apart.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from '../../scripts/find-browser.mjs';
import { join } from 'node:path';
import {
  assertVisitorsCountedPerAddress,
  driveConversation,
  examplesDir,
  linkPackage,
  startEmulator,
  startExampleAgainst,
  type RunningExample,
} from './support/run-example.js';
import { NEXT_BUILD_TIMEOUT_MS, nextBinary, nextBuild } from './support/next-build.js';

const emulator = await startEmulator();
describe('examples/nextjs (next build && next start)', { timeout: NEXT_BUILD_TIMEOUT_MS + 120_000 }, () => {
  let example: RunningExample | undefined;
  let buildOutput = '';
  before(
    async () => {
      // The example imports chatbot-widget by name, at build time already.
      linkPackage();
      buildOutput = await nextBuild(join(examplesDir, 'nextjs'));
      example = await startExampleAgainst(emulator, { name: 'nextjs', command: nextBinary(), args: ['start'] });
    },
    { timeout: NEXT_BUILD_TIMEOUT_MS + 60_000 },
  );
  after(() => example?.stop());

  it('builds with no CHATBOT_* variables, the route served on demand', () => {
    assert.match(buildOutput, /\/chatbot\/\[\.\.\.path\]/);
  });

  it("issues a visitor, sends, lists the visitor's own messages and refuses past the send limit", async () => {
    await driveConversation(example!, emulator, 'Next.js', { header: 'X-Real-IP' });
  });

  it('shows the chat on its page in Chromium: open, ask, the reply, no error on the console', async () => {
    const executablePath = await findBrowser();
    if (!executablePath) throw new Error(INSTALL_HINT);
    const browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
    try {
      // As on Vercel, whose proxy sets the visitor's address in x-real-ip (the route reads it).
      const page = await browser.newPage({ extraHTTPHeaders: { 'X-Real-IP': '198.51.100.24' } });
      const problems: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('response', (response) => {
        if (response.status() >= 400) problems.push(`${response.status()} ${new URL(response.url()).pathname}`);
      });
      await page.goto(`${example!.origin}/`);
      await page.locator('chatbot-widget [part="launcher"]').click();
      await page.locator('chatbot-widget [part~="input"]').fill('hello from the Next.js page');
      await page.locator('chatbot-widget [part~="input"]').press('Enter');
      const reply = page.locator('chatbot-widget [part~="message-bot"]').last();
      await reply.waitFor({ timeout: 20_000 });
      assert.match((await reply.textContent()) ?? '', /You said: hello from the Next\.js page/);
      assert.equal(await page.locator('chatbot-widget [part="panel"] h2').textContent(), 'Ask us');
      assert.deepEqual(problems, []);
    } finally {
      await browser.close();
    }
  });

  it('counts new visitors per x-real-ip address, not all in one bucket', async () => {
    await assertVisitorsCountedPerAddress(example!.origin, 'X-Real-IP');
  });
});
