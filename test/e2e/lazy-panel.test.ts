// The built standalone widget loads in two steps: the file a page includes defines the element
// and draws the launcher; the panel's code (conversation, IndexedDB, Markdown) is a chunk
// beside it, fetched when the page is idle or on first open. A visitor faster than that chunk
// sees an accessible loading state; a chunk that cannot be fetched says so and can be retried.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from '../../scripts/find-browser.mjs';
import { bundlePath } from '../../demo/static-site.js';
import { startWidgetSite, type WidgetSite } from '../helpers/widget-site.js';

let site: WidgetSite;
let browser: Browser;

before(async () => {
  const executablePath = await findBrowser();
  if (!executablePath) throw new Error(INSTALL_HINT);
  site = await startWidgetSite({ replySource: { name: 'lazy-tests', reply: async ({ content }) => `Echo: ${content}` } });
  browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
});

after(async () => {
  await browser?.close();
  await site?.close();
});

const part = (name: string) => `chatbot-widget [part~="${name}"]`;
const PANEL_CHUNK = /\/chatbot-widget-chat-panel-[\w-]+\.js$/;
const isPanelChunk = (url: string) => PANEL_CHUNK.test(url);

test('the first file holds no panel code: IndexedDB, Markdown and the outbox come with the chunk', () => {
  const first = readFileSync(bundlePath, 'utf8');
  assert.doesNotMatch(first, /indexedDB/, 'no IndexedDB code in the first load');
  assert.doesNotMatch(first, /Idempotency-Key/, 'no outbox code in the first load');
  // (A token type of the Markdown lexer: `blockquote`, an element's name, is also in the first
  // load's list of the elements a snapshot may rebuild.)
  assert.doesNotMatch(first, /paragraph/, 'no Markdown code in the first load');
  assert.match(first, /chatbot-widget-chat-panel-[\w-]+\.js/, 'it names the panel chunk, to import it from beside itself');
});

test('a closed widget fetches the panel chunk when the page is idle, without being opened', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const chunks: string[] = [];
  page.on('request', (request) => {
    if (isPanelChunk(request.url())) chunks.push(request.url());
  });
  await page.goto(site.origin + '/');
  await page.locator(part('launcher')).waitFor();
  await page.waitForFunction(
    () => performance.getEntriesByType('resource').some((e) => /chatbot-widget-chat-panel-/.test(e.name)),
    undefined,
    {
      timeout: 10_000,
    },
  );
  assert.equal(chunks.length, 1, 'fetched once, with the panel never opened');
  assert.equal(await page.locator(part('panel')).isHidden(), true);
  await context.close();
});

/** Holds back the files matching `pattern` until the function it answers is called. */
async function holdBack(page: Page, pattern: RegExp) {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

test('opened before the chunk arrives: a loading status, then the panel with focus in the field', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const release = await holdBack(page, PANEL_CHUNK);
  await page.goto(site.origin + '/');
  await page.locator(part('launcher')).click();
  const status = page.locator(`${part('panel')} [role="status"]`);
  assert.equal(await status.textContent(), 'Loading the chat…');
  assert.equal(await page.locator(part('input')).count(), 0);
  release();
  await page.locator(part('input')).waitFor();
  // The field takes focus once the panel's first frame is painted, which may be a frame after
  // the field is there: waited for, and named when it does not come.
  await page
    .waitForFunction(
      () => document.querySelector('chatbot-widget')!.shadowRoot!.activeElement?.getAttribute('part') === 'input',
      undefined,
      {
        timeout: 5_000,
      },
    )
    .catch(async () => {
      const focused = await page.evaluate(() => document.querySelector('chatbot-widget')!.shadowRoot!.activeElement?.getAttribute('part'));
      assert.fail(`focus is on ${String(focused)}, not in the message field`);
    });
  await page.locator(part('input')).fill('after the wait');
  await page.locator(part('input')).press('Enter');
  await page.locator(part('message-bot')).waitFor({ timeout: 15_000 });
  assert.equal(
    await page
      .locator(part('message-bot'))
      .textContent()
      .then((t) => t?.includes('Echo: after the wait')),
    true,
  );
  await context.close();
});

