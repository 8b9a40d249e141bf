// Takes the README's screenshots of the widget on the demo site of a running `npm start`, in
// headless Chromium: docs/images/widget.png (floating), widget-inline-dark.png,
// widget-history-search.png, widget-rtl.png (Arabic) and widget-mobile.png. Each view asks its
// own questions, so start from a fresh data folder for tidy pictures:
//   CHATBOT_DATA_DIR=.data-shot npm start
//   node scripts/screenshot-widget.mjs [http://localhost:8080]
import { chromium } from 'playwright-core';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from './find-browser.mjs';

const base = process.argv[2] ?? 'http://localhost:8080';
const executablePath = await findBrowser();
if (!executablePath) throw new Error(INSTALL_HINT);
const browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });

const part = (page, name) => page.locator(`chatbot-widget [part~="${name}"]`);

/** Sends `text` as a visitor would and waits for the whole reply. */
async function ask(page, text) {
  const replies = await part(page, 'message-bot').count();
  await part(page, 'input').fill(text);
  await part(page, 'input').press('Enter');
  await page.waitForFunction(
    (count) => {
      const root = document.querySelector('chatbot-widget').shadowRoot;
      return (
        root.querySelectorAll('[part~="message-bot"]').length > count && !root.querySelector('[part~="message-pending"], [part="typing"]')
      );
    },
    replies,
    { timeout: 30_000 },
  );
}

/** A page of the demo in a browser context of its own (its own visitor). */
async function open(path, contextOptions = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...contextOptions });
  const page = await context.newPage();
  await page.goto(base + path);
  await part(page, 'launcher').or(part(page, 'panel')).first().waitFor();
  return page;
}

async function shoot(page, file) {
  await page.mouse.move(0, 0);
  // The panel fades in when it opens: the picture is of the end of that.
  await page.evaluate(() =>
    Promise.all(
      document
        .querySelector('chatbot-widget')
        .shadowRoot.getAnimations()
        .map((a) => a.finished),
    ),
  );
  await page.evaluate(() => document.querySelector('chatbot-widget').shadowRoot.activeElement?.blur());
  await page.screenshot({ path: `docs/images/${file}` });
  console.log(`wrote docs/images/${file}`);
}

// Floating, on the guide page, then the history pane searching both conversations.
const guide = await open('/');
await part(guide, 'launcher').click();
await ask(guide, 'How do I embed the widget?');
await shoot(guide, 'widget.png');
await part(guide, 'history-button').click();
await part(guide, 'search-input').fill('widget');
await part(guide, 'search-result').first().waitFor();
await shoot(guide, 'widget-history-search.png');

// Inline and dark, in the support console.
const inline = await open('/inline.html');
await ask(inline, 'Where does the API secret live?');
await shoot(inline, 'widget-inline-dark.png');

// Right to left: the same guide page with the widget in Arabic, as a site in Arabic would set it
// up (its own title, greeting and suggestions; the emulator's replies are in English, so the
// conversation is shown before its first message).
const rtl = await open('/');
await rtl.evaluate(() => {
  const widget = document.querySelector('chatbot-widget');
  widget.setAttribute('lang', 'ar');
  widget.setAttribute('heading', 'اسألنا');
  widget.setAttribute('greeting', 'مرحبًا! كيف يمكنني مساعدتك اليوم؟');
  widget.setAttribute('suggestions', JSON.stringify(['كيف أضع الأداة على موقعي؟', 'أين يُحفظ المفتاح السري؟', 'هل تعمل دون اتصال؟']));
  widget.removeAttribute('placeholder');
});
await part(rtl, 'launcher').click();
await part(rtl, 'suggestion').first().waitFor();
await shoot(rtl, 'widget-rtl.png');

// A phone: the panel takes the whole screen.
const phone = await open('/', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
await part(phone, 'launcher').click();
await ask(phone, 'Does it work offline?');
await shoot(phone, 'widget-mobile.png');

await browser.close();
