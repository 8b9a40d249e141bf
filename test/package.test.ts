// The published shape of the package: every entry of the exports map and every
// command resolves to a built file, and the Node entries export their public names.
// `npm install` builds dist/ (the `prepare` script), so these run against what users would get.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const built = existsSync(`${root}dist/lib`);
const notBuilt = 'dist/ is missing: run `npm run build` (npm install runs it too).';

test('the exports map has exactly the public entries of the package', () => {
  assert.deepEqual(Object.keys(pkg.exports).sort(), [
    '.',
    './client',
    './dist/chatbot-widget.js',
    './emulator',
    './package.json',
    './react',
    './server',
    './server/cloudflare',
    './server/deno-kv',
    './server/express',
    './server/fastify',
    './server/node',
    './server/redis',
    './svelte',
    './vue',
  ]);
  assert.equal(pkg.type, 'module');
  assert.deepEqual(Object.keys(pkg.bin).sort(), ['chatbot-api', 'chatbot-emulator']);
});

test('every entry and command points at a built file with type declarations, from an existing source', () => {
  assert.ok(built, notBuilt);
  for (const [entry, target] of Object.entries<string | { types: string; default: string }>(pkg.exports)) {
    if (typeof target === 'string') {
      assert.ok(existsSync(`${root}${target}`), `${entry} -> ${target}`);
      continue;
    }
    assert.ok(existsSync(`${root}${target.default}`), `${entry} -> ${target.default}`);
    assert.ok(existsSync(`${root}${target.types}`), `${entry} types -> ${target.types}`);
    const source = target.default.replace('./dist/lib/', 'src/').replace(/\.js$/, '.ts');
    assert.ok(existsSync(`${root}${source}`), `${entry} source ${source}`);
  }
  for (const [command, target] of Object.entries<string>(pkg.bin)) {
    assert.ok(existsSync(`${root}${target}`), `${command} -> ${target}`);
    assert.match(readFileSync(`${root}${target}`, 'utf8'), /^#!\/usr\/bin\/env node\n/, `${command} starts with a shebang`);
  }
});

// Through a variable, so type-checking the tests does not depend on dist/ having been built.
const importEntry = (specifier: string): Promise<Record<string, unknown>> => import(specifier);

test('the Node entries, imported by package name, export their public names', async () => {
  assert.ok(built, notBuilt);
  const client = await importEntry('chatbot-widget/client');
  assert.equal(typeof client.ChatbotClient, 'function');
  assert.equal(typeof client.sign, 'function');
  const server = await importEntry('chatbot-widget/server');
  assert.equal(typeof server.createSigningHandler, 'function');
  const express = await importEntry('chatbot-widget/server/express');
  assert.equal(typeof express.createExpressHandler, 'function');
  const node = await importEntry('chatbot-widget/server/node');
  assert.equal(typeof node.toNodeListener, 'function');
  assert.equal(typeof node.keepAliveFetch, 'function');
  const fastify = await importEntry('chatbot-widget/server/fastify');
  assert.equal(typeof fastify.fastifyChatbot, 'function');
  assert.equal(fastify.default, fastify.fastifyChatbot);
  const redis = await importEntry('chatbot-widget/server/redis');
  assert.equal(typeof redis.createRedisStore, 'function');
  const denoKv = await importEntry('chatbot-widget/server/deno-kv');
  assert.equal(typeof denoKv.createDenoKvStore, 'function');
  const emulator = await importEntry('chatbot-widget/emulator');
  assert.equal(typeof emulator.createEmulator, 'function');
});

test('the Workers entry exports the Durable Object class and its store, and imports nothing Workers lack', () => {
  // It imports `cloudflare:workers`, which only Workers resolve, so it is read rather than imported
  // here; test/server/stores/cloudflare-store.test.ts runs it under workerd.
  assert.ok(built, notBuilt);
  const source = readFileSync(`${root}${pkg.exports['./server/cloudflare'].default}`, 'utf8');
  assert.match(source, /export class ChatbotStore extends DurableObject/);
  assert.match(source, /export function createDurableObjectStore/);
  // What it imports, following its own files: only `cloudflare:workers` from outside.
  const outside = new Set<string>();
  const read = new Set<string>();
  const follow = (file: string) => {
    if (read.has(file)) return;
    read.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/^import .* from '([^']+)';$/gm)) {
      if (specifier!.startsWith('.')) follow(new URL(specifier!, `file://${file}`).pathname);
      else outside.add(specifier!);
    }
  };
  follow(`${root}${pkg.exports['./server/cloudflare'].default}`);
  assert.deepEqual([...outside], ['cloudflare:workers']);
  assert.ok(read.size > 1, 'its own files were followed');
});

test('the built commands run: chatbot-api --help, and a clear error without credentials', () => {
  assert.ok(built, notBuilt);
  const help = spawnSync(process.execPath, [`${root}${pkg.bin['chatbot-api']}`, '--help'], { encoding: 'utf8' });
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /usage/i);
  const env = { PATH: process.env.PATH ?? '' };
  const missing = spawnSync(process.execPath, [`${root}${pkg.bin['chatbot-api']}`, 'users'], { encoding: 'utf8', env });
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /CHATBOT_API_BASE_URL|CHATBOT_API_KEY|CHATBOT_API_SECRET|CHATBOT_ID/);
  const emulatorHelp = spawnSync(process.execPath, [`${root}${pkg.bin['chatbot-emulator']}`, '--help'], { encoding: 'utf8' });
  assert.equal(emulatorHelp.status, 0, emulatorHelp.stderr);
  assert.match(emulatorHelp.stdout, /--demo-data/);
});

test('the browser bundle holds no signing code and no secret-like string', () => {
  assert.ok(built, notBuilt);
  const bundle = readFileSync(`${root}dist/chatbot-widget.js`, 'utf8');
  assert.doesNotMatch(bundle, /sk_[A-Za-z0-9]{6,}|createHmac|importKey\(|subtle\.sign/);
  assert.doesNotMatch(bundle, /^\s*import\s.+from\s*['"][^./]/m, 'no bare imports: it loads with a plain script tag');
});
