// examples/express-login, started with `node server.js` in its folder against the emulator over
// HTTP, and used in Chromium as its visitors would: signed out, the chat asks them to sign in;
// signed in (the site's form, an HttpOnly session cookie), it answers, and the same user on
// another browser (a context of its own) sees the same conversation; signed out again, nothing.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from '../../scripts/find-browser.mjs';
import { strings as english } from '../../src/ui/locales/en.js';
import { exampleEnv, freePort, linkPackage, startEmulator, startExample, type RunningExample } from './support/run-example.js';

const emulator = await startEmulator();

describe('examples/express-login (node server.js)', () => {
  let example: RunningExample | undefined;
  let browser: Browser | undefined;
  before(async () => {
    linkPackage();
    const port = await freePort();
    example = await startExample({
      name: 'express-login',
      command: process.execPath,
      args: ['server.js'],
      env: exampleEnv(emulator, port),
      port,
    });
    const executablePath = await findBrowser();
    if (!executablePath) throw new Error(INSTALL_HINT);
    browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
  });
  after(async () => {
    await browser?.close();
    await example?.stop();
  });

  /** A browser of its own (cookies, storage), on the example's page. */
  async function visitor(): Promise<Page> {
    const context = await browser!.newContext();
    const page = await context.newPage();
    await page.goto(`${example!.origin}/`);
    return page;
  }

  const signIn = async (page: Page, name: string) => {
    await page.locator('input[name="name"]').fill(name);
    await Promise.all([page.waitForURL(`${example!.origin}/`), page.locator('form[action="/login"] button').click()]);
    assert.equal(await page.locator('#user').textContent(), name);
  };
  const openChat = (page: Page) => page.locator('chatbot-widget [part="launcher"]').click();
  const ask = async (page: Page, text: string) => {
    await page.locator('chatbot-widget [part~="input"]').fill(text);
    await page.locator('chatbot-widget [part~="input"]').press('Enter');
  };
  const bubbles = (page: Page) => page.locator('chatbot-widget [part~="message"] .bubble').allTextContents();

  it('asks a signed-out visitor to sign in; signed in, the chat answers, the same on another browser', async () => {
    const laptop = await visitor();
    await openChat(laptop);
    await laptop.locator('chatbot-widget [part="error"]', { hasText: english.errorSignedOut }).waitFor({ timeout: 20_000 });

    await signIn(laptop, 'ada');
    const [cookie] = await laptop.context().cookies();
    assert.equal(cookie?.name, 'sid');
    assert.equal(cookie?.httpOnly, true, 'out of reach of scripts');
    assert.equal(cookie?.sameSite, 'Lax');
    assert.match(cookie!.value, /^[\w-]{43}\.[\w-]{43}$/, 'a random id and its signature');

    await openChat(laptop);
    await ask(laptop, 'hello as ada');
    await laptop.locator('chatbot-widget [part~="message-bot"]', { hasText: 'You said: hello as ada' }).waitFor({ timeout: 20_000 });

    const phone = await visitor();
    await signIn(phone, 'ada');
    await openChat(phone);
    await phone.locator('chatbot-widget [part~="message-bot"]', { hasText: 'You said: hello as ada' }).waitFor({ timeout: 20_000 });

    const other = await visitor();
    await signIn(other, 'bob');
    await openChat(other);
    await ask(other, 'hello as bob');
    await other.locator('chatbot-widget [part~="message-bot"]', { hasText: 'You said: hello as bob' }).waitFor({ timeout: 20_000 });
    assert.ok(!(await bubbles(other)).some((text) => text.includes('ada')), 'bob sees nothing of ada');

    await Promise.all([laptop.waitForURL(`${example!.origin}/`), laptop.locator('form[action="/logout"] button').click()]);
    await openChat(laptop);
    await laptop.locator('chatbot-widget [part="error"]', { hasText: english.errorSignedOut }).waitFor({ timeout: 20_000 });
    assert.deepEqual(await bubbles(laptop), [], 'nothing of ada once signed out');
  });

  it('refuses a forged or missing session at the handler (401), and login forms posted from another site', async () => {
    const visitorRoute = (cookie?: string) =>
      fetch(`${example!.origin}/chatbot/visitor`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
        body: '{}',
      });
    assert.equal((await visitorRoute()).status, 401);
    assert.equal((await visitorRoute(`sid=${'a'.repeat(43)}.${'b'.repeat(43)}`)).status, 401);
    const login = await fetch(`${example!.origin}/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://evil.example' },
      body: 'name=mallory',
      redirect: 'manual',
    });
    assert.equal(login.status, 400);
    assert.equal(login.headers.get('set-cookie'), null);
  });
});
