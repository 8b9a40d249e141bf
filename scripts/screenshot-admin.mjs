// Takes docs/images/admin-usage.png: the admin page of a running `npm start` in headless Chromium,
// with a user, a session and a message opened. Start the stack on data worth showing first:
//   npm run --silent emulator -- --db .data-shot/emulator.sqlite --demo-data 30000   (then Ctrl-C)
//   CHATBOT_DATA_DIR=.data-shot CHATBOT_ADMIN_TOKEN=<token> npm start
//   node scripts/screenshot-admin.mjs http://localhost:8080/admin.html#token=<token> [out.png] [width]
import { chromium } from 'playwright-core';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from './find-browser.mjs';

const [url, out = 'docs/images/admin-usage.png', width = '1280'] = process.argv.slice(2);
if (!url) {
  console.error('usage: node scripts/screenshot-admin.mjs <admin page URL with #token=…> [out.png] [width]');
  process.exit(2);
}
const executablePath = await findBrowser();
if (!executablePath) throw new Error(INSTALL_HINT);
const browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } });
await page.goto(url);
const part = (name) => page.locator(`chatbot-usage [part~="${name}"]`);
await part('bar').first().waitFor();
await part('user').first().click();
await part('session').first().click();
await part('message').nth(1).click();
await part('message-detail').waitFor();
await page.mouse.move(0, 0);
await page.screenshot({ path: out, fullPage: true });
await browser.close();
console.log(`wrote ${out}`);
