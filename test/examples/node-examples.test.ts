// examples/express, examples/fastify, examples/node and examples/hono, each started with
// `node server.js` in its own folder (what its `npm start` runs), against the emulator over HTTP.
import { after, before, describe } from 'node:test';
import { itServesTheWidgetAndItsRoutes, startEmulator, startExampleAgainst, type RunningExample } from './support/run-example.js';

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
      example = await startExampleAgainst(emulator, { name, command: process.execPath, args: ['server.js'] });
    });
    after(() => example?.stop());

    itServesTheWidgetAndItsRoutes(runtime, emulator, () => example);
  });
}
