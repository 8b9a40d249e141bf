// examples/bun started as its README says (`bun run server.ts`) with the bun binary of the root
// devDependencies, against the emulator over HTTP.
import { after, before, describe, it } from 'node:test';
import {
  assertServesWidgetPage,
  driveConversation,
  exampleEnv,
  freePort,
  linkPackage,
  startEmulator,
  startExample,
  tool,
  type RunningExample,
} from './support/run-example.js';

const emulator = await startEmulator();

describe('examples/bun (bun run server.ts)', () => {
  let example: RunningExample | undefined;
  before(async () => {
    const bun = tool(
      'node_modules/bun/bin/bun.exe',
      'run `npm install` (the "bun" devDependency; its install script must be allowed in package.json "allowScripts").',
    );
    linkPackage();
    const port = await freePort();
    example = await startExample({ name: 'bun', command: bun, args: ['run', 'server.ts'], env: exampleEnv(emulator, port), port });
  });
  after(() => example?.stop());

  it("issues a visitor, sends, lists the visitor's own messages and refuses past the send limit", async () => {
    await driveConversation(example!, emulator, 'Bun');
  });

  it("serves a page with the widget, and the widget's files from the installed package", async () => {
    await assertServesWidgetPage(example!);
  });
});
