// Every example is meant to be copied out as a project of its own: its own .gitignore must keep
// the files that hold the API secret (and local state) out of version control. Each example is
// copied to a scratch folder, made a repository of its own, and asked with `git check-ignore`.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const examplesDir = join(root, 'examples');
// The example projects: folders with a README (not the dependencies the example tests install beside them).
const examples = readdirSync(examplesDir).filter(
  (name) => name !== 'node_modules' && statSync(join(examplesDir, name)).isDirectory() && existsSync(join(examplesDir, name, 'README.md')),
);

/** Local-secrets files every example's repository ignores, and those of one runtime. */
const SECRETS = ['.env', '.env.local', '.env.production.local', 'node_modules/some-package/index.js'];
const RUNTIME_SECRETS: Record<string, string[]> = {
  'cloudflare-workers': ['.dev.vars', '.dev.vars.production', '.wrangler/state/v3/do/data.sqlite'],
  deno: ['chatbot.kv', 'chatbot.kv-wal', 'chatbot.kv-shm'],
};
/** Files the examples ship that must stay committed. */
const KEPT = ['.env.example', '.dev.vars.example', 'README.md', 'package.json'];

/** Git without this machine's own settings: a global excludes file must not make a test pass. */
const env = { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' };

/**
 * Which of `paths` git ignores in the repository at `cwd` (the files need not exist): one
 * `git check-ignore` for all of them, which prints each ignored path it was given. A git process
 * per path would cost most of this file's time.
 */
function ignoredAmong(cwd: string, paths: string[]): Set<string> {
  const result = spawnSync('git', ['check-ignore', '--no-index', '--stdin', '-z'], { cwd, env, input: paths.join('\0'), encoding: 'utf8' });
  if (result.status !== 0 && result.status !== 1) throw new Error(`git check-ignore failed: ${result.stderr}`);
  return new Set(result.stdout.split('\0').filter(Boolean));
}

describe('example secrets are git-ignored', () => {
  for (const example of examples) {
    it(`${example}: copied out as its own repository, its secrets files are ignored and its own files are not`, () => {
      const scratch = mkdtempSync(join(tmpdir(), `chatbot-example-${example}-`));
      try {
        cpSync(join(examplesDir, example), scratch, {
          recursive: true,
          filter: (source) => !/[/\\](node_modules|\.wrangler|\.next|dist)([/\\]|$)/.test(source.slice(examplesDir.length)),
        });
        execFileSync('git', ['init', '-q'], { cwd: scratch, env });
        const secrets = [...SECRETS, ...(RUNTIME_SECRETS[example] ?? [])];
        const ignored = ignoredAmong(scratch, [...secrets, ...KEPT]);
        for (const path of secrets) assert.ok(ignored.has(path), `${example}: ${path} would be committed`);
        for (const path of KEPT) assert.ok(!ignored.has(path), `${example}: ${path} would be left out`);
      } finally {
        rmSync(scratch, { recursive: true, force: true });
      }
    });
  }

  it('inside this repository, the root .gitignore keeps them out as well', () => {
    const secrets = examples.flatMap((example) =>
      [...SECRETS, ...(RUNTIME_SECRETS[example] ?? [])].map((path) => `examples/${example}/${path}`),
    );
    const rootSecrets = ['.env', '.dev.vars', 'chatbot.kv'];
    const kept = 'examples/cloudflare-workers/.dev.vars.example';
    const ignored = ignoredAmong(root, [...secrets, ...rootSecrets, kept]);
    for (const path of secrets) assert.ok(ignored.has(path), `${path} would be committed`);
    for (const path of rootSecrets) assert.ok(ignored.has(path), `${path} would be committed`);
    assert.ok(!ignored.has(kept));
  });
});
