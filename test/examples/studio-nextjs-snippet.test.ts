// The studio's Next.js snippets work as pasted, in one Next.js project built once: a scratch copy
// of examples/nextjs (examples/studio-snippet-nextjs, ignored by git) gets, instead of the
// example's own route and page, the route file the studio names for each endpoint configuration
// (the default, a path of the site, an absolute URL on another host) with the handler snippet as
// its text, and a page holding the studio's React snippet (Chat.tsx and its stylesheet, as the
// studio gives them) in a client component. One `next build` with no CHATBOT_* variables and one
// `next start` against the emulator serve them all; for each endpoint the studio's script-tag
// snippet, pasted on a page of the site, sends a message and shows the reply in Chromium, and so
// does the React snippet on its Next.js page.
//
// The folder stays between runs with its .next/cache, so `next build` reuses Next's own build
// cache (Turbopack's and TypeScript's) as it does for a site owner who builds again; every file
// the build reads is written afresh each run, and the build itself always runs.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { allSnippets, reactSnippet, widgetStylesheet } from '../../demo/studio/snippets.js';
import type { StudioConfig } from '../../demo/studio/studio-config.js';
import { ENDPOINT_CONFIGS, SITE_ORIGIN, pastedConfig, startPastedSite, type PastedSite } from './support/pasted-snippet.js';
import { NEXT_BUILD_TIMEOUT_MS, nextBinary, nextBuild } from './support/next-build.js';
import { examplesDir, exampleEnv, freePort, linkPackage, startEmulator, startExample, type RunningExample } from './support/run-example.js';

const emulator = await startEmulator();
const example = join(examplesDir, 'nextjs');
/** Inside examples/, so that `chatbot-widget` and Next resolve as they do for the example. */
const scratch = join(examplesDir, 'studio-snippet-nextjs');
/** Next's build cache, the one thing kept from the last run. */
const BUILD_CACHE = '.next';
const configs = ENDPOINT_CONFIGS.map(({ name, endpoint }) => ({ name, config: pastedConfig(name, endpoint) }));

/** Where the React snippet's page is: a path of the site its front server passes to Next. */
const REACT_PAGE = '/react-chat';
/** The React snippet's configuration: the default endpoint, a suggestion, a property and a colour. */
const reactConfig: StudioConfig = {
  ...pastedConfig('the React snippet'),
  attributes: { heading: 'Help in React', greeting: 'Hello from the React snippet', suggestions: ['Ping React?'] },
  properties: { strings: { send: 'Ask' } },
};
/**
 * The React snippet's `Chat`, loaded in the browser only, as docs/frameworks.md tells a Next.js
 * site to load the widget: its element, panel and cache are browser code.
 */
const REACT_LOADER = `'use client';
import dynamic from 'next/dynamic';

const Chat = dynamic(() => import('./Chat').then((module) => module.Chat), { ssr: false });

export function ChatInBrowser() {
  return <Chat />;
}
`;
const REACT_PAGE_FILE = `import { ChatInBrowser } from './chat-in-browser';

export default function Page() {
  return (
    <main>
      <h1>The studio's React snippet</h1>
      <ChatInBrowser />
    </main>
  );
}
`;

/** Writes `text` at `file` of the scratch project, making its folders. */
function put(file: string, text: string): void {
  mkdirSync(join(scratch, dirname(file)), { recursive: true });
  writeFileSync(join(scratch, file), text);
}

let buildOutput = '';
let running: RunningExample | undefined;
let site: PastedSite;
before(
  async () => {
    linkPackage();
    mkdirSync(scratch, { recursive: true });
    for (const entry of readdirSync(scratch)) if (entry !== BUILD_CACHE) rmSync(join(scratch, entry), { recursive: true, force: true });
    // The project's settings and root layout; the routes and the page are the snippets'.
    for (const file of ['next.config.mjs', 'package.json', 'tsconfig.json', 'app/layout.tsx'])
      cpSync(join(example, file), join(scratch, file));
    for (const { config } of configs) {
      const snippet = (await allSnippets(config, { origin: SITE_ORIGIN })).find((s) => s.id === 'nextjs')!;
      assert.ok(snippet.file && snippet.text.startsWith(`// ${snippet.file}\n`), 'the snippet names the file the studio shows');
      put(snippet.file, snippet.text);
    }
    const react = await allSnippets(reactConfig, { origin: SITE_ORIGIN });
    assert.equal(react.find((s) => s.id === 'react')?.file, 'Chat.tsx');
    assert.equal(react.find((s) => s.id === 'css')?.file, 'chatbot-widget.css');
    put(`app${REACT_PAGE}/Chat.tsx`, reactSnippet(reactConfig));
    put(`app${REACT_PAGE}/chatbot-widget.css`, `${widgetStylesheet(reactConfig)}\n`);
    put(`app${REACT_PAGE}/chat-in-browser.tsx`, REACT_LOADER);
    put(`app${REACT_PAGE}/page.tsx`, REACT_PAGE_FILE);

    buildOutput = await nextBuild(scratch);
    const port = await freePort();
    running = await startExample({
      name: 'nextjs',
      cwd: scratch,
      command: nextBinary(),
      args: ['start'],
      env: exampleEnv(emulator, port),
      port,
    });
    site = await startPastedSite();
    site.setHandler(running.origin);
  },
  { timeout: NEXT_BUILD_TIMEOUT_MS + 60_000 },
);
after(async () => {
  await site?.close();
  await running?.stop();
});

describe("the studio's Next.js handler snippet under next build && next start, with its script-tag and React snippets", () => {
  it('builds a route for each endpoint, with no CHATBOT_* variables, served on demand, and the React page', () => {
    for (const route of ['ƒ /chatbot/[...path]', 'ƒ /help-desk/chatbot/[...path]', 'ƒ /partner/chatbot/[...path]', `○ ${REACT_PAGE}`])
      assert.ok(buildOutput.includes(route), `${route} in:\n${buildOutput}`);
  });

  for (const { name, config } of configs) {
    it(`answers the widget at ${name}`, async () => {
      await site.askThroughPastedSnippet(config, `hello from Next.js at ${name}`, running!.output);
    });
  }

  it('draws the React snippet on a Next.js page, with its suggestion, property and stylesheet, and the widget answers', async () => {
    await site.askOnHandlerPage(REACT_PAGE, reactConfig, 'hello from the React snippet in Next.js', running!.output, async (tab) => {
      const part = (name: string) => tab.locator(`chatbot-widget [part~="${name}"]`);
      assert.equal((await part('send-button').textContent())?.trim(), 'Ask', 'strings, set as a property');
      assert.equal(await part('send-button').evaluate((el) => getComputedStyle(el).backgroundColor), 'rgb(15, 118, 110)', 'the accent');
      await part('suggestion').getByText('Ping React?').waitFor();
    });
  });
});
