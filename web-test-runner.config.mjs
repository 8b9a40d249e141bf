// Real-browser tests of the widget: Chromium through Playwright's launcher, pointed at a
// browser that is already on the machine (scripts/find-browser.mjs), never a download.
// Behind the widget run the real signing handler and the real emulator (test/widget/support/
// backend.ts), mounted on the test runner's own dev server so every call is same-origin.
import { register } from 'tsx/esm/api';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from './scripts/find-browser.mjs';
import { countReporter } from './scripts/wtr-counter.mjs';

const executablePath = await findBrowser();
if (!executablePath) throw new Error(INSTALL_HINT);

// The backend is TypeScript: tsx loads it (and the handler and emulator sources) in this process.
register();
const { startBackend } = await import('./test/widget/support/backend.ts');
let backend;

/** Starts the emulator and handler with the dev server, stops them with it. */
function backendPlugin() {
  return {
    name: 'chatbot-backend',
    async serverStart() {
      backend ??= await startBackend();
    },
    async serverStop() {
      await backend?.stop();
      backend = undefined;
    },
  };
}

/**
 * `offline-for` ({ ms }): the browser's own offline mode (Playwright's network emulation: fetch
 * fails, `navigator.onLine` is false, `offline` and later `online` fire), switched back on by the
 * server after `ms`, since the page cannot reach the runner while it is offline.
 */
function offlinePlugin() {
  return {
    name: 'offline-command',
    async executeCommand({ command, payload, session }) {
      if (command !== 'offline-for') return undefined;
      const context = session.browser.getPage(session.id).context();
      const ms = Math.min(10_000, Math.max(0, Number(payload?.ms) || 0));
      await context.setOffline(true);
      setTimeout(() => void context.setOffline(false).catch(() => {}), ms);
      return true;
    },
  };
}

export default {
  files: process.env.WTR_FILES ? JSON.parse(process.env.WTR_FILES) : ['test/widget/**/*.test.ts'],
  // Lit's production build: no dev-mode warnings in the logs, the same code the bundle ships.
  nodeResolve: { exportConditions: ['production'] },
  concurrency: 1,
  testsFinishTimeout: 180_000,
  middleware: [
    async (ctx, next) => {
      backend ??= await startBackend();
      return backend.middleware(ctx, next);
    },
  ],
  plugins: [backendPlugin(), offlinePlugin(), esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' })],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: { executablePath, headless: true, args: BROWSER_ARGS },
    }),
  ],
  reporters: [defaultReporter(), summaryReporter(), countReporter()],
  testFramework: { config: { timeout: 20_000 } },
};
