// Real-browser tests of the widget: Chromium through Playwright's launcher, pointed at a
// browser that is already on the machine (scripts/find-browser.mjs), never a download.
// Behind the widget run the real signing handler and the real emulator (test/helpers/browser/
// backend.ts), mounted on the test runner's own dev server so every call is same-origin.
import { register } from 'tsx/esm/api';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { defaultReporter, summaryReporter } from '@web/test-runner';
import { findBrowser, findFullBrowser, BROWSER_ARGS, FULL_BROWSER_HINT, INSTALL_HINT } from './scripts/find-browser.mjs';
import { countReporter } from './scripts/wtr-counter.mjs';
import { visualRegressionPlugin } from '@web/test-runner-visual-regression/plugin';
import { devicesPlugin } from './test/helpers/browser/devices.mjs';

const executablePath = await findBrowser();
if (!executablePath) throw new Error(INSTALL_HINT);

/**
 * The screenshot tests run in the full browser, which drew their approved pictures; every other
 * file in the headless shell, about twice as fast (scripts/find-browser.mjs).
 */
const SCREENSHOT_TESTS = ['visual-states', 'visual-catches', 'rtl-visual'].map((name) => `test/chatbot-widget/${name}.test.ts`);
/** `npm test` names the files to run (WTR_FILES); run directly, the runner takes them all. */
const requested = process.env.WTR_FILES
  ? JSON.parse(process.env.WTR_FILES)
  : ['test/chatbot-widget/**/*.test.ts', 'test/chatbot-usage/**/!(*.node).test.ts', ...SCREENSHOT_TESTS];
const screenshotFiles = requested.filter((file) => SCREENSHOT_TESTS.includes(file));
const otherFiles = requested.filter((file) => !SCREENSHOT_TESTS.includes(file));
const fullBrowserPath = screenshotFiles.length ? await findFullBrowser() : undefined;
if (screenshotFiles.length && !fullBrowserPath) throw new Error(FULL_BROWSER_HINT);
const launcher = (path) =>
  playwrightLauncher({ product: 'chromium', launchOptions: { executablePath: path, headless: true, args: BROWSER_ARGS } });
/** The files and browser of the run, and the screenshots' group beside them when there are both. */
const layout = !otherFiles.length
  ? { files: screenshotFiles, browsers: [launcher(fullBrowserPath)], groups: [] }
  : {
      files: [...otherFiles, ...SCREENSHOT_TESTS.map((file) => `!${file}`)],
      browsers: [launcher(executablePath)],
      groups: screenshotFiles.length ? [{ name: 'screenshots', files: screenshotFiles, browsers: [launcher(fullBrowserPath)] }] : [],
    };

// The backend is TypeScript: tsx loads it (and the handler and emulator sources) in this process.
register();
const { startBackend } = await import('./test/helpers/browser/backend.ts');
const { minifyTemplates } = await import('./scripts/minify-templates.ts');
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
 * `executeServerCommand('chatbot-api', { args })` from a test: runs the real `chatbot-api` command
 * against the backend's emulator and answers its exit code and output, so a browser test can put
 * the element's figures beside the command's.
 */
function chatbotApiCommandPlugin() {
  return {
    name: 'chatbot-api-command',
    async executeCommand({ command, payload }) {
      if (command !== 'chatbot-api') return undefined;
      backend ??= await startBackend();
      // Asynchronously: the emulator it talks to answers from this very process.
      const { execFile } = await import('node:child_process');
      return new Promise((resolve) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', 'src/cli/chatbot-api.ts', ...payload.args],
          { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...backend.cliEnv }, timeout: 60_000 },
          (error, stdout, stderr) => resolve({ code: error ? (error.code ?? 1) : 0, stdout, stderr }),
        );
      });
    },
  };
}

/**
 * `executeServerCommand('hold-panel-code')` from a test holds back the panel's code (its module,
 * as the widget imports it on first use) until `executeServerCommand('release-panel-code')`: the
 * panel a visitor sees before that code has arrived. Only a page that has not imported it yet
 * asks for it, so such a test has a file of its own.
 */
function holdPanelCodePlugin() {
  const releases = new Map();
  return {
    name: 'hold-panel-code',
    async executeCommand({ command, session }) {
      if (command !== 'hold-panel-code' && command !== 'release-panel-code') return undefined;
      if (session.browser.type !== 'playwright') throw new Error(`${command} needs Playwright`);
      if (command === 'release-panel-code') {
        releases.get(session.id)?.();
        releases.delete(session.id);
        return true;
      }
      const held = new Promise((resolve) => releases.set(session.id, resolve));
      await session.browser.getPage(session.id).route(/\/panel\/chat-panel\.ts(\?|$)/, async (route) => {
        await held;
        await route.continue();
      });
      return true;
    },
  };
}

/** The lazily loaded code a test can make unreachable, by the command that does, as the module's path. */
const FAILING_CODE = {
  'fail-panel-code': /\/panel\/chat-panel\.ts(\?|$)/,
  'fail-history-pane-code': /\/panel\/history-pane\.ts(\?|$)/,
  'fail-transcript-code': /\/panel\/transcript-download\.ts(\?|$)/,
  'fail-revocation-code': /\/identity\/revocations\.ts(\?|$)/,
};

