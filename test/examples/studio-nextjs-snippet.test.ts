// The studio's Next.js handler snippet works as pasted: a scratch copy of examples/nextjs
// (examples/studio-snippet-nextjs-*, removed afterwards) gets, instead of the example's own route,
// the route file the studio names for each endpoint configuration (the default, a path of the
// site, an absolute URL on another host) with the snippet as its text; one `next build` with no
// CHATBOT_* variables and one `next start` against the emulator serve all three, and for each the
// studio's script-tag snippet, pasted on a page of the site, sends a message and shows the reply
// in Chromium.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { allSnippets } from '../../demo/studio/snippets.js';
import { ENDPOINT_CONFIGS, SITE_ORIGIN, pastedConfig, startPastedSite, type PastedSite } from './support/pasted-snippet.js';
import { NEXT_BUILD_TIMEOUT_MS, nextBinary, nextBuild } from './support/next-build.js';
import { examplesDir, exampleEnv, freePort, linkPackage, startEmulator, startExample, type RunningExample } from './support/run-example.js';

const emulator = await startEmulator();
const example = join(examplesDir, 'nextjs');
const configs = ENDPOINT_CONFIGS.map(({ name, endpoint }) => ({ name, config: pastedConfig(name, endpoint) }));

let scratch = '';
let buildOutput = '';
let running: RunningExample | undefined;
let site: PastedSite;
before(
  async () => {
    linkPackage();
    // Inside examples/, so that `chatbot-widget` and Next resolve as they do for the example.
    scratch = mkdtempSync(join(examplesDir, 'studio-snippet-nextjs-'));
    // The project's settings; of its app/, only the routes the snippets make (its own page and
    // route are not what is tested here, and would double the build).
    for (const file of ['next.config.mjs', 'package.json', 'tsconfig.json']) cpSync(join(example, file), join(scratch, file));
    for (const { config } of configs) {
      const snippet = (await allSnippets(config, { origin: SITE_ORIGIN })).find((s) => s.id === 'nextjs')!;
      assert.ok(snippet.file && snippet.text.startsWith(`// ${snippet.file}\n`), 'the snippet names the file the studio shows');
      mkdirSync(join(scratch, dirname(snippet.file)), { recursive: true });
      writeFileSync(join(scratch, snippet.file), snippet.text);
    }
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
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

describe("the studio's Next.js handler snippet under next build && next start, with its script-tag snippet pasted on the site", () => {
  it('builds a route for each endpoint, with no CHATBOT_* variables, served on demand', () => {
    for (const route of ['/chatbot/[...path]', '/help-desk/chatbot/[...path]', '/partner/chatbot/[...path]'])
      assert.ok(buildOutput.includes(route), `${route} in:\n${buildOutput}`);
  });

  for (const { name, config } of configs) {
    it(`answers the widget at ${name}`, async () => {
      await site.askThroughPastedSnippet(config, `hello from Next.js at ${name}`, running!.output);
    });
  }
});
