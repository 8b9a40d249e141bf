// End to end: `npm start` (demo site + signing handler + emulator in one process) driven by
// Playwright in the machine's Chromium, as a visitor would use it. Selectors are the widget's
// public parts (docs/widget.md), so these tests hold whatever the element's insides look like.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from '../../scripts/find-browser.mjs';
import { startStack, type RunningStack } from '../helpers/start-stack.js';

let stack: RunningStack;
let browser: Browser;
let otherSite: Server;
let otherOrigin: string;

const part = (name: string) => `chatbot-widget [part~="${name}"]`;

before(async () => {
  const executablePath = await findBrowser();
  if (!executablePath) throw new Error(INSTALL_HINT);
  // A plain HTML page on another origin, for the embed snippet; its page is set per test.
  let otherPage = '';
  otherSite = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(otherPage);
  });
  await new Promise<void>((resolve) => otherSite.listen(0, '127.0.0.1', resolve));
  otherOrigin = `http://127.0.0.1:${(otherSite.address() as AddressInfo).port}`;
  (otherSite as Server & { setPage?: (html: string) => void }).setPage = (html) => (otherPage = html);
  stack = await startStack({ CHATBOT_ALLOWED_ORIGINS: otherOrigin });
  browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
});

after(async () => {
  await browser?.close();
  await stack?.stop();
  await new Promise((resolve) => otherSite?.close(resolve));
});

async function openChat(page: Page): Promise<void> {
  await page.locator(part('launcher')).click();
  await page.locator(part('input')).waitFor({ state: 'visible' });
}

async function send(page: Page, text: string): Promise<void> {
  await page.locator(part('input')).fill(text);
  await page.locator(part('input')).press('Enter');
}

test('npm start prints its URLs and serves the demo pages under a strict CSP', async () => {
  assert.match(stack.output(), /Signing handler\s+http:\/\/localhost:\d+\/chatbot\//);
  assert.match(stack.output(), /Emulator\s+http:\/\/localhost:\d+\/api/);
  assert.ok(stack.adminToken.length > 10, 'a generated admin token is printed');
  for (const path of ['/', '/inline.html', '/embed.html', '/admin.html']) {
    const response = await fetch(stack.origin + path);
    assert.equal(response.status, 200, path);
    assert.match(response.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  }
  const bundle = await fetch(`${stack.origin}/chatbot-widget.js`);
  assert.equal(bundle.status, 200);
  const code = await bundle.text();
  assert.ok(!/sk_[A-Za-z0-9]{6,}/.test(code), 'no secret-like string in the bundle');
  assert.equal((await fetch(`${stack.origin}/../package.json`)).status, 404);
});

test('npm start on loopback answers only to loopback names: a rebinding name is refused, saying what to open', async () => {
  const port = Number(new URL(stack.origin).port);
  const get = (host: string) =>
    new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path: '/chatbot/visitor',
          method: 'POST',
          headers: { Host: host, 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin', Origin: `http://${host}` },
        },
        (res) => {
          let text = '';
          res.on('data', (chunk) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      req.end('{}');
    });
  const rebound = await get(`rebind.attacker.example:${port}`);
  assert.equal(rebound.status, 403);
  assert.match(rebound.text, new RegExp(`open http://localhost:${port}/, or set HOST=0\\.0\\.0\\.0`));
  assert.equal((await get(`localhost:${port}`)).status, 200);
  assert.equal((await get(`127.0.0.1:${port}`)).status, 200);
});

test('a visitor asks a question, gets an answer, and finds the conversation again after a reload', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(stack.origin + '/');
  await openChat(page);
  await send(page, 'How do I embed the widget?');
  await page.locator(part('message-user')).filter({ hasText: 'How do I embed the widget?' }).waitFor();
  const reply = page.locator(part('message-bot')).last();
  await reply.waitFor({ timeout: 20_000 });
  assert.match((await reply.textContent()) ?? '', /chatbot-widget|embed/i);

  await page.reload();
  await openChat(page);
  await page.locator(part('message-user')).filter({ hasText: 'How do I embed the widget?' }).waitFor({ timeout: 5_000 });
  assert.equal(await page.locator(part('message-user')).filter({ hasText: 'How do I embed the widget?' }).count(), 1);
  await context.close();
});

test('a message written offline is kept, survives a reload, and is sent once when back online', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(stack.origin + '/');
  await openChat(page);
  await send(page, 'Hello there');
  await page.locator(part('message-bot')).last().waitFor({ timeout: 20_000 });

  await context.setOffline(true);
  await send(page, 'Written while offline');
  await page.locator(part('message-failed')).filter({ hasText: 'Written while offline' }).waitFor({ timeout: 15_000 });
  await page.locator(part('retry-button')).first().waitFor();
  assert.ok(((await page.locator(part('error')).textContent()) ?? '').trim().length > 0, 'the error part says what happened');

  await context.setOffline(false);
  await page.reload();
  await openChat(page);
  const kept = page.locator(part('message-user')).filter({ hasText: 'Written while offline' });
  await kept.waitFor({ timeout: 5_000 });
  // Sent now, either by the retry button or by the widget on its own when it came back.
  const retry = page.locator(part('retry-button'));
  if (await retry.count()) await retry.first().click();
  // Nothing pending or failed any more (a locator, not page.evaluate: the demo's CSP forbids eval).
  await page
    .locator(`${part('message-failed')}, ${part('message-pending')}`)
    .first()
    .waitFor({ state: 'detached', timeout: 20_000 });
  await page.reload();
  await openChat(page);
  await kept.first().waitFor({ timeout: 10_000 });
  assert.equal(await kept.count(), 1, 'the offline message is in the conversation exactly once');
  // And upstream stored it once: nothing lost, nothing doubled.
  const stored = await fetch(`${stack.origin}/chatbot/admin/messages?pageSize=100`, { headers: { 'X-Admin-Token': stack.adminToken } });
  const listing = (await stored.json()) as { data: { text: string; senderType: string }[] };
  assert.equal(listing.data.filter((m) => m.senderType === 'User' && m.text === 'Written while offline').length, 1);
  await context.close();
});

