// `npm start`'s static files over real HTTP: brotli or gzip as the request's Accept-Encoding asks
// (weights and refusals honoured), `Vary: Accept-Encoding` on every answer, a Content-Length that
// is the length of the bytes sent, and those bytes, decompressed, equal to the file on disk.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createStaticSite } from '../../demo/static-site.js';
import { chooseEncoding } from '../../demo/compression.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
let server: Server;
let port: number;

before(async () => {
  const site = await createStaticSite();
  server = createServer((req, res) => site.serve(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** One answer as it came over the wire: status, headers, the bytes sent (nothing decompressed). */
function raw(path: string, acceptEncoding?: string, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = request(
      { port, path, method, headers: acceptEncoding === undefined ? {} : { 'Accept-Encoding': acceptEncoding } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** What the demo page loads until its chat can open: the page, its styles, the widget and the chunks of the panel. */
function pageLoad(): [path: string, file: string][] {
  const files = readdirSync(join(root, 'dist'));
  const named = (name: string) => files.filter((file) => new RegExp(`^chatbot-widget-${name}-[\\w-]+\\.js$`).test(file));
  const [panel, ...others] = ['chat-panel', 'locales', 'en'].flatMap(named);
  assert.equal(others.length, 2, `the panel's chunk, the language table's and English's: ${[panel, ...others].join(', ')}`);
  // The chunks the panel's imports name (those it shares with lazier chunks), the entry aside.
  const imported = [...readFileSync(join(root, 'dist', panel!), 'utf8').matchAll(/from"\.\/(chatbot-widget-[\w-]+\.js)"/g)].map(
    (m) => m[1]!,
  );
  const chunks = [...new Set([panel!, ...others, ...imported])];
  return [
    ['/', join(root, 'demo/index.html')],
    ['/site.css', join(root, 'demo/site.css')],
    ['/chatbot-widget.js', join(root, 'dist/chatbot-widget.js')],
    ...chunks.map((name): [string, string] => [`/${name}`, join(root, 'dist', name)]),
  ];
}

const decoders = { br: brotliDecompressSync, gzip: gunzipSync, identity: (body: Buffer) => body };

test('each file is sent in the encoding asked for, its length that of the bytes sent, decompressing to the file', async () => {
  const cases: [acceptEncoding: string | undefined, expected: keyof typeof decoders][] = [
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['identity', 'identity'],
    [undefined, 'identity'],
  ];
  for (const [path, file] of pageLoad()) {
    const original = readFileSync(file);
    for (const [acceptEncoding, expected] of cases) {
      const answer = await raw(path, acceptEncoding);
      const what = `${path} with Accept-Encoding ${acceptEncoding ?? '(none)'}`;
      assert.equal(answer.status, 200, what);
      assert.equal(answer.headers['content-encoding'], expected === 'identity' ? undefined : expected, what);
      assert.equal(answer.headers.vary, 'Accept-Encoding', what);
      assert.equal(Number(answer.headers['content-length']), answer.body.length, `${what}: Content-Length`);
      assert.ok(decoders[expected](answer.body).equals(original), `${what}: the file, byte for byte`);
      // (A file of a few hundred bytes gains little; the others at least half.)
      if (expected !== 'identity' && original.length > 1_000) assert.ok(answer.body.length < original.length / 2, `${what}: compressed`);
    }
  }
});

test('HEAD tells the length of what GET sends in that encoding, and sends nothing', async () => {
  const get = await raw('/chatbot-widget.js', 'br');
  const head = await raw('/chatbot-widget.js', 'br', 'HEAD');
  assert.equal(head.headers['content-encoding'], 'br');
  assert.equal(head.headers['content-length'], String(get.body.length));
  assert.equal(head.body.length, 0);
});

test('the encoding is chosen by weight, brotli on a tie, refusals and wildcards honoured', () => {
  assert.equal(chooseEncoding('br, gzip'), 'br');
  assert.equal(chooseEncoding('gzip;q=1, br;q=1'), 'br');
  assert.equal(chooseEncoding('gzip;q=0.9, br;q=0.1'), 'gzip');
  assert.equal(chooseEncoding('br;q=0, gzip;q=0'), 'identity');
  assert.equal(chooseEncoding('*;q=0.5'), 'br');
  assert.equal(chooseEncoding('x-gzip'), 'gzip');
  assert.equal(chooseEncoding('deflate'), 'identity');
  assert.equal(chooseEncoding(''), 'identity');
});
