/** The browser for tests that compare no pixels: CHROME_PATH, Chromium's headless shell, else the full browser; undefined when there is none. */
export function findBrowser(): Promise<string | undefined>;
/** The full browser, which drew the approved screenshots (CHROME_PATH, Playwright's browsers, system paths), or undefined. */
export function findFullBrowser(): Promise<string | undefined>;
/** One line telling how to install a browser. */
export const INSTALL_HINT: string;
/** Said when the screenshot tests find only the headless shell. */
export const FULL_BROWSER_HINT: string;
/** Launch flags for headless Chromium on a machine without network or GPU. */
export const BROWSER_ARGS: string[];
