// End to end: the studio of `npm start` (/studio, demo/studio/) in Chromium, under its strict CSP
// with Trusted Types: changing theme, colour, language and suggestions changes the live widget at
// once; the copied script-tag snippet, pasted into a blank page served beside the handler under
// the CSP line the studio gives, draws the very same widget (compared as screenshots); a link
// restores form and widget; bad values are said at their field and never break the widget; the
// page is usable from the keyboard and axe finds nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import pixelmatch from 'pixelmatch';
import { PNG } from 'pngjs';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from '../../scripts/find-browser.mjs';
import { startStack, type RunningStack } from '../helpers/start-stack.js';

let stack: RunningStack;
let browser: Browser;
// Tall enough to show the studio's live widget without scrolling.
const VIEWPORT = { width: 1400, height: 1200 };
/** How many pixels of the pasted widget's panel may differ from the studio's (anti-aliasing only). */
const MAX_DIFFERENT_PIXELS = 20;

before(async () => {
  const executablePath = await findBrowser();
  if (!executablePath) throw new Error(INSTALL_HINT);
  stack = await startStack();
  browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
});

after(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A page that records CSP violations, console errors and page errors from its first moment. */
async function watched(context: BrowserContext): Promise<{ page: Page; problems: () => Promise<string[]> }> {
  const page = await context.newPage();
  const errors: string[] = [];
  await page.addInitScript(() => {
    const seen: string[] = [];
    (globalThis as unknown as { __violations: string[] }).__violations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.effectiveDirective}: ${e.blockedURI} ${e.sample}`), true);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const problems = async () => [
    ...(await page.evaluate(() => (globalThis as unknown as { __violations: string[] }).__violations)),
    ...errors,
  ];
  return { page, problems };
}

const live = (name: string) => `#live-widget [part~="${name}"]`;
/** The form control of a field, found by its label as a person finds it. */
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const messageOf = (page: Page, key: string) => page.locator(`.field[data-key="${key}"] .field-message`);

async function openStudio(context: BrowserContext, hash = '') {
  const watchedPage = await watched(context);
  await watchedPage.page.goto(`${stack.origin}/studio${hash}`);
  await watchedPage.page.locator('body[data-studio-ready]').waitFor();
  return watchedPage;
}

async function snippetText(page: Page, id: string): Promise<string> {
  await page.locator('#snippet-choice').selectOption(id);
  await page.evaluate(() => (window as unknown as { studioSettled: () => Promise<void> }).studioSettled());
  return (await page.locator('#snippet-text').textContent()) ?? '';
}

/** The open panel as pixels, nothing focused (no caret), after its fade. */
async function panelPicture(page: Page, widget: string): Promise<PNG> {
  await page.evaluate(async (selector) => {
    // From the top of the page, where the studio's preview lies on whole pixels: scrolled to the
    // snippets, its sticky frame may rest at a fractional offset, a pixel taller in a picture.
    scrollTo(0, 0);
    const el = document.querySelector(selector)!;
    (el.shadowRoot!.activeElement as HTMLElement | null)?.blur();
    await Promise.all(el.shadowRoot!.getAnimations().map((a) => a.finished));
  }, widget);
  return PNG.sync.read(await page.locator(`${widget} [part~="panel"]`).screenshot());
}

test('the studio drives the live widget, and its script-tag snippet pasted on a blank page draws the same widget', async () => {
  const context = await browser.newContext({ viewport: VIEWPORT, permissions: ['clipboard-read', 'clipboard-write'] });
  const { page, problems } = await openStudio(context);

  await field(page, 'open').check();
  await field(page, 'theme').selectOption('dark');
  await field(page, 'lang').fill('de');
  await field(page, 'greeting').fill('Hallo! Wie kann ich helfen?');
  await field(page, 'suggestions').fill('["Preise?", "Öffnungszeiten?"]');
  await field(page, '--chatbot-accent').fill('#0f766e');
  await page.getByLabel('Header in the accent colour').check();

  await page.locator(live('suggestion')).nth(1).waitFor();
  assert.deepEqual(await page.locator(live('suggestion')).allTextContents(), ['Preise?', 'Öffnungszeiten?'], 'the suggestions at once');
  assert.equal(await page.locator('#live-widget').getAttribute('theme'), 'dark');
  assert.equal((await page.locator(live('greeting')).textContent())?.includes('Hallo! Wie kann ich helfen?'), true, 'the greeting');
  await page.waitForFunction(() => {
    const input = document.querySelector('#live-widget')!.shadowRoot!.querySelector('[part="input"]') as HTMLTextAreaElement | null;
    return input && !/message/i.test(input.placeholder);
  });
  const header = page.locator(live('header'));
  assert.equal(await header.evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(15, 118, 110)', 'the accent, through the recipe');
  assert.equal(await page.locator(live('send-button')).evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(15, 118, 110)');

  // The link holds it all: a new tab on that address shows the same form and widget.
  const link = page.url();
  assert.match(link, /#.*theme=dark.*lang=de/);
  const restored = await openStudio(context, new URL(link).hash);
  assert.equal(await field(restored.page, 'theme').inputValue(), 'dark');
  assert.equal(await field(restored.page, '--chatbot-accent').inputValue(), '#0f766e');
  assert.equal(await restored.page.getByLabel('Header in the accent colour').isChecked(), true);
  await restored.page.locator(live('suggestion')).nth(1).waitFor();
  await restored.page.close();

  // Copied as the owner copies it, then pasted into a blank page on the handler's origin, sent
  // with the CSP line the studio gives.
  await snippetText(page, 'html');
  await page.getByRole('button', { name: 'Copy snippet' }).click();
  await page.getByText('Copied.').waitFor();
  const snippet = await page.evaluate(() => navigator.clipboard.readText());
  const csp = (await snippetText(page, 'csp')).trim().replace(/^Content-Security-Policy:\s*/, '');
  assert.match(snippet, /^<script type="module" src="http:\/\/localhost:\d+\/chatbot-widget\.js"><\/script>\n<style>/);
  const studioPanel = await panelPicture(page, '#live-widget');
  assert.deepEqual(await problems(), [], 'no CSP, Trusted Types or script error in the studio');

  const blank = await browser.newContext({ viewport: VIEWPORT });
  const pasted = await watched(blank);
  await pasted.page.route(`${stack.origin}/pasted.html`, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      headers: { 'Content-Security-Policy': csp },
      body: `<!doctype html>\n<html lang="en">\n<title>Pasted</title>\n<body>\n${snippet}</body>\n</html>\n`,
    }),
  );
  await pasted.page.goto(`${stack.origin}/pasted.html`);
  await pasted.page.locator('chatbot-widget [part~="suggestion"]').nth(1).waitFor();
  const pastedPanel = await panelPicture(pasted.page, 'chatbot-widget');
  assert.deepEqual(await pasted.problems(), [], 'the pasted page works under the CSP line, with nothing refused');
  assert.deepEqual([pastedPanel.width, pastedPanel.height], [studioPanel.width, studioPanel.height], 'the same panel size');
  // The same pixels: the preview frame is not sticky, so nothing puts the panel on a layer of its
  // own whose edges round differently. A few pixels of anti-aliasing are allowed; a close button
  // or greeting 10 px out of place differs by 60 pixels or more.
  const different = pixelmatch(studioPanel.data, pastedPanel.data, null, studioPanel.width, studioPanel.height, { threshold: 0.03 });
  assert.ok(different <= MAX_DIFFERENT_PIXELS, `the pasted widget looks like the studio's: ${different} pixels differ`);
  await blank.close();
  await context.close();
});

test('a bad colour, JSON or URL is said at its field, and the live widget keeps working', async () => {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const { page, problems } = await openStudio(context, '#mode=inline&suggestions=%5B%22Hi%22%5D');
  await page.locator(live('suggestion')).waitFor();

  await field(page, '--chatbot-accent').fill('red; } body { display: none');
  await field(page, 'suggestions').fill('["Hi", ');
  await field(page, 'endpoint').fill('javascript:alert(1)');
  await field(page, 'page-size').fill('many');
  assert.match((await messageOf(page, '--chatbot-accent').textContent()) ?? '', /Not a CSS colour/);
  assert.match((await messageOf(page, 'suggestions').textContent()) ?? '', /Not JSON/);
  assert.match((await messageOf(page, 'endpoint').textContent()) ?? '', /http\(s\) URL/);
  assert.match((await messageOf(page, 'page-size').textContent()) ?? '', /number/);
  assert.equal(await field(page, 'suggestions').getAttribute('aria-invalid'), 'true');
  const snippet = await snippetText(page, 'html');
  assert.doesNotMatch(snippet, /javascript:|display: none|many/, 'no refused value in the snippet');
  assert.equal(await page.locator('body').isVisible(), true);

  // The widget still has its last good suggestions and answers a message.
  assert.deepEqual(await page.locator(live('suggestion')).allTextContents(), ['Hi']);
  await page.locator(live('suggestion')).click();
  await page.locator(live('message-bot')).first().waitFor({ timeout: 20_000 });
  // Markup typed into a field stays text in the widget.
  await field(page, 'greeting').fill('<img src=x onerror="window.__pwned=1">');
  await field(page, 'heading').fill('<b>bold</b>');
  await page.locator(live('header')).getByText('<b>bold</b>').waitFor();
  assert.equal(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned), undefined);
  assert.deepEqual(await problems(), []);
  await context.close();
});

test('the studio warns below 4.5:1 contrast, works from the keyboard, and axe finds nothing', async () => {
  const context = await browser.newContext({ viewport: VIEWPORT, bypassCSP: true });
  const { page } = await openStudio(context);
  await field(page, '--chatbot-user-text').fill('#9ca3af');
  // #9ca3af on the default #1d4ed8: 2.9:1 (relative luminances 0.3613 and 0.0771).
  await messageOf(page, '--chatbot-user-text')
    .getByText(/Contrast 2\.\d\d:1 between --chatbot-user-text and --chatbot-user-background/)
    .waitFor();
  await field(page, '--chatbot-user-text').fill('#ffffff');
  await messageOf(page, '--chatbot-user-text').getByText(/^$/).waitFor({ state: 'attached' });
  assert.equal(await messageOf(page, '--chatbot-user-text').textContent(), '', '6.7:1 passes');

  // Keyboard only: Tab to the theme field, choose dark with the arrow keys.
  await page.locator('body').focus();
  for (let i = 0; i < 40 && !(await field(page, 'theme').evaluate((el) => el === document.activeElement)); i++)
    await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => document.querySelector('#live-widget')!.getAttribute('theme') === 'dark');

  const require = createRequire(import.meta.url);
  await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: typeof import('axe-core') }).axe;
    const result = await axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21aa', 'best-practice'] });
    return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  });
  assert.deepEqual(violations, []);
  await context.close();
});

test("the snippets that name this server's address say, beside them, that another origin needs CHATBOT_ALLOWED_ORIGINS", async () => {
  const context = await browser.newContext({ viewport: VIEWPORT });
  const { page, problems } = await openStudio(context);
  const note = page.locator('.snippet-note');
  for (const id of ['html', 'csp']) {
    assert.ok((await snippetText(page, id)).includes(stack.origin), `the ${id} snippet names ${stack.origin}`);
    assert.equal(await note.isVisible(), true, `the note beside the ${id} snippet`);
    assert.match((await note.textContent()) ?? '', /CHATBOT_ALLOWED_ORIGINS=\S+ npm start/);
  }
  for (const id of ['react', 'express']) {
    assert.ok(!(await snippetText(page, id)).includes(stack.origin), `the ${id} snippet names no origin`);
    assert.equal(await note.isVisible(), false, `no note beside the ${id} snippet`);
  }
  assert.deepEqual(await problems(), []);
  await context.close();
});
