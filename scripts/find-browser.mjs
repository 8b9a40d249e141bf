// Finds a Chromium to test with, without downloading one: CHROME_PATH, then Playwright's own
// browsers (if someone installed them), then the usual system paths.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const SYSTEM_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** The browser's path, or undefined when there is none. */
export async function findBrowser() {
  if (process.env.CHROME_PATH) {
    if (existsSync(process.env.CHROME_PATH)) return process.env.CHROME_PATH;
    throw new Error(`CHROME_PATH is set to ${process.env.CHROME_PATH}, but no file is there.`);
  }
  try {
    const { chromium } = await import('playwright-core');
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // playwright-core not installed or has no browser of its own: fall through.
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  for (const name of SYSTEM_BROWSERS) {
    const found = onPath(name);
    if (found) return found;
  }
  return undefined;
}

export const INSTALL_HINT =
  'No Chromium found: install one (Debian/Ubuntu: `apt-get install -y chromium`) or set CHROME_PATH to a Chrome or Chromium binary.';

/** Flags that keep a headless Chromium quiet on a machine without network or GPU. */
export const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = await findBrowser();
  if (!path) {
    console.error(INSTALL_HINT);
    process.exit(1);
  }
  console.log(path);
}
