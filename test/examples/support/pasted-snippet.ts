// A site that pasted the studio's script-tag snippet, in front of a handler started from the
// studio's handler snippet: Chromium reaches https://www.example.com (the site) and
// https://chat.example.com (the handler on a host of its own) at one local TLS server, by its
// host resolver rules. The site answers its page (the snippet, sent with the studio's CSP line)
// and the widget's files, and passes every other request to the handler, as a site's front
// server does; chat.example.com passes everything. An endpoint on chat.example.com is
// cross-origin for the page, so the widget's sends go through a real CORS preflight.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from '../../../scripts/find-browser.mjs';
import { cspHeader, scriptTagSnippet } from '../../../demo/studio/snippets.js';
import type { StudioConfig } from '../../../demo/studio/studio-config.js';
import { root } from './run-example.js';

/** Where the snippet is pasted: the origin the handler snippets name in `allowedOrigins`. */
export const SITE_ORIGIN = 'https://www.example.com';
/** A handler on a host of its own, for an endpoint given as an absolute URL. */
export const HANDLER_HOST = 'chat.example.com';
const SITE_HOST = new URL(SITE_ORIGIN).host;

/** The endpoint configurations every handler snippet is run with. */
export const ENDPOINT_CONFIGS: { name: string; endpoint?: string }[] = [
  { name: 'the default endpoint' },
  { name: 'a path of the site', endpoint: '/help-desk/chatbot' },
  { name: 'an absolute URL on another host', endpoint: `https://${HANDLER_HOST}/partner/chatbot` },
];

/** A configuration with `endpoint` (none: the widget's default), and texts that name it. */
export function pastedConfig(name: string, endpoint?: string): StudioConfig {
  return {
    attributes: { ...(endpoint ? { endpoint } : {}), heading: `Help: ${name}`, greeting: `Hello from ${name}` },
    properties: {},
    styles: { '--chatbot-accent': '#0f766e' },
    recipes: [],
  };
}

export interface PastedSite {
  /** Where the site's front server passes what is not its own page or files. */
  setHandler(origin: string): void;
  /**
   * Pastes the script-tag snippet of `config` on the site's page, opens it in Chromium, sends
   * `question` and waits for the emulator's reply; fails on any refused or failed request,
   * console error or CSP violation. An endpoint on another host is reached through CORS
   * preflights, each answered 204; one on the site's own origin needs none.
   */
  askThroughPastedSnippet(config: StudioConfig, question: string, describe: () => string): Promise<void>;
  /**
   * Opens `path` of the site, which its front server passes to the handler's server (a page that
   * server renders, with the widget drawn by `config`), and asks there as above; `beforeAsking`
   * looks at the open panel before the question is sent.
   */
  askOnHandlerPage(
    path: string,
    config: StudioConfig,
    question: string,
    describe: () => string,
    beforeAsking?: (tab: Page) => Promise<void>,
  ): Promise<void>;
  close(): Promise<void>;
}

