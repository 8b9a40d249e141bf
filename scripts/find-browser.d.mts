/** The path of a Chromium to test with (CHROME_PATH, Playwright's browsers, system paths), or undefined. */
export function findBrowser(): Promise<string | undefined>;
/** One line telling how to install a browser. */
export const INSTALL_HINT: string;
/** Launch flags for headless Chromium on a machine without network or GPU. */
export const BROWSER_ARGS: string[];
