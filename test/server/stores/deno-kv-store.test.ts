// The Deno KV store under real Deno (the `deno` npm package): test/server/stores/deno/
// run-store-cases.ts runs every shared store case and Deno KV's own checks in one Deno process,
// and each becomes a test here. A missing Deno fails with how to install it; nothing is skipped.
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { STORE_CASES } from './store-conformance.js';
import { FEEDBACK_LISTING_CASE_NAME } from './feedback-listing-case.js';
import { assertCasePassed, runCases, type CaseOutcome } from './case-report.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const deno = ['node_modules/deno/deno', 'node_modules/.bin/deno'].map((p) => root + p).find((p) => existsSync(p));

const OWN_CHECKS = [
  'two databases handles on one file (two instances) share counters and records',
  'an entry past its expiry that KV has not deleted yet counts as absent',
  "keys live under the prefix, so the app's own keys stay apart",
  FEEDBACK_LISTING_CASE_NAME,
];

describe('createDenoKvStore under Deno', () => {
  let outcomes: Map<string, CaseOutcome>;
  before(async () => {
    assert.ok(deno, 'Deno is not installed: `npm install` installs it (the "deno" devDependency, whose install script must be allowed).');
    const dir = mkdtempSync(join(tmpdir(), 'chatbot-deno-kv-'));
    try {
      outcomes = await runCases(
        deno,
        // --unstable-kv: Deno.openKv is still behind this flag in Deno 2; the KV file is the only thing it may touch.
        [
          'run',
          '--unstable-kv',
          '--sloppy-imports',
          '--no-lock',
          `--allow-read=${dir}`,
          `--allow-write=${dir}`,
          'test/server/stores/deno/run-store-cases.ts',
          join(dir, 'store.sqlite'),
        ],
        { cwd: root, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' } },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const name of [...STORE_CASES.map((check) => check.name), ...OWN_CHECKS]) {
    it(name, () => assertCasePassed(outcomes, name));
  }

  it('refuses something that is not a Deno KV database, saying how to open one', async () => {
    const { createDenoKvStore } = await import('../../../src/server/stores/deno-kv.js');
    assert.throws(() => createDenoKvStore({} as never), /Deno\.openKv\(\).*--unstable-kv/);
  });
});
