// The studio's Cloudflare Workers handler snippet works as pasted: for each endpoint
// configuration (the default, a path of the site, an absolute URL on another host), the snippet
// is a Worker of examples/cloudflare-workers (studio-snippet.N.ts beside the example's own, with
// a copy of the example's wrangler.toml naming it, less its static assets; all removed afterwards), run by `wrangler dev`
// in workerd against the emulator, and the studio's script-tag snippet for the same
// configuration, pasted on a page of the site, sends a message and shows the reply in Chromium.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { handlerSnippet } from '../../demo/studio/snippets.js';
import { startWranglerDev, type RunningWorker } from '../helpers/wrangler-dev.js';
import { ENDPOINT_CONFIGS, pastedConfig, startPastedSite, type PastedSite } from './support/pasted-snippet.js';
import { examplesDir, exampleEnv, linkPackage, startEmulator, tool } from './support/run-example.js';

const emulator = await startEmulator();
const folder = join(examplesDir, 'cloudflare-workers');

/** Each endpoint configuration's Worker: the snippet, its wrangler.toml, and `wrangler dev` once started. */
const workers = ENDPOINT_CONFIGS.map(({ name, endpoint }, index) => ({
  name,
  config: pastedConfig(name, endpoint),
  script: join(folder, `studio-snippet.${index}.ts`),
  wranglerToml: join(folder, `studio-snippet.${index}.toml`),
  running: undefined as RunningWorker | undefined,
}));

let site: PastedSite;
before(async () => {
  tool('node_modules/.bin/wrangler', 'run `npm install` (the "wrangler" devDependency).');
  linkPackage();
  const example = readFileSync(join(folder, 'wrangler.toml'), 'utf8');
  const { PORT: _port, ...vars } = exampleEnv(emulator, 0);
  // The site's front server serves the page and the widget's files: no [assets], and no [build]
  // step copying them (which several starts at once would run over each other).
  const handlerOnly = example.replace(/^\[assets\]\ndirectory = .*\n/m, '').replace(/^\[build\]\ncommand = .*\n/m, '');
  assert.doesNotMatch(handlerOnly, /^\[(assets|build)\]/m, "the example's wrangler.toml as this test knows it");
  // Started side by side: most of each start is wrangler bundling and workerd booting.
  const started = await Promise.allSettled(
    workers.map(async (worker) => {
      const toml = handlerOnly.replace(/^main = .*$/m, `main = "${basename(worker.script)}"`);
      assert.notEqual(toml, handlerOnly, "the example's wrangler.toml names its Worker in `main`");
      writeFileSync(worker.wranglerToml, toml);
      writeFileSync(worker.script, handlerSnippet('workers', worker.config));
      worker.running = await startWranglerDev(worker.wranglerToml, { vars, cwd: folder });
    }),
  );
  for (const result of started) if (result.status === 'rejected') throw result.reason;
  site = await startPastedSite();
});
after(async () => {
  await site?.close();
  for (const worker of workers) {
    await worker.running?.stop();
    rmSync(worker.script, { force: true });
    rmSync(worker.wranglerToml, { force: true });
  }
});

describe("the studio's Workers handler snippet under wrangler dev, with its script-tag snippet pasted on the site", () => {
  for (const worker of workers) {
    it(`answers the widget at ${worker.name}`, async () => {
      const running = worker.running!;
      site.setHandler(running.origin);
      await site.askThroughPastedSnippet(worker.config, `hello from workerd at ${worker.name}`, running.output);
    });
  }
});