test('the loading status is seen only after a tenth of a second (a panel from the HTTP cache does not flicker), with reduced motion too', async () => {
  for (const reducedMotion of ['no-preference', 'reduce'] as const) {
    const context = await browser.newContext({ reducedMotion });
    const page = await context.newPage();
    await holdBack(page, PANEL_CHUNK);
    await page.goto(site.origin + '/');
    // Read in the task that drew the line, before any frame: there for screen readers, transparent.
    const opacityAtFirst = await page.evaluate(async () => {
      const root = document.querySelector('chatbot-widget')!.shadowRoot!;
      root.querySelector<HTMLElement>('[part="launcher"]')!.click();
      let status = null;
      for (let i = 0; i < 100 && !status; i++) {
        await Promise.resolve();
        status = root.querySelector('[part="panel"] [role="status"]');
      }
      return status && getComputedStyle(status).opacity;
    });
    assert.equal(opacityAtFirst, '0', reducedMotion);
    const status = page.locator(`${part('panel')} [role="status"]`);
    await page.waitForTimeout(150);
    assert.equal(await status.evaluate((el) => getComputedStyle(el).opacity), '1', reducedMotion);
    await context.close();
  }
});

const LANGUAGE_CHUNK = /\/chatbot-widget-(en|de)-[\w-]+\.js$/;

/** The site's page in another language (its `<html lang>` changed on the way); the language files fetched, in order. */
async function pageIn(page: Page, lang: string) {
  const fetched: string[] = [];
  page.on('request', (request) => {
    const language = LANGUAGE_CHUNK.exec(request.url())?.[1];
    if (language) fetched.push(language);
  });
  await page.route(site.origin + '/', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: (await response.text()).replace('<html lang="en">', `<html lang="${lang}">`) });
  });
  return fetched;
}

/** Opens the chat with the files matching `pattern` unreachable; answers the panel's alert, which says so. */
async function openWithout(page: Page, pattern: RegExp) {
  await page.route(pattern, (route) => route.abort('internetdisconnected'));
  await page.goto(site.origin + '/');
  await page.locator(part('launcher')).click();
  const alert = page.locator(`${part('panel')} [role="alert"]`);
  await alert.waitFor();
  assert.match((await alert.textContent()) ?? '', /can't be reached/);
  return alert;
}

const placeholder = (page: Page) => page.locator(part('input')).getAttribute('placeholder');

test('the panel comes with the page’s language only: German on a page in German, never English; English on a page in English', async () => {
  for (const [lang, words] of [
    ['de', 'Nachricht eingeben…'],
    ['en', 'Type a message…'],
  ] as const) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const fetched = await pageIn(page, lang);
    await page.goto(site.origin + '/');
    await page.locator(part('launcher')).click();
    await page.locator(part('input')).waitFor();
    assert.equal(await placeholder(page), words);
    assert.deepEqual(fetched, [lang], `a page in ${lang} fetches that language's texts, and no other`);
    await context.close();
  }
});

test('a language file that cannot be fetched leaves the panel in English; with English unreachable too, it says so, and Retry fetches it', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await pageIn(page, 'de');
  await page.route(/\/chatbot-widget-de-[\w-]+\.js$/, (route) => route.abort('internetdisconnected'));
  await page.goto(site.origin + '/');
  await page.locator(part('launcher')).click();
  await page.locator(part('input')).waitFor();
  assert.equal(await placeholder(page), 'Type a message…', 'English, complete, in place of German');

  const offline = await context.newPage();
  await pageIn(offline, 'de');
  const alert = await openWithout(offline, LANGUAGE_CHUNK);
  assert.equal(await offline.locator(part('input')).count(), 0, 'no panel without its texts');
  await offline.unroute(LANGUAGE_CHUNK);
  await alert.locator('button').click();
  await offline.locator(part('input')).waitFor({ timeout: 10_000 });
  assert.equal(await placeholder(offline), 'Nachricht eingeben…');
  await context.close();
});

