// Finds the Chromium builds the tests run in, without downloading one.
//
// Two builds, because they cost and draw differently:
// - `findBrowser()`: where no pixels are compared (almost every test). Chromium's headless shell
//   when the machine has it, the build Playwright itself runs headless: it starts and draws about
//   twice as fast as the full browser on a two-core machine (test/e2e/lazy-panel.test.ts alone:
//   26 s in the full browser, 13 s in the shell). Without one, the full browser.
// - `findFullBrowser()`: the full browser, which drew the approved screenshots
//   (test/screenshots/baseline); the shell renders text with other anti-aliasing, so its pictures
//   differ by thousands of pixels. Benchmarks run in it too, as visitors do.
//
// CHROME_PATH, when set, is used for both.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

const FULL_BROWSERS = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
const HEADLESS_SHELLS = ['chromium-headless-shell'];

function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    if (dir && existsSync(candidate)) return candidate;
  }
  return undefined;
}

function fromEnvironment() {
  if (!process.env.CHROME_PATH) return undefined;
  if (existsSync(process.env.CHROME_PATH)) return process.env.CHROME_PATH;
  throw new Error(`CHROME_PATH is set to ${process.env.CHROME_PATH}, but no file is there.`);
}

/** The full browser's path (CHROME_PATH, Playwright's browsers, system paths), or undefined. */
export async function findFullBrowser() {
  const chosen = fromEnvironment();
  if (chosen) return chosen;
  try {
    const { chromium } = await import('playwright-core');
    const own = chromium.executablePath();
    if (own && existsSync(own)) return own;
  } catch {
    // playwright-core not installed or has no browser of its own: fall through.
  }
  for (const name of FULL_BROWSERS) {
    const found = onPath(name);
    if (found) return found;
  }
  return undefined;
}

/** The browser for tests that compare no pixels: the headless shell, else the full browser. */
export async function findBrowser() {
  const chosen = fromEnvironment();
  if (chosen) return chosen;
  for (const name of HEADLESS_SHELLS) {
    const found = onPath(name);
    if (found) return found;
  }
  return findFullBrowser();
}

export const INSTALL_HINT =
  'No Chromium found: install one (Debian/Ubuntu: `apt-get install -y chromium chromium-headless-shell`) or set CHROME_PATH to a Chrome or Chromium binary.';

/** Said when the screenshot tests find only the headless shell. */
export const FULL_BROWSER_HINT =
  'The screenshot tests need the full Chromium, which drew their approved pictures (Debian/Ubuntu: `apt-get install -y chromium`), or CHROME_PATH set to one.';

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

// `node scripts/find-browser.mjs` prints both paths; it fails when either is missing (.ci/run
// then installs them).
if (import.meta.url === `file://${process.argv[1]}`) {
  const [shell, full] = [await findBrowser(), await findFullBrowser()];
  console.log(`tests: ${shell ?? 'none'}\nscreenshots: ${full ?? 'none'}`);
  const noShell = shell === full && !process.env.CHROME_PATH;
  if (!shell || !full || noShell) {
    console.error(noShell ? 'No headless shell: the tests run in the full browser, about twice as slow.' : INSTALL_HINT);
    process.exit(1);
  }
}