test("a second visitor sees none of the first visitor's conversation", async () => {
  const first = await browser.newContext();
  const firstPage = await first.newPage();
  await firstPage.goto(stack.origin + '/');
  await openChat(firstPage);
  await send(firstPage, 'My order number is 4711');
  await firstPage.locator(part('message-bot')).last().waitFor({ timeout: 20_000 });

  const second = await browser.newContext();
  const secondPage = await second.newPage();
  await secondPage.goto(stack.origin + '/');
  await openChat(secondPage);
  await secondPage.locator(part('history-button')).click();
  await secondPage.locator(part('history')).waitFor();
  await secondPage.waitForTimeout(500);
  assert.equal(await secondPage.locator(part('session')).count(), 0, 'no sessions of another visitor listed');
  assert.equal(await secondPage.getByText('4711').count(), 0);
  await first.close();
  await second.close();
});

test('the embed snippet works when pasted onto a plain page of an allowed origin', async () => {
  const context = await browser.newContext();
  const embed = await context.newPage();
  await embed.goto(stack.origin + '/embed.html');
  const snippet = (await embed.locator('#snippet').textContent()) ?? '';
  assert.match(snippet, /<chatbot-widget endpoint="http:\/\/localhost:\d+\/chatbot"/);
  (otherSite as Server & { setPage: (html: string) => void }).setPage(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Plain page</title></head><body><h1>My plain page</h1>${snippet}</body></html>`,
  );
  const page = await context.newPage();
  await page.goto(otherOrigin + '/');
  await openChat(page);
  await send(page, 'Hi from another site');
  await page.locator(part('message-bot')).last().waitFor({ timeout: 20_000 });
  await context.close();
});

test('the admin page lists usage with the printed token, and refuses without it', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${stack.origin}/admin.html#token=${stack.adminToken}`);
  // The page is <chatbot-usage> (test/e2e/admin-page.test.ts tests it in depth).
  await page.locator('chatbot-usage [part~="bar"]').first().waitFor({ timeout: 10_000 });
  assert.ok((await page.locator('chatbot-usage [part~="user"]').count()) >= 1);
  await page.locator('chatbot-usage [part~="user"]').first().click();
  await page.locator('chatbot-usage [part~="session"]').first().waitFor();
  assert.match((await page.locator('chatbot-usage [part~="pager"] span').textContent()) ?? '', /Page 1 of \d+/);
  const denied = await fetch(`${stack.origin}/chatbot/admin/users`);
  assert.equal(denied.status, 403);
  await context.close();
});
