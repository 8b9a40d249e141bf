// End to end: the admin page of `npm start` (demo/admin.html) on <chatbot-usage>, in the machine's
// Chromium, under the demo's Content-Security-Policy: the token from the link's fragment (read on
// every change, then removed from the address bar), a bad token said once, paging, and layout
// from a 360 px phone to a 1280 px screen.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from '../../scripts/find-browser.mjs';
import { startStack, type RunningStack } from '../helpers/start-stack.js';

let stack: RunningStack;
let browser: Browser;

const usagePart = (name: string) => `chatbot-usage [part~="${name}"]`;

before(async () => {
  const executablePath = await findBrowser();
  if (!executablePath) throw new Error(INSTALL_HINT);
  stack = await startStack({ CHATBOT_ADMIN_TOKEN: 'e2e-admin-token-0123456789' });
  browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
  // One visitor with one conversation, through the handler's visitor routes, as the widget makes it.
  const visitor = await (
    await fetch(`${stack.origin}/chatbot/visitor`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin' },
    })
  ).json();
  const sent = await fetch(`${stack.origin}/chatbot/message`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${visitor.data.token}`, 'Sec-Fetch-Site': 'same-origin' },
    body: JSON.stringify({ content: 'How do I embed the widget?', name: 'Ada' }),
  });
  assert.equal(sent.status, 200, await sent.text());
});

after(async () => {
  await browser?.close();
  await stack?.stop();
});

/** A page that records console errors (a CSP refusal shows up there) and page errors. */
async function adminPage(width: number, height = 900): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width, height } });
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return { page, problems };
}

test('the token is taken from the link, removed from the address bar, and the figures shown under the CSP', async () => {
  const { page, problems } = await adminPage(1280);
  await page.goto(`${stack.origin}/admin.html#token=${stack.adminToken}`);
  await page.locator(usagePart('bar')).first().waitFor();
  assert.equal(stack.adminToken, 'e2e-admin-token-0123456789');
  assert.equal(page.url(), `${stack.origin}/admin.html`, 'no token left in the address bar');
  assert.equal(await page.locator(usagePart('bar')).count(), 12, 'the last twelve months');
  assert.equal(await page.locator('#admin-status').textContent(), '', 'no page message');
  const messages = await page.locator(`${usagePart('total')}[data-total="messages"] dd`).textContent();
  assert.equal(messages, '2', 'the question and its answer');
  // The view's chunk came from beside the bundle.
  const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname));
  assert.ok(
    scripts.some((path) => /^\/chatbot-widget-usage-view-[\w-]+\.js$/.test(path)),
    scripts.join(', '),
  );
  assert.deepEqual(problems, []);
  await page.close();
  // The bundle every page loads holds neither the element nor its view: it imports the element's
  // chunk (its shell, `chatbot-widget-register-usage-….js`), which imports the view's.
  const bundle = await (await fetch(`${stack.origin}/chatbot-widget.js`)).text();
  const element = /import\(["'`]\.\/(chatbot-widget-register-usage-[\w-]+\.js)["'`]\)/.exec(bundle)?.[1];
  assert.ok(element, "the bundle imports <chatbot-usage>'s chunk");
  assert.doesNotMatch(bundle, /Busiest users|admin-token/);
  const shell = await (await fetch(`${stack.origin}/${element}`)).text();
  assert.match(shell, /import\(["'`]\.\/chatbot-widget-usage-view-[\w-]+\.js["'`]\)/);
  assert.doesNotMatch(shell, /Busiest users/);
  // The chunk's name changes with its content, so browsers may keep it; the bundle's name does not.
  const chunk = /chatbot-widget-usage-view-[\w-]+\.js/.exec(shell)![0];
  assert.equal((await fetch(`${stack.origin}/${chunk}`)).headers.get('cache-control'), 'public, max-age=31536000, immutable');
  assert.equal((await fetch(`${stack.origin}/chatbot-widget.js`)).headers.get('cache-control'), 'no-cache');
  // Chunks are looked up by name in dist/ only: nothing else is reachable through that pattern.
  for (const path of [
    '/chatbot-widget-missing.js',
    '/chatbot-widget-..%2F..%2Fpackage.json',
    '/chatbot-widget-x.js%2F..%2F..%2Fpackage.json',
  ]) {
    assert.equal((await fetch(stack.origin + path)).status, 404, path);
  }
});

test('works with nothing refused under the strictest policy the widget promises (no inline styles, Trusted Types)', async () => {
  const { page, problems } = await adminPage(1280);
  const strict = [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "connect-src 'self'",
    // The demo pages' empty favicon (`data:,`), not the element's doing.
    "img-src 'self' data:",
    "require-trusted-types-for 'script'",
    'trusted-types lit-html chatbot-widget',
  ].join('; ');
  const violations: string[] = [];
  await page.exposeFunction('reportViolation', (text: string) => violations.push(text));
  await page.route('**/admin.html', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': strict } });
  });
  await page.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      (window as unknown as { reportViolation(text: string): void }).reportViolation(`${event.violatedDirective} ${event.blockedURI}`),
    ),
  );
  await page.goto(`${stack.origin}/admin.html#token=${stack.adminToken}`);
  await page.locator(usagePart('bar')).first().waitFor();
  await page.locator(usagePart('user')).first().click();
  await page.locator(usagePart('session')).first().click();
  await page.locator(usagePart('message')).first().click();
  await page.locator(usagePart('message-detail')).waitFor();
  const download = page.waitForEvent('download');
  await page.locator(usagePart('export-button')).click();
  assert.match((await download).suggestedFilename(), /^chatbot-usage-\d{4}-\d{2}-01-to-\d{4}-\d{2}-01\.csv$/);
  await page.locator('text=Table').click();
  await page.locator(usagePart('table')).waitFor();
  assert.deepEqual(violations, []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a bad token is said once; a new link in the same tab replaces it and the message goes', async () => {
  const { page } = await adminPage(1280);
  await page.goto(`${stack.origin}/admin.html#token=stale-token`);
  const error = page.locator(usagePart('error'));
  await error.waitFor();
  assert.match((await error.textContent()) ?? '', /admin token is wrong or out of date/);
  assert.equal(await page.locator('#admin-status').textContent(), '', 'said once: by the element only');
  assert.equal(await page.getByText('admin token is wrong').count(), 1);
  assert.equal(page.url(), `${stack.origin}/admin.html`);

  // The right link pasted into the same tab: only the fragment changes (hashchange, no reload).
  await page.evaluate((token) => (location.hash = `token=${token}`), stack.adminToken);
  await page.locator(usagePart('bar')).first().waitFor();
  await error.waitFor({ state: 'hidden' });
  assert.equal(page.url(), `${stack.origin}/admin.html`);
  await page.close();
});

test('without a token the page says where to get one, and nothing is requested', async () => {
  const { page } = await adminPage(1280);
  const admin: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/chatbot/admin/')) admin.push(request.url());
  });
  await page.goto(`${stack.origin}/admin.html`);
  await page.locator('#admin-status').filter({ hasText: 'No admin token' }).waitFor();
  assert.equal(await page.locator('chatbot-usage').isVisible(), false);
  await page.waitForTimeout(300);
  assert.deepEqual(admin, []);
  await page.close();
});

