// examples/deno started with the command of its `deno task start` (the permissions it names, and
// --unstable-kv for the Deno KV store) with the deno binary of the root devDependencies, against
// the emulator over HTTP. The task's own command line is run, read from its deno.json.
import { after, before, describe } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { denoBinary } from '../helpers/runtime-binaries.js';
import {
  examplesDir,
  itServesTheWidgetAndItsRoutes,
  startEmulator,
  startExampleAgainst,
  type RunningExample,
} from './support/run-example.js';

const emulator = await startEmulator();

describe('examples/deno (deno task start: Deno.serve, Deno KV store)', () => {
  let example: RunningExample | undefined;
  before(async () => {
    const task = JSON.parse(readFileSync(join(examplesDir, 'deno/deno.json'), 'utf8')).tasks.start as string;
    const [command, ...args] = task.split(' ');
    if (command !== 'deno') throw new Error(`examples/deno/deno.json: the start task should run deno, got ${task}`);
    // An in-memory KV database, so runs leave no file behind.
    example = await startExampleAgainst(emulator, { name: 'deno', command: denoBinary(), args, env: { CHATBOT_KV_PATH: ':memory:' } });
  });
  after(() => example?.stop());

  itServesTheWidgetAndItsRoutes('Deno', emulator, () => example);
});
