// Real-browser tests of the widget: Chromium through Playwright's launcher, pointed at a
// browser that is already on the machine (scripts/find-browser.mjs), never a download.
import { playwrightLauncher } from '@web/test-runner-playwright';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from './scripts/find-browser.mjs';
import { countReporter } from './scripts/wtr-counter.mjs';

const executablePath = await findBrowser();
if (!executablePath) throw new Error(INSTALL_HINT);

export default {
  files: process.env.WTR_FILES ? JSON.parse(process.env.WTR_FILES) : ['test/widget/**/*.test.ts'],
  nodeResolve: true,
  concurrency: 1,
  testsFinishTimeout: 180_000,
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' })],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath, headless: true, args: BROWSER_ARGS },
    }),
  ],
  reporters: [defaultReporter(), summaryReporter(), countReporter()],
  testFramework: { config: { timeout: 20_000 } },
};
