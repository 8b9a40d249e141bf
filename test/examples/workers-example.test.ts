// examples/cloudflare-workers under workerd, started by `wrangler dev` with the example's own
// wrangler.toml (the Durable Object store bound as CHATBOT_STORE), against the emulator over HTTP.
import { after, before, describe, it } from 'node:test';
import { join } from 'node:path';
import { startWranglerDev, type RunningWorker } from '../helpers/wrangler-dev.js';
import {
  assertServesWidgetPage,
  assertVisitorsCountedPerAddress,
  driveConversation,
  examplesDir,
  exampleEnv,
  linkPackage,
  startEmulator,
  tool,
} from './support/run-example.js';

const emulator = await startEmulator();

describe('examples/cloudflare-workers (wrangler dev, Durable Object store)', () => {
  let worker: RunningWorker | undefined;
  before(async () => {
    tool(
      'node_modules/.bin/wrangler',
      'run `npm install` (the "wrangler" devDependency, pinned to 4.86.0, the last release that runs on Node 20).',
    );
    linkPackage();
    const { PORT: _port, ...vars } = exampleEnv(emulator, 0);
    // From the example's folder, as its README runs it (its [build] command runs there).
    const folder = join(examplesDir, 'cloudflare-workers');
    worker = await startWranglerDev(join(folder, 'wrangler.toml'), { vars, cwd: folder });
  });
  after(() => worker?.stop());

  it("issues a visitor, sends upstream from workerd, lists the visitor's own messages and refuses past the send limit", async () => {
    await driveConversation({ origin: worker!.origin, output: worker!.output, stop: worker!.stop }, emulator, 'Cloudflare Workers', {
      header: 'CF-Connecting-IP',
    });
  });

  it("serves a page with the widget, and the widget's files copied from the installed package as static assets", async () => {
    await assertServesWidgetPage({ origin: worker!.origin, output: worker!.output, stop: worker!.stop });
  });

  it('counts new visitors per CF-Connecting-IP address', async () => {
    await assertVisitorsCountedPerAddress(worker!.origin, 'CF-Connecting-IP');
  });
});
