// The studio's Cloudflare Workers handler snippet works as pasted: for each endpoint
// configuration (the default, a path of the site, an absolute URL on another host), the snippet
// is the Worker of examples/cloudflare-workers (studio-snippet.ts beside the example's own, with
// the example's wrangler.toml naming it; both removed afterwards), run by `wrangler dev` in
// workerd against the emulator, and the studio's script-tag snippet for the same configuration,
// pasted on a page of the site, sends a message and shows the reply in Chromium.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { handlerSnippet } from '../../demo/studio/snippets.js';
import { startWranglerDev, type RunningWorker } from '../helpers/wrangler-dev.js';
import { ENDPOINT_CONFIGS, pastedConfig, startPastedSite, type PastedSite } from './support/pasted-snippet.js';
import { examplesDir, exampleEnv, linkPackage, startEmulator, tool } from './support/run-example.js';

const emulator = await startEmulator();
const folder = join(examplesDir, 'cloudflare-workers');
const worker = join(folder, 'studio-snippet.ts');
const config = join(folder, 'studio-snippet.toml');

let site: PastedSite;
before(async () => {
  tool('node_modules/.bin/wrangler', 'run `npm install` (the "wrangler" devDependency).');
  linkPackage();
  const example = readFileSync(join(folder, 'wrangler.toml'), 'utf8');
  const withSnippet = example.replace(/^main = .*$/m, 'main = "studio-snippet.ts"');
  assert.notEqual(withSnippet, example, "the example's wrangler.toml names its Worker in `main`");
  writeFileSync(config, withSnippet);
  site = await startPastedSite();
});
after(async () => {
  await site?.close();
  rmSync(worker, { force: true });
  rmSync(config, { force: true });
});

describe("the studio's Workers handler snippet under wrangler dev, with its script-tag snippet pasted on the site", () => {
  for (const { name, endpoint } of ENDPOINT_CONFIGS) {
    it(`answers the widget at ${name}`, async () => {
      const studioConfig = pastedConfig(name, endpoint);
      writeFileSync(worker, handlerSnippet('workers', studioConfig));
      const { PORT: _port, ...vars } = exampleEnv(emulator, 0);
      let running: RunningWorker | undefined;
      try {
        running = await startWranglerDev(config, { vars, cwd: folder });
        site.setHandler(running.origin);
        const preflights = await site.askThroughPastedSnippet(studioConfig, `hello from workerd at ${name}`, running.output);
        if (endpoint?.startsWith('https:'))
          assert.ok(preflights.length > 0 && preflights.every((p) => p.startsWith('204 ')), `preflights: ${preflights}`);
        else assert.deepEqual(preflights, [], 'a same-origin endpoint needs no preflight');
      } finally {
        await running?.stop();
      }
    });
  }
});
