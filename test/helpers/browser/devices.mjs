/**
 * `executeServerCommand('device', { action, … })` from a browser test: another device of the
 * visitor, as a browser context of its own in the same Chromium (its own cookies, IndexedDB and
 * localStorage, nothing shared with the test's page), showing a `<chatbot-widget>` (inline) on a
 * page of the test server (device.html). Actions:
 * - `open` `{ endpoint, cookies: [{ name, value, path }] }` → `{ id }`: the page, its cookies set
 *   for the test server's host, the widget mounted on `endpoint`;
 * - `send` `{ id, text }`: sends as the visitor would, resolves with the reply's text;
 * - `bubbles` `{ id }`: the texts of its message bubbles, as shown;
 * - `close` `{ id }`: the context goes, with everything it stored.
 */
export function devicesPlugin() {
  const devices = new Map();
  let opened = 0;
  return {
    name: 'devices',
    async executeCommand({ command, payload, session }) {
      if (command !== 'device') return undefined;
      if (session.browser.type !== 'playwright') throw new Error('device needs Playwright');
      if (payload.action === 'open') {
        const testPage = session.browser.getPage(session.id);
        const origin = new URL(testPage.url()).origin;
        const context = await testPage.context().browser().newContext();
        const domain = new URL(origin).hostname;
        await context.addCookies((payload.cookies ?? []).map((cookie) => ({ ...cookie, domain })));
        const page = await context.newPage();
        await page.goto(`${origin}/test/helpers/browser/device.html`);
        await page.waitForFunction(() => 'device' in window);
        await page.evaluate((endpoint) => window.device.mount(endpoint), payload.endpoint);
        const id = `device-${++opened}`;
        devices.set(id, { context, page });
        return { id };
      }
      const device = devices.get(payload.id);
      if (!device) throw new Error(`no device ${payload.id}`);
      if (payload.action === 'send') return device.page.evaluate((text) => window.device.send(text), payload.text);
      if (payload.action === 'bubbles') return device.page.evaluate(() => window.device.bubbles());
      if (payload.action === 'close') {
        devices.delete(payload.id);
        await device.context.close();
        return true;
      }
      throw new Error(`unknown device action ${payload.action}`);
    },
    async serverStop() {
      await Promise.all([...devices.values()].map(({ context }) => context.close()));
      devices.clear();
    },
  };
}
