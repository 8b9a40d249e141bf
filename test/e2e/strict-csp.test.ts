// The built standalone widget (dist/chatbot-widget.js) on a page served with the strict Content
// Security Policy and Trusted Types header of docs/embedding.md, as a real HTTP response header, in
// Chromium: it opens, sends, receives and renders Markdown, and the browser reports no violation.
// Control checks prove the watch works: a style attribute and an innerHTML string ARE refused on
// that page, while a style set through the CSSOM from script is not.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from '../../scripts/find-browser.mjs';
import type { ReplySource } from '../../src/emulator/index.js';
import { startWidgetSite, type WidgetSite } from '../helpers/widget-site.js';

const markdownReplies: ReplySource = {
  name: 'csp-tests',
  async reply() {
    return 'Here is **bold**, `code` and a [link](https://example.com/docs).\n\n- one\n- two\n\n```\nconst x = 1;\n```';
  },
};

/** The header docs/embedding.md tells site owners to send, for a handler on the page's own origin. */
const policy = (handlerOrigin: string) =>
  `default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self' ${handlerOrigin}; require-trusted-types-for 'script'; trusted-types lit-html chatbot-widget`;

let site: WidgetSite;
let origin: string;
let browser: Browser;

before(async () => {
  const executablePath = await findBrowser();
  if (!executablePath) throw new Error(INSTALL_HINT);
  site = await startWidgetSite({ replySource: markdownReplies, pageHeaders: (own) => ({ 'Content-Security-Policy': policy(own) }) });
  origin = site.origin;
  browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
});

after(async () => {
  await browser?.close();
  await site?.close();
});

interface Violation {
  directive: string;
  blocked: string;
  sample: string;
}

/** A page that records every `securitypolicyviolation` from its first moment (an init script is not subject to the page's CSP). */
async function watchedPage(): Promise<{ page: Page; violations: () => Promise<Violation[]>; consoleErrors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(() => {
    const seen: Violation[] = [];
    (globalThis as unknown as { __violations: Violation[] }).__violations = seen;
    document.addEventListener(
      'securitypolicyviolation',
      (e) => seen.push({ directive: e.effectiveDirective, blocked: e.blockedURI, sample: e.sample }),
      true,
    );
  });
  const consoleErrors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => consoleErrors.push(String(error)));
  const violations = () => page.evaluate(() => (globalThis as unknown as { __violations: Violation[] }).__violations);
  return { page, violations, consoleErrors };
}

const part = (name: string) => `chatbot-widget [part~="${name}"]`;

/** Opens the panel, sends a message asking for Markdown and waits for the reply bubble. */
async function askForMarkdown(page: Page) {
  await page.locator(part('launcher')).click();
  await page.locator(part('input')).fill('Show me some Markdown');
  await page.locator(part('input')).press('Enter');
  const reply = page.locator(part('message-bot')).last();
  await reply.waitFor({ timeout: 15_000 });
  return reply;
}

/** Nothing refused: no violation event, no CSP or Trusted Types error on the console. */
async function expectNoViolation(violations: () => Promise<Violation[]>, consoleErrors: string[]) {
  assert.deepEqual(await violations(), [], 'no securitypolicyviolation event');
  assert.deepEqual(
    consoleErrors.filter((text) => /Content Security Policy|Trusted Type/i.test(text)),
    [],
    'no CSP or Trusted Types error in the console',
  );
}

test('the page is served with the documented header', async () => {
  const response = await fetch(origin + '/');
  assert.equal(response.headers.get('content-security-policy'), policy(origin));
});

test('the built widget opens, sends, receives and renders Markdown without a single violation', async () => {
  const { page, violations, consoleErrors } = await watchedPage();
  await page.goto(origin + '/');
  const reply = await askForMarkdown(page);
  // The Markdown became elements (Lit templates created through the lit-html policy).
  assert.equal(await reply.locator('strong').textContent(), 'bold');
  assert.equal(await reply.locator('li').count(), 2);
  assert.match((await reply.locator('pre').textContent()) ?? '', /const x = 1;/);
  assert.equal(await reply.locator('a').first().getAttribute('href'), 'https://example.com/docs');
  // The history pane (the part that once carried a style attribute) opens too.
  await page.locator(part('history-button')).click();
  await page.locator(part('session')).first().waitFor({ timeout: 10_000 });
  // Search (its own chunk, fetched on first use) finds the message, with the match marked.
  await page.locator(part('search-input')).fill('Markdown');
  await page.locator(part('search-result')).first().waitFor({ timeout: 10_000 });
  assert.equal(await page.locator(part('search-result')).first().locator('mark').first().textContent(), 'Markdown');
  // The transcript is saved through a Blob URL and <a download>.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(part('download-button')).click()]);
  assert.match(download.suggestedFilename(), /^chat-\d{4}-\d{2}-\d{2}\.md$/);
  const saved = await download.createReadStream().then(async (stream) => {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  });
  assert.match(saved, /Show me some Markdown/);

  await expectNoViolation(violations, consoleErrors);
  await page.context().close();
});

