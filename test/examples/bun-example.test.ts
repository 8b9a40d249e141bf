// examples/bun started as its README says (`bun run server.ts`) with the bun binary of the root
// devDependencies, against the emulator over HTTP.
import { after, before, describe } from 'node:test';
import { bunBinary } from '../helpers/runtime-binaries.js';
import { itServesTheWidgetAndItsRoutes, startEmulator, startExampleAgainst, type RunningExample } from './support/run-example.js';

const emulator = await startEmulator();

describe('examples/bun (bun run server.ts)', () => {
  let example: RunningExample | undefined;
  before(async () => {
    example = await startExampleAgainst(emulator, { name: 'bun', command: bunBinary(), args: ['run', 'server.ts'] });
  });
  after(() => example?.stop());

  itServesTheWidgetAndItsRoutes('Bun', emulator, () => example);
});
