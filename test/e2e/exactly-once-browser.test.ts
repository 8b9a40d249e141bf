// Exactly once with what the in-page browser tests cannot do: a real page reload while the
// reply is pending, and the browser's own offline mode (Playwright's network emulation:
// requests fail, `navigator.onLine` turns false, `offline`/`online` fire). The built widget
// (dist/chatbot-widget.js) in Chromium, the real handler, and the emulator behind a proxy that
// holds each send 0.3 s before storing and 0.9 s before answering, and can drop the connection
// after storing. The verdict is counted from upstream, message by message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from '../../scripts/find-browser.mjs';
import { startWidgetSite, type WidgetSite } from '../helpers/widget-site.js';

let site: WidgetSite;
let browser: Browser;

before(async () => {
  const executablePath = await findBrowser();
  if (!executablePath) throw new Error(INSTALL_HINT);
  site = await startWidgetSite({
    replySource: { name: 'echo', reply: async ({ content }) => `You said: ${content}` },
    faults: { delayBeforeMs: 300, delayAfterMs: 900 },
  });
  browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
});

after(async () => {
  await browser?.close();
  await site?.close();
});

const part = (name: string) => `chatbot-widget [part~="${name}"]`;

async function send(page: Page, text: string) {
  await page.locator(part('input')).fill(text);
  await page.locator(part('input')).press('Enter');
}

/** How many times upstream stored each of `texts` as a visitor's message. */
async function storedCounts(texts: string[]) {
  const stored = (await site.upstreamMessages()).filter((m) => m.senderType === 'User').map((m) => m.text);
  return Object.fromEntries(texts.map((t) => [t, stored.filter((s) => s === t).length]));
}

const once = (texts: string[]) => Object.fromEntries(texts.map((t) => [t, 1]));

async function waitForReply(page: Page, text: string) {
  await page
    .locator(part('message-bot'))
    .filter({ hasText: `You said: ${text}` })
    .waitFor({ timeout: 20_000 });
}

test('a page reload while the reply is pending: the message is stored once and answered', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(site.origin + '/');
  await page.locator(part('launcher')).click();
  await send(page, 'warm up');
  await waitForReply(page, 'warm up');
  for (const text of ['reloaded early', 'reloaded late']) {
    await send(page, text);
    // Upstream holds the send 1.2 s in all: reload before it stored, and after.
    await page.waitForTimeout(text === 'reloaded early' ? 150 : 700);
    await page.reload();
    await page.locator(part('launcher')).click();
    await waitForReply(page, text);
    // The refresh after the reload waited for the resend: never the server copy beside the pending bubble.
    assert.equal(await page.locator(part('message-user')).filter({ hasText: text }).count(), 1, `"${text}" shown once`);
  }
  assert.deepEqual(
    await storedCounts(['warm up', 'reloaded early', 'reloaded late']),
    once(['warm up', 'reloaded early', 'reloaded late']),
  );
  await context.close();
});

test("the browser's offline mode, and a connection dropped after storing: each message stored once", async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(site.origin + '/');
  await page.locator(part('launcher')).click();
  // Upstream stores the first send, then the connection to the handler breaks: the handler
  // answers 502 and the widget resends the same key, which the handler resolves upstream.
  site.faulty!.dropNext(1);
  await send(page, 'dropped after storing');
  await waitForReply(page, 'dropped after storing');

  // On its way, held by upstream, when the browser goes offline (Chromium may let a request
  // already sent finish, or fail it: either way it must end up stored once).
  await send(page, 'cut off in flight');
  await page.waitForTimeout(150);
  await context.setOffline(true);
  for (const text of ['written offline 1', 'written offline 2']) await send(page, text);
  await page.waitForFunction(
    () => document.querySelector('chatbot-widget')!.shadowRoot!.querySelectorAll('[part~="message-failed"]').length >= 2,
  );
  assert.equal(await page.evaluate(() => navigator.onLine), false, 'the browser says it is offline');
  assert.match((await page.locator(part('error')).textContent()) ?? '', /offline/i, 'says offline in words');

  await context.setOffline(false); // the browser fires `online`: the widget resends by itself
  for (const text of ['cut off in flight', 'written offline 1', 'written offline 2']) await waitForReply(page, text);
  assert.equal(await page.locator(part('message-failed')).count(), 0, 'nothing left failed');
  const texts = ['dropped after storing', 'cut off in flight', 'written offline 1', 'written offline 2'];
  assert.deepEqual(await storedCounts(texts), once(texts));
  const order = (await site.upstreamMessages()).filter((m) => m.senderType === 'User').map((m) => m.text);
  assert.deepEqual(order.slice(-texts.length), texts, 'in the order written (after those of the first test)');
  await context.close();
});
