// The built language loader in Chromium, served over HTTP under a strict Content Security
// Policy: a page fetches no language until one is asked for, then exactly that language's chunk,
// once. And Chromium's Intl reads language tags as Node's does, so the Node tests of
// resolveLocale and directionOf hold in the browser.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { findBrowser, BROWSER_ARGS, INSTALL_HINT } from '../../../scripts/find-browser.mjs';
import { buildLanguages, LOADER_ENTRY } from '../../../scripts/build-languages.js';
import { directionOf, resolveLocale } from '../../../src/ui/locales/index.js';
import { strings as arabic } from '../../../src/ui/locales/ar.js';

const CSP = "default-src 'self'; script-src 'self'; style-src 'self'";
/** The page's own script: exposes the loader, as the widget's element would use it. */
const APP = `import * as loader from './${LOADER_ENTRY}'; window.loader = loader; document.body.dataset.ready = 'yes';`;

const out = mkdtempSync(join(tmpdir(), 'chatbot-widget-locales-browser-'));
let files: Map<string, Buffer>;
let server: Server;
let origin: string;
let browser: Browser;
/** Paths of the scripts each page asked for, in order. */
let requested: string[] = [];

before(async () => {
  files = await buildLanguages(out);
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const lang = new URL(req.url ?? '/', 'http://x').searchParams.get('lang') ?? '';
    const headers = { 'Content-Security-Policy': CSP, 'Cache-Control': 'no-store' };
    if (path === '/') {
      res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="${lang.replace(/[^\w-]/g, '')}"><head><title>t</title><script type="module" src="/app.js"></script></head><body></body></html>`,
      );
      return;
    }
    if (path === '/favicon.ico') {
      res.writeHead(204).end();
      return;
    }
    requested.push(path);
    const body = path === '/app.js' ? Buffer.from(APP) : files.get(path.slice(1));
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { ...headers, 'Content-Type': 'text/javascript; charset=utf-8' });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const executablePath = await findBrowser();
  if (!executablePath) throw new Error(INSTALL_HINT);
  browser = await chromium.launch({ executablePath, headless: true, args: BROWSER_ARGS });
});

after(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  rmSync(out, { recursive: true, force: true });
});

/** Opens the page with `<html lang>`; collects CSP violations and errors. */
async function open(lang: string): Promise<{ page: Page; problems: string[] }> {
  requested = [];
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP refused ${event.violatedDirective}`));
  });
  await page.goto(`${origin}/?lang=${encodeURIComponent(lang)}`);
  await page.waitForSelector('body[data-ready="yes"]', { state: 'attached' });
  return { page, problems };
}

const languageChunks = () => requested.filter((path) => path !== '/app.js' && path !== `/${LOADER_ENTRY}`);

test('a page fetches no language until asked, then only the one it shows, once, under a strict CSP', async () => {
  const { page, problems } = await open('ar-EG');
  try {
    assert.deepEqual(languageChunks(), [], 'nothing but the loader before a language is asked for');
    const shown = await page.evaluate(async () => {
      const { loader } = window as unknown as { loader: typeof import('../../../src/ui/locales/index.js') };
      const { code } = loader.chooseLocale(null, document.documentElement.lang);
      const locale = await loader.loadLocale(code);
      await loader.loadLocale(code);
      return { code, dir: locale.dir, send: locale.strings.send, heading: locale.strings.heading };
    });
    assert.deepEqual(shown, { code: 'ar', dir: 'rtl', send: arabic.send, heading: arabic.heading });
    const chunks = languageChunks();
    assert.equal(chunks.length, 1, `fetched ${chunks.join(', ')}`);
    assert.match(chunks[0]!, /^\/ar-[\w-]+\.js$/);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test('a page in English fetches English only (the widget gets it with its panel)', async () => {
  const { page, problems } = await open('en-GB');
  try {
    const code = await page.evaluate(async () => {
      const { loader } = window as unknown as { loader: typeof import('../../../src/ui/locales/index.js') };
      const { code } = loader.chooseLocale(null, document.documentElement.lang);
      return (await loader.loadLocale(code)).strings.send;
    });
    assert.equal(code, 'Send');
    const chunks = languageChunks();
    assert.equal(chunks.length, 1, `fetched ${chunks.join(', ')}`);
    assert.match(chunks[0]!, /^\/en-[\w-]+\.js$/);
    assert.deepEqual(problems, []);
  } finally {
    await page.close();
  }
});

test("Chromium's Intl resolves tags and directions as Node's does", async () => {
  const tags = [
    'pt-BR',
    'pt_BR',
    'zh-TW',
    'zh-SG',
    'zh-Hant-TW',
    'iw',
    'in',
    'EN-gb',
    'und',
    'und-Arab',
    'x-private',
    'de--DE',
    '12345',
    '',
    'tlh',
    'fa-IR',
    'sr-Cyrl',
  ];
  const expected = tags.map((tag) => [resolveLocale([tag]), directionOf(tag)]);
  const { page } = await open('');
  try {
    const actual = await page.evaluate((list) => {
      const { loader } = window as unknown as { loader: typeof import('../../../src/ui/locales/index.js') };
      return list.map((tag) => [loader.resolveLocale([tag]), loader.directionOf(tag)]);
    }, tags);
    assert.deepEqual(actual, expected);
  } finally {
    await page.close();
  }
});