test('copying (through the fallback, the Clipboard API taken away) and rating work without a violation', async () => {
  const { page, violations, consoleErrors } = await watchedPage();
  // No Clipboard API: the copy goes through the hidden field inside the shadow root.
  await page.addInitScript(() => Object.defineProperty(navigator, 'clipboard', { configurable: true, value: undefined }));
  await page.goto(origin + '/');
  const reply = await askForMarkdown(page);
  await reply.locator('[part~="code-copy-button"]').click();
  await page.locator('chatbot-widget [data-announcer]').filter({ hasText: 'Copied' }).waitFor({ timeout: 5_000 });
  await reply.locator('[part~="feedback-up"]').click();
  await page.locator('chatbot-widget [part~="feedback-up"][aria-pressed="true"]').waitFor({ timeout: 5_000 });

  await expectNoViolation(violations, consoleErrors);
  await page.context().close();
});

test('a reload paints the conversation from the snapshot the page left, without a violation', async () => {
  const { page, violations, consoleErrors } = await watchedPage();
  // What the widget's first render draws, noted from the page's start (before the bundle runs).
  await page.addInitScript(() => {
    const seen = { snapshot: false, bubbles: 0 };
    (globalThis as unknown as { __firstDraw: typeof seen }).__firstDraw = seen;
    // Watched from the moment the element makes its shadow root, before its first render.
    const attachShadow = Element.prototype.attachShadow;
    Element.prototype.attachShadow = function (this: Element, init: ShadowRootInit) {
      const root = attachShadow.call(this, init);
      if (this.localName === 'chatbot-widget') {
        new MutationObserver((_, observer) => {
          const bubbles = root.querySelectorAll('[part~="message"]').length;
          if (!bubbles) return;
          observer.disconnect();
          Object.assign(seen, { snapshot: Boolean(root.querySelector('.snapshot[inert] [part~="message"]')), bubbles });
        }).observe(root, { childList: true, subtree: true });
      }
      return root;
    };
  });
  await page.goto(origin + '/open');
  await page.locator(part('input')).fill('Show me some Markdown');
  await page.locator(part('input')).press('Enter');
  await page.locator(part('message-bot')).last().waitFor({ timeout: 15_000 });
  // The reply stored (the first-paint record holds it), then the page is loaded again.
  await page.waitForFunction(() =>
    Object.keys(localStorage).some((key) => key.startsWith('chatbot-widget|paint|') && localStorage.getItem(key)!.includes('bold')),
  );
  await page.reload();
  await page.locator(part('input')).waitFor({ timeout: 10_000 });
  const first = await page.evaluate(() => (globalThis as unknown as { __firstDraw: { snapshot: boolean; bubbles: number } }).__firstDraw);
  assert.deepEqual(first, { snapshot: true, bubbles: 2 }, 'the first bubbles drawn were the snapshot: the question and its reply');
  // Then the panel itself, with the reply's Markdown as elements.
  assert.equal(await page.locator('chatbot-widget .snapshot').count(), 0, 'the snapshot gave way to the panel');
  assert.equal(await page.locator(part('message-bot')).last().locator('strong').textContent(), 'bold');

  await expectNoViolation(violations, consoleErrors);
  await page.context().close();
});

test('controls: the same page refuses a style attribute and an HTML string, and allows CSSOM styles from script', async () => {
  const { page, violations } = await watchedPage();
  await page.goto(origin + '/');
  await page.locator(part('launcher')).waitFor();
  const outcome = await page.evaluate(() => {
    const div = document.createElement('div');
    document.body.append(div);
    // CSSOM from script: allowed by style-src 'self' (only style attributes in markup are refused).
    div.style.blockSize = '7px';
    const cssom = getComputedStyle(div).blockSize;
    // A style attribute: refused (its declarations are not applied).
    const other = document.createElement('div');
    other.setAttribute('style', 'block-size: 9px');
    document.body.append(other);
    const attribute = getComputedStyle(other).blockSize;
    // A string into an HTML sink: refused by Trusted Types.
    let sink = 'accepted';
    try {
      div.innerHTML = '<b>x</b>';
    } catch (error) {
      sink = (error as Error).name;
    }
    return { cssom, attribute, sink };
  });
  assert.equal(outcome.cssom, '7px', 'element.style set from script applies');
  assert.notEqual(outcome.attribute, '9px', 'a style attribute does not apply');
  assert.equal(outcome.sink, 'TypeError', 'Trusted Types refuses a plain string');
  const seen = await violations();
  assert.ok(
    seen.some((v) => v.directive === 'style-src-attr' || v.directive === 'style-src'),
    'the style attribute was reported',
  );
  assert.ok(
    seen.some((v) => v.directive === 'require-trusted-types-for'),
    'the HTML string was reported',
  );
  assert.ok(!seen.some((v) => v.sample.includes('7px')), 'the CSSOM style was not reported');
  await page.context().close();
});
