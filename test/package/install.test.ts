// What a site owner gets from `npm install <the packed package>` in an empty project: no native
// build and no install script, only the widget's, client's and handler's own dependencies (the
// emulator's come with one documented command, docs/install.md), every entry importable in Node,
// and a clear message with that command from the emulator when its dependencies are missing.
// Offline-safe: npm takes the packages from its cache (--prefer-offline).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packedPackage } from '../helpers/packed-package.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
/** The install targets of the package (the ceiling for widget + client + handler users: the package stays small to install). */
const MAX_PACKAGES = 12;
const MAX_BYTES = 8 * 1024 * 1024;
const EMULATOR_COMMAND = 'npm install better-sqlite3 gpt-tokenizer minisearch';
/** Entries that cannot load in Node alone, and why. */
const NOT_FOR_NODE: Record<string, string> = {
  './dist/chatbot-widget.js': 'the standalone browser file (it draws into `document` when loaded)',
  './server/cloudflare':
    'the Durable Object store imports `cloudflare:workers`, which only workerd provides (run under wrangler by test/server/stores/cloudflare-store.test.ts)',
};
/** Entries whose framework the site owner installs (optional peer dependencies). */
const NEEDS: Record<string, string> = { './react': 'react' };

const npm = (cwd: string, args: string[]) => {
  const result = spawnSync('npm', [...args, '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=warn'], { cwd, encoding: 'utf8' });
  assert.equal(result.status, 0, `npm ${args.join(' ')}:\n${result.stdout}${result.stderr}`);
  return `${result.stdout}${result.stderr}`;
};

/** Every installed package (`name@version`) under node_modules, scoped ones included. */
function installed(modules: string): Array<{ name: string; dir: string }> {
  return readdirSync(modules)
    .filter((entry) => !entry.startsWith('.'))
    .flatMap((entry) => (entry.startsWith('@') ? readdirSync(join(modules, entry)).map((sub) => `${entry}/${sub}`) : [entry]))
    .map((name) => ({ name, dir: join(modules, name) }));
}

function bytes(path: string): number {
  const stat = statSync(path);
  return stat.isDirectory() ? readdirSync(path).reduce((sum, entry) => sum + bytes(join(path, entry)), 0) : stat.size;
}

test('npm install of the packed package: no install script, no native build, few packages, every entry loads', () => {
  const work = mkdtempSync(join(tmpdir(), 'chatbot-widget-install-'));
  try {
    const tarball = packedPackage();
    const site = join(work, 'site');
    mkdirSync(site);
    writeFileSync(join(site, 'package.json'), JSON.stringify({ name: 'site', private: true, type: 'module' }));
    const output = npm(site, ['install', tarball]);

    const modules = join(site, 'node_modules');
    const packages = installed(modules);
    const names = packages.map((p) => p.name);
    assert.ok(packages.length <= MAX_PACKAGES, `${packages.length} packages installed (at most ${MAX_PACKAGES}): ${names.join(', ')}`);
    const size = bytes(modules);
    assert.ok(size <= MAX_BYTES, `${(size / 1048576).toFixed(1)} MB installed (at most 8 MB)`);
    for (const emulatorOnly of ['better-sqlite3', 'gpt-tokenizer', 'minisearch'])
      assert.ok(!names.includes(emulatorOnly), `${emulatorOnly} is not installed`);

    // No package has an install script or a native addon to build; the package's own `prepare`
    // (which builds a clone of the repository) did not run: its build script is not even shipped.
    for (const { name, dir } of packages) {
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      const scripts = Object.keys(manifest.scripts ?? {}).filter((script) => ['preinstall', 'install', 'postinstall'].includes(script));
      assert.deepEqual(scripts, [], `${name} has no install script`);
      assert.ok(!existsSync(join(dir, 'binding.gyp')), `${name} builds nothing native`);
    }
    assert.doesNotMatch(output, /> chatbot-widget@[^ ]+ (prepare|install|postinstall)/);
    assert.ok(!existsSync(join(modules, 'chatbot-widget/scripts')), 'the build script is not shipped');
    assert.ok(existsSync(join(modules, 'chatbot-widget', pkg.customElements)), 'custom-elements.json is shipped');

    // The React entry needs React, an optional peer: installed as a site using React would.
    npm(site, ['install', 'react']);
    for (const entry of Object.keys(pkg.exports)) {
      if (NOT_FOR_NODE[entry] || entry === './package.json') continue;
      const specifier = `chatbot-widget${entry.slice(1)}`;
      const result = spawnSync(
        process.execPath,
        ['--input-type=module', '-e', `const m = await import('${specifier}'); if (!Object.keys(m).length) throw new Error('no exports')`],
        {
          cwd: site,
          encoding: 'utf8',
        },
      );
      assert.equal(result.status, 0, `import('${specifier}')${NEEDS[entry] ? ` (with ${NEEDS[entry]})` : ''}:\n${result.stderr}`);
    }

    // The emulator without its dependencies: the one command that installs them, no stack trace.
    const cli = spawnSync(process.execPath, [join(modules, 'chatbot-widget', pkg.bin['chatbot-emulator']), '--port', '0'], {
      cwd: site,
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(cli.status, 1);
    assert.ok(cli.stderr.includes(EMULATOR_COMMAND), cli.stderr);
    assert.doesNotMatch(cli.stderr, /^\s+at /m, 'no stack trace');
    const library = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { createEmulator } from 'chatbot-widget/emulator'; try { createEmulator(); } catch (e) { console.log(e.name + ': ' + e.message); }",
      ],
      { cwd: site, encoding: 'utf8' },
    );
    assert.match(library.stdout, /^EmulatorDependencyError: .*better-sqlite3.*gpt-tokenizer.*minisearch/);
    assert.ok(library.stdout.includes(EMULATOR_COMMAND), library.stdout);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});