test('a language asked for while another is on its way wins: lang set to English before German arrives shows English', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const fetched = await pageIn(page, 'de');
  const release = await holdBack(page, /\/chatbot-widget-de-[\w-]+\.js$/);
  await page.goto(site.origin + '/');
  await page.locator(part('launcher')).click();
  await page.locator(`${part('panel')} [role="status"]`).waitFor();
  await page.evaluate(() => document.querySelector('chatbot-widget')!.setAttribute('lang', 'en'));
  release();
  await page.locator(part('input')).waitFor();
  assert.equal(await placeholder(page), 'Type a message…');
  assert.equal(await page.locator(part('panel')).getAttribute('lang'), 'en');
  assert.deepEqual(fetched, ['de', 'en']);
  await context.close();
});

const LANGUAGE_TABLE = /\/chatbot-widget-locales-[\w-]+\.js$/;

test('a page in German fetches the language table and German at once, without waiting for the page to be idle', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const fetched = await pageIn(page, 'de');
  // A busy page: idle only when the widget's 4 s wait for it runs out.
  await page.addInitScript(() => {
    window.requestIdleCallback = (work, options) => setTimeout(work, options?.timeout ?? 0) as unknown as number;
  });
  const asked: string[] = [];
  page.on('request', (request) => {
    if (LANGUAGE_TABLE.test(request.url())) asked.push('languages');
    else if (isPanelChunk(request.url())) asked.push('panel');
  });
  await page.goto(site.origin + '/');
  await page.waitForFunction(
    () =>
      document.querySelector('chatbot-widget')!.shadowRoot!.querySelector('[part="launcher"]')!.getAttribute('aria-label') ===
      'Chat öffnen',
  );
  assert.deepEqual(asked, ['languages'], 'the launcher speaks German before the panel’s code is asked for');
  assert.deepEqual(fetched, ['de'], 'German, and no English');
  await context.close();
});

test('a page in English never loads the language table: the launcher speaks the first load’s English, the panel English’s own chunk', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const fetched = await pageIn(page, 'en_gb'); // as servers often spell en-GB
  const asked: string[] = [];
  page.on('request', (request) => {
    if (LANGUAGE_TABLE.test(request.url())) asked.push('languages');
    else if (isPanelChunk(request.url())) asked.push('panel');
  });
  await page.goto(site.origin + '/');
  assert.equal(await page.locator(part('launcher')).getAttribute('aria-label'), 'Open chat');
  await page.locator(part('launcher')).click();
  await page.locator(part('input')).waitFor();
  assert.equal(await placeholder(page), 'Type a message…');
  assert.deepEqual(asked, ['panel'], 'no language table');
  assert.deepEqual(fetched, ['en']);
  const formatTag = await page.evaluate(() => (document.querySelector('chatbot-widget') as unknown as { formatTag: string }).formatTag);
  assert.equal(formatTag, 'en-GB', 'dates and numbers in the page’s English, its tag in canonical form');
  await context.close();
});

test('a language table that cannot be fetched is said in the panel’s place, and Retry fetches it', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await pageIn(page, 'de');
  const alert = await openWithout(page, LANGUAGE_TABLE);
  await page.unroute(LANGUAGE_TABLE);
  await alert.locator('button').click();
  await page.locator(part('input')).waitFor({ timeout: 10_000 });
  assert.equal(await placeholder(page), 'Nachricht eingeben…');
  await context.close();
});