test('paging buttons are disabled when there is nothing to page, and the drill-down reaches a message', async () => {
  const { page } = await adminPage(1280);
  await page.goto(`${stack.origin}/admin.html#token=${stack.adminToken}`);
  await page.locator(usagePart('user')).first().click();
  await page.locator(usagePart('session')).first().click();
  await page.locator(usagePart('message')).first().waitFor();
  for (const pager of await page.locator(usagePart('pager')).all()) {
    for (const button of await pager.locator('button').all()) assert.equal(await button.isDisabled(), true, 'one page: nothing to page');
  }
  await page.locator(usagePart('message')).last().click();
  await page.locator(usagePart('message-detail')).filter({ hasText: 'How do I embed the widget?' }).waitFor();
  await page.close();
});

for (const width of [360, 1280]) {
  test(`fits a ${width} px window: no sideways scrolling of the page, nothing clipped`, async () => {
    const { page } = await adminPage(width);
    await page.goto(`${stack.origin}/admin.html#token=${stack.adminToken}`);
    await page.locator(usagePart('user')).first().click();
    await page.locator(usagePart('session')).first().click();
    await page.locator(usagePart('message')).first().waitFor();
    const layout = await page.evaluate(() => {
      const usage = document.querySelector('chatbot-usage')!;
      const boxes = [...usage.shadowRoot!.querySelectorAll('[part]')].map((el) => el.getBoundingClientRect());
      return {
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        widest: Math.max(...boxes.map((box) => box.right)),
        viewport: window.innerWidth,
        chart: (() => {
          const scroller = usage.shadowRoot!.querySelector('.chart-scroll')!;
          return { scroll: scroller.scrollWidth, client: scroller.clientWidth };
        })(),
      };
    });
    assert.equal(layout.page, 0, 'the page does not scroll sideways');
    // Everything ends inside the window, but what scrolls sideways inside a box of its own (the
    // chart's bars, the feedback table): those boxes end inside the window instead.
    const outside = await page.evaluate(() =>
      [...document.querySelector('chatbot-usage')!.shadowRoot!.querySelectorAll('[part], .chart-scroll, .table-scroll')]
        .filter((el) => !el.parentElement?.closest('.chart-scroll, .table-scroll'))
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 0.5)
        .map((el) => el.getAttribute('part') ?? el.className),
    );
    assert.deepEqual(outside, []);
    if (width >= 1280) assert.ok(layout.chart.scroll <= layout.chart.client, 'twelve months fit without scrolling at 1280 px');
    await page.close();
  });
}
