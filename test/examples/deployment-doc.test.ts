// docs/deployment.md shows each example's files verbatim (the files the runtime tests run), and
// every example has what its README promises: a README, a package.json that installs
// chatbot-widget from the repository path (never a registry version), and no secret committed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { examplesDir, root } from './support/run-example.js';

const doc = readFileSync(join(root, 'docs/deployment.md'), 'utf8');
const SHOWN = [
  'express/server.js',
  'fastify/server.js',
  'node/server.js',
  'hono/server.js',
  'nextjs/app/chatbot/[...path]/route.ts',
  'cloudflare-workers/src/index.ts',
  'cloudflare-workers/wrangler.toml',
  'deno/deno.json',
  'deno/main.ts',
  'bun/server.ts',
];
const EXAMPLES = ['express', 'fastify', 'node', 'hono', 'nextjs', 'cloudflare-workers', 'deno', 'bun'];

test('docs/deployment.md holds every example file it shows, verbatim', () => {
  for (const file of SHOWN) {
    const text = readFileSync(join(examplesDir, file), 'utf8').trimEnd();
    assert.ok(doc.includes(`\n${text}\n\`\`\``), `docs/deployment.md does not show examples/${file} as it is`);
  }
});

test('every example installs chatbot-widget from the repository, reads the CHATBOT_* variables and has a README with its commands', () => {
  for (const name of EXAMPLES) {
    const manifest = JSON.parse(readFileSync(join(examplesDir, name, 'package.json'), 'utf8'));
    assert.equal(manifest.dependencies['chatbot-widget'], 'file:../..', `${name}: chatbot-widget from the repository path`);
    const readme = readFileSync(join(examplesDir, name, 'README.md'), 'utf8');
    assert.match(readme, /```sh\nnpm install\n/, `${name}: README starts its commands with npm install`);
    assert.match(readme, /npm pack/, `${name}: README says how to use the packed file`);
    assert.match(readme, /## Client address/, `${name}: README names the client address source`);
    const sources = SHOWN.filter((f) => f.startsWith(`${name}/`))
      .map((f) => readFileSync(join(examplesDir, f), 'utf8'))
      .join('\n');
    for (const variable of ['CHATBOT_API_BASE_URL', 'CHATBOT_API_KEY', 'CHATBOT_API_SECRET', 'CHATBOT_ID']) {
      assert.ok(sources.includes(variable), `${name} reads ${variable}`);
    }
    assert.doesNotMatch(sources, /sk_[A-Za-z0-9]/, `${name}: no secret in the code`);
  }
  assert.ok(existsSync(join(examplesDir, 'README.md')));
});