test('a widget removed while its panel loads leaves no listener on the page, and works when attached again', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await pageIn(page, 'de');
  const release = await holdBack(page, /\/chatbot-widget-de-[\w-]+\.js$/);
  await page.goto(site.origin + '/');
  await page.locator(part('launcher')).waitFor();
  const cdp = await context.newCDPSession(page);
  /** The document's listeners of an event, as DevTools lists them. */
  const listeners = async (type: string) => {
    const { result } = await cdp.send('Runtime.evaluate', { expression: 'document' });
    const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId! });
    return listeners.filter((listener) => listener.type === type).length;
  };
  const before = await listeners('visibilitychange');
  await page.locator(part('launcher')).click(); // the panel's code comes; it waits for German
  await page.evaluate(() => {
    const widget = document.querySelector('chatbot-widget')!;
    (globalThis as unknown as { removed: Element }).removed = widget;
    widget.remove();
  });
  release();
  await page.evaluate(() => (globalThis as unknown as { removed: { updateComplete: Promise<unknown> } }).removed.updateComplete);
  assert.equal(await listeners('visibilitychange'), before, 'the panel built for the removed widget listens to nothing');
  await page.evaluate(() => document.body.append((globalThis as unknown as { removed: Element }).removed));
  await page.locator(part('input')).waitFor();
  const reattached = await listeners('visibilitychange');
  // As many as a widget that was never removed: the same page loaded again and opened.
  await page.reload();
  await page.locator(part('launcher')).click();
  await page.locator(part('input')).waitFor();
  const neverRemoved = await listeners('visibilitychange');
  assert.ok(neverRemoved > before, 'an open panel listens for the tab being hidden and shown');
  assert.equal(reattached, neverRemoved, 'attached again, it listens as a widget never removed does');
  await context.close();
});

test('a panel chunk that cannot be fetched is said in words, and Retry loads it', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const alert = await openWithout(page, PANEL_CHUNK);
  await page.unroute(PANEL_CHUNK);
  await alert.locator('button').click();
  await page.locator(part('input')).waitFor({ timeout: 10_000 });
  await context.close();
});

test('search code that cannot be fetched is said in the search status, and the next try fetches it', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const SEARCH_CHUNK = /\/chatbot-widget-search-index-[\w-]+\.js$/;
  const asked: string[] = [];
  await page.route(SEARCH_CHUNK, (route) => {
    asked.push(route.request().url());
    return route.abort('internetdisconnected');
  });
  await page.goto(site.origin + '/');
  await page.locator(part('launcher')).click();
  await page.locator(part('input')).fill('findable words');
  await page.locator(part('input')).press('Enter');
  await page.locator(part('message-bot')).waitFor({ timeout: 15_000 });
  assert.deepEqual(asked, [], 'the search code is not part of the panel: not fetched before the history pane opens');
  await page.locator(part('history-button')).click();
  await page.locator(part('search-input')).fill('findable');
  const status = page.locator(`${part('history')} [role="search"] [role="status"]`);
  await page.waitForFunction(() =>
    /can't be reached/.test(
      document.querySelector('chatbot-widget')!.shadowRoot!.querySelector('[role="search"] [role="status"]')!.textContent!,
    ),
  );
  await page.unroute(SEARCH_CHUNK);
  await page.locator(part('search-input')).fill('findable words');
  await page.locator(part('search-result')).first().waitFor({ timeout: 10_000 });
  assert.match((await status.textContent()) ?? '', /result/);
  await context.close();
});

// `<chatbot-usage>` is the site owner's element: the entry fetches its class as a chunk of its own.
const USAGE_CHUNK = /\/chatbot-widget-register-usage-[\w-]+\.js$/;

test('<chatbot-usage> is not in the first file, and is defined once its chunk arrives: an element on the page upgrades', async () => {
  assert.doesNotMatch(readFileSync(bundlePath, 'utf8'), /admin-token/, "no <chatbot-usage> code in a visitor's first load");
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(site.origin + '/');
  const upgraded = await page.evaluate(async () => {
    const element = document.body.appendChild(document.createElement('chatbot-usage'));
    const usage = await customElements.whenDefined('chatbot-usage');
    return element instanceof usage && 'adminToken' in element;
  });
  assert.equal(upgraded, true);
  await context.close();
});

test('a <chatbot-usage> chunk that cannot be fetched leaves the widget working, and says why in the console', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.route(USAGE_CHUNK, (route) => route.abort('internetdisconnected'));
  await page.goto(site.origin + '/');
  await page.locator(part('launcher')).click();
  await page.locator(part('input')).waitFor({ timeout: 10_000 });
  assert.equal(await page.evaluate(() => customElements.get('chatbot-usage')), undefined);
  assert.ok(
    errors.some((text) => text.includes('<chatbot-usage> could not be defined: its code did not load.')),
    errors.join('\n'),
  );
  await context.close();
});
