// examples/deno started with the command of its `deno task start` (the permissions it names, and
// --unstable-kv for the Deno KV store) with the deno binary of the root devDependencies, against
// the emulator over HTTP. The task's own command line is run, read from its deno.json.
import { after, before, describe, it } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  assertServesWidgetPage,
  driveConversation,
  examplesDir,
  exampleEnv,
  freePort,
  linkPackage,
  startEmulator,
  startExample,
  tool,
  type RunningExample,
} from './support/run-example.js';

const emulator = await startEmulator();

describe('examples/deno (deno task start: Deno.serve, Deno KV store)', () => {
  let example: RunningExample | undefined;
  before(async () => {
    const deno = tool(
      'node_modules/deno/deno',
      'run `npm install` (the "deno" devDependency; its install script must be allowed in package.json "allowScripts").',
    );
    linkPackage();
    const task = JSON.parse(readFileSync(join(examplesDir, 'deno/deno.json'), 'utf8')).tasks.start as string;
    const [command, ...args] = task.split(' ');
    if (command !== 'deno') throw new Error(`examples/deno/deno.json: the start task should run deno, got ${task}`);
    const port = await freePort();
    // An in-memory KV database, so runs leave no file behind.
    example = await startExample({
      name: 'deno',
      command: deno,
      args,
      env: { ...exampleEnv(emulator, port), CHATBOT_KV_PATH: ':memory:' },
      port,
    });
  });
  after(() => example?.stop());

  it("issues a visitor, sends, lists the visitor's own messages and refuses past the send limit", async () => {
    await driveConversation(example!, emulator, 'Deno');
  });

  it("serves a page with the widget, and the widget's files from the installed package", async () => {
    await assertServesWidgetPage(example!);
  });
});
