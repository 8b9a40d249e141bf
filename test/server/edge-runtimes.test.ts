// The same handler on edge-style runtimes installed from the npm registry: Bun and Deno each
// serve the handler as docs/deployment.md shows (test/server/runtime/*-serve.ts) in front of the recording upstream on
// Node. The checks are the core promises: identity, signing verified independently (node:crypto
// against the runtime's Web Crypto), own data only, attacks refused before reaching upstream.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startRecordingUpstream, API_KEY, API_SECRET, CHATBOT_ID, type RecordingUpstream } from './helpers/recording-upstream.js';
import { jsonHeaders, newVisitor, rawRequest, visitorAttempt } from './helpers/handler-server.js';
import { bunBinary, denoBinary } from '../helpers/runtime-binaries.js';
import { freshLoopbackAddress } from '../helpers/fresh-addresses.js';
import { assertMinuteLimit } from '../helpers/minute-burst.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

const runtimes = [
  {
    name: 'Bun',
    binary: bunBinary,
    args: ['run', 'test/server/runtime/bun-serve.ts'],
  },
  {
    name: 'Deno',
    binary: denoBinary,
    // --sloppy-imports: the sources import './x.js' for './x.ts', as TypeScript's NodeNext wants.
    args: ['run', '--allow-net=127.0.0.1', '--allow-env', '--sloppy-imports', '--no-lock', 'test/server/runtime/deno-serve.ts'],
  },
];

for (const runtime of runtimes) {
  describe(`the handler under ${runtime.name}`, () => {
    let upstream: RecordingUpstream;
    let child: ChildProcess;
    let port: number;

    before(async () => {
      // A missing runtime fails the run (never a skip), saying how to install it.
      const binary = runtime.binary();
      upstream = await startRecordingUpstream();
      child = spawn(binary, runtime.args, {
        cwd: root,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          DENO_NO_UPDATE_CHECK: '1',
          CHATBOT_API_BASE_URL: upstream.baseUrl,
          CHATBOT_API_KEY: API_KEY,
          CHATBOT_API_SECRET: API_SECRET,
          CHATBOT_ID,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      port = await new Promise<number>((resolve, reject) => {
        let stdout = '';
        child.stdout!.on('data', (chunk: Buffer) => {
          stdout += chunk.toString();
          const match = /LISTENING (\d+)/.exec(stdout);
          if (match) resolve(Number(match[1]));
        });
        child.once('exit', (code) => reject(new Error(`${runtime.name} exited with ${code}: ${stderr}`)));
      });
    });
    after(async () => {
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill();
        await exited;
      }
      await upstream?.close();
    });

    it("issues identities, signs sends that the upstream verifies, and lists only the caller's messages", async () => {
      const alice = await newVisitor(port);
      const bob = await newVisitor(port);
      const sent = await rawRequest(port, {
        method: 'POST',
        path: '/chatbot/message',
        headers: jsonHeaders(alice.token),
        body: JSON.stringify({ content: `hello from ${runtime.name}`, userId: bob.userId }),
      });
      assert.equal(sent.status, 200, sent.text);
      assert.equal(sent.json.data, `You said: hello from ${runtime.name}`);
      assert.equal(sent.headers['cache-control'], 'no-store');
      const call = upstream.requests.at(-1)!;
      assert.ok(call.signatureValid, `signed with Web Crypto under ${runtime.name}, verified with node:crypto`);
      assert.equal(JSON.parse(call.body).user.id, alice.userId);
      assert.equal(call.headers.authorization, undefined);

      const bobsList = await rawRequest(port, { path: `/chatbot/messages?userId=${alice.userId}`, headers: jsonHeaders(bob.token) });
      assert.equal(bobsList.status, 200);
      assert.deepEqual(bobsList.json.data, []);
      const message = upstream.seed({ chatUserId: alice.userId, text: 'private' });
      const peek = await rawRequest(port, { path: `/chatbot/messages/${message.id}`, headers: jsonHeaders(bob.token) });
      assert.equal(peek.status, 404);
    });

    it('refuses attacks before anything reaches upstream', async () => {
      const visitor = await newVisitor(port);
      upstream.requests.length = 0;
      const attempts = await Promise.all([
        rawRequest(port, { path: '/chatbot/messages/%2e%2e%2fadmin%2fusers', headers: jsonHeaders(visitor.token) }),
        rawRequest(port, { path: '/chatbot/messages%5c..%5cadmin', headers: jsonHeaders(visitor.token) }),
        rawRequest(port, { path: '/chatbot/admin/users' }),
        rawRequest(port, { path: '/chatbot/sessions', headers: { Authorization: 'Bearer v1.forged.token' } }),
        rawRequest(port, { path: '/chatbot/sessions', headers: { ...jsonHeaders(visitor.token), Origin: 'https://evil.example' } }),
        rawRequest(port, {
          method: 'POST',
          path: '/chatbot/message',
          headers: { Authorization: `Bearer ${visitor.token}`, 'Content-Type': 'text/plain' },
          body: '{"content":"x"}',
        }),
        rawRequest(port, {
          method: 'POST',
          path: '/chatbot/message',
          headers: jsonHeaders(visitor.token),
          body: `{"content":"${'x'.repeat(30_000)}"}`,
          chunkSize: 2048,
        }),
      ]);
      assert.deepEqual(
        attempts.map((r) => r.status),
        [400, 400, 403, 401, 403, 415, 413],
      );
      assert.equal(upstream.requests.length, 0);
    });

    it("limits new visitors per connection address (from the runtime's own connection info)", async () => {
      // The limit is 3 a minute (the runtime's *-serve.ts), counted for the address the runtime
      // reports for the connection: from an address no request came from, 3 new visitors and a 429.
      await assertMinuteLimit(3, () => {
        const address = freshLoopbackAddress();
        return () => visitorAttempt(port, address);
      });
      assert.equal((await visitorAttempt(port, freshLoopbackAddress())).status, 200, 'another address has its own count');
    });
  });
}
