// What a user does before the package is published: `npm pack` the repository, install the packed
// file into an empty folder together with examples/express's dependencies, and run that example
// from there (`node server.js`) against the emulator. Nothing resolves to this repository: the
// folder is outside it and has its own node_modules.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
  driveConversation,
  examplesDir,
  exampleEnv,
  freePort,
  root,
  startEmulator,
  startExample,
  type RunningExample,
} from './support/run-example.js';
import { packedPackage } from '../helpers/packed-package.js';

const run = promisify(execFile);
const emulator = await startEmulator();

describe('the packed package, installed from its file into a clean folder (examples/express)', { timeout: 300_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'chatbot-widget-packed-'));
  const app = join(work, 'app');
  let example: RunningExample | undefined;
  let tarball = '';

  before(
    async () => {
      assert.ok(existsSync(join(root, 'dist/lib/server/index.js')), 'dist/ is missing: run `npm run build` (npm install runs it too).');
      tarball = packedPackage();
      const manifest = JSON.parse(readFileSync(join(examplesDir, 'express/package.json'), 'utf8'));
      assert.equal(manifest.dependencies['chatbot-widget'], 'file:../..', 'the example installs the package from the repository path');
      manifest.dependencies['chatbot-widget'] = `file:${tarball}`;
      mkdirSync(app);
      writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2));
      copyFileSync(join(examplesDir, 'express/server.js'), join(app, 'server.js'));
      // From npm's cache where it can (CI's `npm ci` filled it); the package needs no install script.
      await run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
        cwd: app,
        timeout: 240_000,
      });
      const port = await freePort();
      example = await startExample({
        name: 'express',
        cwd: app,
        command: process.execPath,
        args: ['server.js'],
        env: exampleEnv(emulator, port),
        port,
      });
    },
    { timeout: 280_000 },
  );
  after(async () => {
    await example?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('installs a real copy of the package, not a link into the repository', () => {
    const installed = join(app, 'node_modules/chatbot-widget');
    assert.equal(lstatSync(installed).isSymbolicLink(), false);
    assert.ok(!realpathSync(installed).startsWith(realpathSync(root)));
    assert.ok(existsSync(join(installed, 'dist/lib/server/adapters/express.js')));
    assert.ok(!existsSync(join(installed, 'src')), 'the packed file carries dist/, not the sources');
  });

  it('carries its license and the notices of the code its standalone widget bundles, as each package ships them', () => {
    const installed = join(app, 'node_modules/chatbot-widget');
    assert.match(readFileSync(join(installed, 'LICENSE'), 'utf8'), /^MIT License/);
    const notices = readFileSync(join(installed, 'THIRD-PARTY-NOTICES.md'), 'utf8');
    for (const license of [
      'lit/LICENSE',
      'lit-html/LICENSE',
      'lit-element/LICENSE',
      '@lit/reactive-element/LICENSE',
      'idb-keyval/LICENCE',
    ]) {
      assert.ok(notices.includes(readFileSync(join(root, 'node_modules', license), 'utf8').trim()), `${license} in THIRD-PARTY-NOTICES.md`);
    }
  });

  it('runs the example from the packed file: visitor, send, list, send limit', async () => {
    await driveConversation(example!, emulator, 'the packed package');
  });
});