/** A self-signed certificate for both hosts (Chromium is told to accept it), in a temporary folder. */
function certificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'pasted-snippet-tls-'));
  try {
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '1',
          '-subj',
          `/CN=${SITE_HOST}`,
          '-addext',
          `subjectAltName=DNS:${SITE_HOST},DNS:${HANDLER_HOST}`,
          '-keyout',
          join(dir, 'key.pem'),
          '-out',
          join(dir, 'cert.pem'),
        ],
        { stdio: 'ignore' },
      );
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new Error('openssl is missing: it makes the certificate for the pasted-snippet site (apt-get install openssl)');
      throw error;
    }
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startPastedSite(): Promise<PastedSite> {
  let handler = '';
  let page = { html: '', csp: '' };
  /** Preflights the handler answered, each with the number of the page (`ask`) that sent it. */
  const preflights: { page: number; line: string }[] = [];
  /** Numbers each page, named in its User-Agent, which preflights carry too. */
  let pagesOpened = 0;
  const PAGE_TAG = / pasted-page\/(\d+)$/;

  /** Requests passed to the handler and not yet answered. */
  let passing = 0;
  function passToHandler(request: IncomingMessage, response: ServerResponse) {
    passing++;
    response.once('close', () => passing--);
    const target = new URL(request.url ?? '/', handler);
    const upstream = httpRequest(target, { method: request.method, headers: { ...request.headers, host: target.host } }, (answer) => {
      if (request.method === 'OPTIONS')
        preflights.push({
          page: Number(PAGE_TAG.exec(request.headers['user-agent'] ?? '')?.[1] ?? 0),
          line: `${answer.statusCode} ${request.headers.host}${request.url}`,
        });
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on('error', (error) => response.writeHead(502).end(String(error)));
    request.pipe(upstream);
  }

  const server = createServer(certificate(), (request, response) => {
    const path = new URL(request.url ?? '/', SITE_ORIGIN).pathname;
    if (request.headers.host === SITE_HOST && path === '/') {
      response.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': page.csp }).end(page.html);
    } else if (request.headers.host === SITE_HOST && path === '/favicon.ico') {
      response.writeHead(204).end(); // the site's own, asked for by Chromium; not the handler's
    } else if (request.headers.host === SITE_HOST && /^\/chatbot-widget[\w-]*\.js$/.test(path)) {
      response.writeHead(200, { 'Content-Type': 'text/javascript' }).end(readFileSync(join(root, 'dist', path.slice(1))));
    } else {
      passToHandler(request, response);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const executablePath = await findBrowser();
  if (!executablePath) throw new Error(INSTALL_HINT);
  const browser: Browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [...BROWSER_ARGS, `--host-resolver-rules=MAP ${SITE_HOST} 127.0.0.1:${port}, MAP ${HANDLER_HOST} 127.0.0.1:${port}`],
  });
  const userAgent = await browser.newPage().then(async (blank) => {
    const agent = await blank.evaluate(() => navigator.userAgent);
    await blank.close();
    return agent;
  });

  /** Opens `path` on the site in a fresh context, sends `question` and waits for the reply. */
  async function ask(
    path: string,
    config: StudioConfig,
    question: string,
    describe: () => string,
    beforeAsking?: (tab: Page) => Promise<void>,
  ) {
    // A page closed mid-request may still have its preflight arrive while the next page runs;
    // the tag in each page's User-Agent keeps it out of the next page's count.
    const thisPage = ++pagesOpened;
    const browserContext = await browser.newContext({ ignoreHTTPSErrors: true, userAgent: `${userAgent} pasted-page/${thisPage}` });
    const tab = await browserContext.newPage();
    const problems: string[] = [];
    tab.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    tab.on('pageerror', (error) => problems.push(error.message));
    tab.on('response', (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
    try {
      await tab.goto(`${SITE_ORIGIN}${path}`);
      const part = (name: string) => tab.locator(`chatbot-widget [part~="${name}"]`);
      await part('launcher').click();
      await part('greeting').getByText(String(config.attributes.greeting)).waitFor();
      await beforeAsking?.(tab);
      await part('input').fill(question);
      await part('input').press('Enter');
      await part('message-bot')
        .getByText(`You said: ${question}`)
        .waitFor({ timeout: 20_000 })
        .catch((error: Error) => assert.fail(`${error.message}\n${problems.join('\n')}\n${describe()}`));
      assert.deepEqual(problems, [], `nothing refused or failed:\n${describe()}`);
      const ownPreflights = preflights.filter((p) => p.page === thisPage).map((p) => p.line);
      if (String(config.attributes.endpoint ?? '').startsWith(`https://${HANDLER_HOST}/`))
        assert.ok(
          ownPreflights.length > 0 && ownPreflights.every((p) => p.startsWith(`204 ${HANDLER_HOST}/`)),
          `preflights: ${ownPreflights.join(', ')}`,
        );
      else assert.deepEqual(ownPreflights, [], "an endpoint on the page's own origin needs no preflight");
    } finally {
      await browserContext.close();
      // A request the page sent just before it closed (the widget loading older messages) is
      // let finish here, so that it does not reach the handler the next page is given.
      for (const deadline = Date.now() + 5_000; passing > 0 && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  return {
    setHandler(origin) {
      handler = origin;
    },
    async askThroughPastedSnippet(config, question, describe) {
      const context = { origin: SITE_ORIGIN };
      page = {
        html: `<!doctype html>\n<html lang="en">\n<title>Pasted</title>\n<body>\n${scriptTagSnippet(config, context)}</body>\n</html>\n`,
        csp: (await cspHeader(config, context)).replace(/^Content-Security-Policy:\s*/, ''),
      };
      await ask('/', config, question, describe);
    },
    askOnHandlerPage: ask,
    async close() {
      await browser.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
