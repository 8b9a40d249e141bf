// The studio's React, Vue and Svelte snippets work as pasted: each (demo/studio/snippets.ts), for
// two configurations (floating with a greeting, suggestions, a property, a colour and a recipe;
// inline, dark and in German), is put into the matching
// example (examples/<name>/studio-snippet/, removed afterwards) as the app's one component, built
// with Vite and that example's own plugins, served beside the signing handler, and the widget it
// draws answers in Chromium (support/framework-example.ts runs the backend and the browser).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { reactSnippet, svelteSnippet, vueSnippet, widgetStylesheet } from '../../demo/studio/snippets.js';
import type { StudioConfig } from '../../demo/studio/studio-config.js';
import { examplesBrowser, linkPackage, serve, startBackendAndBrowser, stopAll } from './support/framework-example.js';
import { examplesDir } from './support/run-example.js';
import type { Locator, Page } from 'playwright-core';
import { strings as german } from '../../src/ui/locales/de.js';

before(startBackendAndBrowser);
after(stopAll);
const work = mkdtempSync(join(tmpdir(), 'studio-snippets-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** Each framework's app: the snippet as its component, mounted by a few lines of the framework's own. */
const FRAMEWORKS = [
  {
    name: 'react',
    component: 'Chat.tsx',
    snippet: reactSnippet,
    main: `import { createRoot } from 'react-dom/client';\nimport { Chat } from './Chat.js';\n\ncreateRoot(document.getElementById('app')!).render(<Chat />);\n`,
    mainFile: 'main.tsx',
  },
  {
    name: 'vue',
    component: 'Chat.vue',
    snippet: vueSnippet,
    main: `import { createApp } from 'vue';\nimport Chat from './Chat.vue';\n\ncreateApp(Chat).mount('#app');\n`,
    mainFile: 'main.ts',
  },
  {
    name: 'svelte',
    component: 'Chat.svelte',
    snippet: svelteSnippet,
    main: `import { mount } from 'svelte';\nimport Chat from './Chat.svelte';\n\nmount(Chat, { target: document.getElementById('app')! });\n`,
    mainFile: 'main.ts',
  },
];

/** A floating widget with a greeting, a suggestion, a property, a colour and a recipe. */
const floatingConfig = (name: string): StudioConfig => ({
  attributes: { heading: `Help in ${name}`, greeting: `Hello from ${name}`, suggestions: [`Ping ${name}?`], 'page-size': 10 },
  properties: { strings: { send: 'Ask' } },
  styles: { '--chatbot-accent': '#0f766e' },
  recipes: ['square-launcher'],
});

/** An inline widget, dark and in German, with a placeholder and nothing else. */
const inlineConfig = (name: string): StudioConfig => ({
  attributes: { mode: 'inline', theme: 'dark', lang: 'de', placeholder: `Frag ${name}` },
  properties: {},
  styles: {},
  recipes: [],
});

type Part = (name: string) => Locator;

/** Each configuration, and what its widget must show and do once the snippet is built and served. */
const CONFIGURATIONS: {
  name: string;
  config: (framework: string) => StudioConfig;
  check: (part: Part, framework: string, page: Page) => Promise<void>;
}[] = [
  {
    name: 'floating, with a greeting, a suggestion, a property, a colour and a recipe',
    config: floatingConfig,
    async check(part, framework, page) {
      assert.equal(await part('launcher').evaluate((el) => getComputedStyle(el).borderRadius), '10px', 'the recipe applied');
      await part('launcher').click();
      await part('greeting').getByText(`Hello from ${framework}`).waitFor();
      assert.equal((await part('send-button').textContent())?.trim(), 'Ask', 'strings, set as a property');
      assert.equal(await part('send-button').evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(15, 118, 110)', 'the accent');
      await part('suggestion').getByText(`Ping ${framework}?`).click();
      await part('message-bot').getByText(`You said: Ping ${framework}?`).waitFor({ timeout: 20_000 });
      assert.equal(await page.locator('chatbot-widget').evaluate((el) => (el as unknown as { pageSize: unknown }).pageSize), 10);
    },
  },
  {
    name: 'inline, dark and in German',
    config: inlineConfig,
    async check(part, framework, page) {
      assert.equal(await part('launcher').count(), 0, 'inline: no launcher');
      const input = part('input');
      await input.waitFor();
      assert.equal(await input.getAttribute('placeholder'), `Frag ${framework}`);
      await part('send-button').getByText(german.send).waitFor();
      assert.equal(await page.locator('chatbot-widget').getAttribute('theme'), 'dark');
      const panelColour = await part('panel').evaluate((el) => getComputedStyle(el).backgroundColor);
      const [red, green, blue] = panelColour.match(/\d+/g)!.map(Number);
      assert.ok(red! + green! + blue! < 150, `a dark panel (${panelColour})`);
      await input.fill(`Hallo ${framework}`);
      await input.press('Enter');
      await part('message-bot').getByText(`You said: Hallo ${framework}`).waitFor({ timeout: 20_000 });
    },
  },
];

for (const framework of FRAMEWORKS) {
  for (const configuration of CONFIGURATIONS) {
    test(`the studio's ${framework.name} snippet builds with Vite and its widget answers: ${configuration.name}`, async () => {
      const config = configuration.config(framework.name);
      const dir = join(examplesDir, framework.name);
      const app = join(dir, 'studio-snippet');
      linkPackage(framework.name);
      mkdirSync(app, { recursive: true });
      try {
        writeFileSync(join(app, framework.component), framework.snippet(config));
        writeFileSync(join(app, 'chatbot-widget.css'), `${widgetStylesheet(config)}\n`);
        writeFileSync(join(app, framework.mainFile), framework.main);
        writeFileSync(
          join(app, 'index.html'),
          `<!doctype html>\n<html lang="en">\n<meta charset="utf-8">\n<link rel="icon" href="data:,">\n<title>Snippet</title>\n<div id="app"></div>\n<script type="module" src="./${framework.mainFile}"></script>\n</html>\n`,
        );
        const outDir = join(work, framework.name);
        await build({
          root: dir,
          logLevel: 'silent',
          build: { outDir, emptyOutDir: true, rollupOptions: { input: join(app, 'index.html') } },
        });
        const { origin, server } = await serve(outDir);
        const page = await examplesBrowser().newPage();
        const problems: string[] = [];
        page.on('pageerror', (error) => problems.push(error.message));
        page.on('response', (response) => response.status() >= 400 && problems.push(`${response.status()} ${response.url()}`));
        try {
          await page.goto(`${origin}/studio-snippet/index.html`);
          const part = (name: string) => page.locator(`chatbot-widget [part~="${name}"]`);
          await configuration.check(part, framework.name, page);
          assert.deepEqual(problems, []);
        } finally {
          await page.close();
          await new Promise((resolve) => server.close(resolve));
        }
      } finally {
        rmSync(app, { recursive: true, force: true });
      }
    });
  }
}