/**
 * `executeServerCommand('fail-panel-code')` from a test makes every fetch of the panel's code fail
 * on this page, as offline: what a visitor sees when that code cannot be loaded.
 * `fail-history-pane-code`, `fail-transcript-code` and `fail-revocation-code` do the same to the
 * history pane's code, the transcript download's and the reset's revocation of a token.
 */
function failPanelCodePlugin() {
  return {
    name: 'fail-panel-code',
    async executeCommand({ command, session }) {
      const path = FAILING_CODE[command];
      if (!path) return undefined;
      if (session.browser.type !== 'playwright') throw new Error(`${command} needs Playwright`);
      await session.browser.getPage(session.id).route(path, (route) => route.abort('internetdisconnected'));
      return true;
    },
  };
}

/**
 * `executeServerCommand('fuzz-env')` from a fuzz test: the variables that set a fuzz run's length
 * and seed (test/helpers/fuzz.ts), as this process has them, so that a browser fuzz test runs as
 * long and from the same seed as the Node ones.
 */
function fuzzEnvPlugin() {
  return {
    name: 'fuzz-env',
    executeCommand({ command }) {
      if (command !== 'fuzz-env') return undefined;
      const names = ['CHATBOT_FUZZ', 'CHATBOT_FUZZ_SEED', 'CHATBOT_FUZZ_PATH'];
      return Object.fromEntries(names.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]]));
    },
  };
}

/**
 * `executeServerCommand('visual-update')` from a screenshot test: whether this run approves new
 * baselines (UPDATE_SCREENSHOTS=1), in which a test that proves a change is caught has nothing to
 * compare against.
 */
function visualUpdatePlugin() {
  return {
    name: 'visual-update',
    executeCommand({ command }) {
      if (command !== 'visual-update') return undefined;
      return process.env.UPDATE_SCREENSHOTS === '1';
    },
  };
}

/** The widget's Lit templates minified as the standalone build ships them (vite.config.ts). */
function minifyTemplatesPlugin() {
  return {
    name: 'minify-templates',
    transform(context) {
      if (!/^\/src\/.*\.ts$/.test(context.path) || typeof context.body !== 'string') return undefined;
      const body = minifyTemplates(context.body, context.path);
      return body === undefined ? undefined : { body };
    },
  };
}

export default {
  ...layout,
  // Lit's production build: no dev-mode warnings in the logs, the same code the bundle ships.
  nodeResolve: { exportConditions: ['production'] },
  // Three files at a time: each runs in a page of its own (its own storage), and every test talks
  // to the backend under a namespace of its own. Pages spend part of their time waiting (on the
  // backend, on timers), and a third fills it: on a two-core machine this side took 80 s two at a
  // time, with 39 core-seconds idle, and 63 to 66 s three at a time, with about 15.
  concurrency: 3,
  // The headless shell's files, then the screenshots' in the full browser: three pages at a time in all.
  concurrentBrowsers: 1,
  testsFinishTimeout: process.env.CHATBOT_FUZZ === 'long' ? 3_600_000 : 180_000,
  middleware: [
    async (ctx, next) => {
      backend ??= await startBackend();
      return backend.middleware(ctx, next);
    },
  ],
  plugins: [
    backendPlugin(),
    chatbotApiCommandPlugin(),
    holdPanelCodePlugin(),
    failPanelCodePlugin(),
    fuzzEnvPlugin(),
    visualUpdatePlugin(),
    devicesPlugin(),
    minifyTemplatesPlugin(),
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: 'tsconfig.json' }),
    // Screenshots compared with approved ones in test/screenshots/baseline (`visualDiff`);
    // a failure writes the new image and the difference under test/screenshots/failed.
    // `npm run test:visual:update` approves the current look (then look at the images before
    // committing). Runs are deterministic (test/helpers/browser/visual.ts: bundled font, no animation, times
    // hidden), so the tolerance is small: 40 pixels that differ (each by more than pixelmatch's
    // colour threshold) fail, and a part moved by 10 px changes hundreds, a bubble one shade lighter thousands
    // (visual-catches.test.ts).
    visualRegressionPlugin({
      update: process.env.UPDATE_SCREENSHOTS === '1',
      baseDir: 'test/screenshots',
      getBaselineName: ({ name }) => `baseline/${name}.png`,
      getDiffName: ({ name }) => `failed/${name}-diff.png`,
      getFailedName: ({ name }) => `failed/${name}.png`,
      failureThresholdType: 'pixel',
      failureThreshold: 40,
      // A pixel differs when its colour does by more than this (pixelmatch's YIQ distance, 0 to 1;
      // its default 0.1 lets a bubble one shade lighter pass): runs draw the same pixels, so small.
      diffOptions: { threshold: 0.03 },
    }),
  ],
  reporters: [defaultReporter(), summaryReporter(), countReporter()],
  // A long fuzz run (`npm run fuzz`) takes its time.
  testFramework: { config: { timeout: process.env.CHATBOT_FUZZ === 'long' ? 3_600_000 : 20_000 } },
};
