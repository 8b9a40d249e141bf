// examples/express, examples/fastify, examples/node and examples/hono, each started with
// `node server.js` in its own folder (what its `npm start` runs), against the emulator over HTTP.
import { after, before, describe, it } from 'node:test';
import {
  assertServesWidgetPage,
  driveConversation,
  exampleEnv,
  freePort,
  linkPackage,
  startEmulator,
  startExample,
  type RunningExample,
} from './support/run-example.js';

const emulator = await startEmulator();

for (const [name, runtime] of [
  ['express', 'Express'],
  ['fastify', 'Fastify'],
  ['node', 'node:http'],
  ['hono', 'Hono on @hono/node-server'],
] as const) {
  describe(`examples/${name} (node server.js)`, () => {
    let example: RunningExample | undefined;
    before(async () => {
      linkPackage();
      const port = await freePort();
      example = await startExample({ name, command: process.execPath, args: ['server.js'], env: exampleEnv(emulator, port), port });
    });
    after(() => example?.stop());

    it("issues a visitor, sends, lists the visitor's own messages and refuses past the send limit", async () => {
      await driveConversation(example!, emulator, runtime);
    });

    it("serves a page with the widget, and the widget's files from the installed package", async () => {
      await assertServesWidgetPage(example!);
    });
  });
}
