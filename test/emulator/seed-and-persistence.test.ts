// Seed import (`--seed`, all or nothing), persistence across restarts, the demo
// chatbot's kept credentials, demo data, and config loading.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, loadConfig, SeedError, ConfigError } from '../../src/emulator/index.js';
import { independentSignature } from '../helpers/independent-signer.js';
import { BOT_A, BOT_B, echoReplies, rawRequest } from './harness.js';

const dir = mkdtempSync(join(tmpdir(), 'emulator-seed-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let fileNumber = 0;
function seedFile(lines: (object | string)[]): string {
  const path = join(dir, `seed-${++fileNumber}.jsonl`);
  writeFileSync(path, lines.map((l) => (typeof l === 'string' ? l : JSON.stringify(l))).join('\n'));
  return path;
}

const line = (n: number, extra: object = {}) => ({
  id: `seed-${n}`,
  chatbotId: 'bot_a',
  chatSessionId: `s${n % 3}`,
  chatUserId: `user${n % 2}`,
  senderType: n % 2 ? 'Bot' : 'User',
  text: `text ${n}`,
  createdAt: `2025-02-${String((n % 27) + 1).padStart(2, '0')}T08:00:00Z`,
  ...extra,
});

function memoryEmulator() {
  const emulator = createEmulator({ db: ':memory:', chatbots: [BOT_A, BOT_B], replySource: echoReplies() });
  after(() => emulator.close());
  return emulator;
}

/** A signed GET of `path` (after the chatbot's prefix, query included) to an emulator listening on `port`. */
function signedGet(port: number, pathAndQuery: string, bot = BOT_A) {
  const path = `/api/Dev/${bot.id}/${pathAndQuery}`;
  const ts = Math.floor(Date.now() / 1000);
  return rawRequest(port, {
    method: 'GET',
    path,
    headers: {
      'X-API-Key': bot.apiKey,
      'X-Timestamp': String(ts),
      'X-Signature': independentSignature(bot.apiSecret, 'GET', path, '', ts),
    },
  });
}

async function total(emulator: ReturnType<typeof createEmulator>, bot = BOT_A): Promise<number> {
  const server = await emulator.listen({ port: 0 });
  try {
    return (await signedGet(server.port, 'messages', bot)).body.totalItems;
  } finally {
    await server.close();
  }
}

test('a valid seed imports every line, skips blank lines, fills in missing ids and token counts', async () => {
  const emulator = memoryEmulator();
  const { imported } = await emulator.importSeed(
    seedFile([line(1), '', '   ', line(2, { id: undefined }), line(3, { tokenCount: undefined, userName: 'Named' })]),
  );
  assert.equal(imported, 3);
  assert.equal(await total(emulator), 3);
});

test('a bad line refuses the whole file, naming its line number; nothing is imported', async () => {
  const cases: [(object | string)[], number, RegExp][] = [
    [[line(1), '{not json', line(2)], 2, /not valid JSON/],
    [[line(1), line(2), { ...line(3), createdAt: undefined }], 3, /createdAt/],
    [[line(1), { ...line(2), chatbotId: 'bot_unknown' }], 2, /unknown chatbotId/],
    [[line(1), line(2), line(1)], 3, /duplicate id/],
    [[line(1), { ...line(2), createdAt: '2025-02-30' }], 2, /ISO 8601/],
    [[line(1), { ...line(2), text: 5 }], 2, /"text" must be a string/],
    [[line(1), { ...line(2), tokenCount: -1 }], 2, /tokenCount/],
    [[line(1), { ...line(2), responseTime: 'fast' }], 2, /responseTime/],
    [[line(1), '[1,2]'], 2, /object/],
    [['', line(1), '', 'oops'], 4, /not valid JSON/],
  ];
  for (const [lines, lineNumber, reason] of cases) {
    const emulator = memoryEmulator();
    const path = seedFile(lines);
    await assert.rejects(
      emulator.importSeed(path),
      (error: unknown) => {
        assert.ok(error instanceof SeedError);
        assert.equal(error.line, lineNumber);
        assert.match(error.message, new RegExp(`line ${lineNumber}\\b`));
        assert.match(error.message, reason);
        assert.ok(error.message.includes(path), 'names the file');
        return true;
      },
      JSON.stringify(lines),
    );
    assert.equal(await total(emulator), 0, 'nothing of a refused file is imported');
  }
});

test('an id already in the database refuses the file; a valid file is added to what is there', async () => {
  const emulator = memoryEmulator();
  await emulator.importSeed(seedFile([line(1), line(2)]));
  await assert.rejects(emulator.importSeed(seedFile([line(3), line(2)])), /line 2: duplicate id "seed-2" \(already in the database\)/);
  assert.equal(await total(emulator), 2);
  await emulator.importSeed(seedFile([line(3), line(4)]));
  assert.equal(await total(emulator), 4);
});

test('a missing seed file is a SeedError that says so', async () => {
  await assert.rejects(
    memoryEmulator().importSeed(join(dir, 'nope.jsonl')),
    (e: unknown) => e instanceof SeedError && /no such file/.test(e.message),
  );
});

test('data and the demo chatbot’s credentials survive a restart on the same database file', async () => {
  const db = join(dir, 'nested', 'folder', 'emulator.sqlite');
  const first = createEmulator({ db, replySource: echoReplies() });
  const demo = first.chatbots[0]!;
  assert.match(demo.apiKey, /^pk_/);
  assert.match(demo.apiSecret, /^sk_/);
  await first.importSeed(seedFile([line(1, { chatbotId: demo.id }), line(2, { chatbotId: demo.id })]));
  first.close();

  const second = createEmulator({ db, replySource: echoReplies() });
  after(() => second.close());
  assert.deepEqual(second.chatbots, [demo], 'same id, key and secret');
  assert.equal(await total(second, demo), 2);

  const other = createEmulator({ db: join(dir, 'other.sqlite'), replySource: echoReplies() });
  after(() => other.close());
  assert.notEqual(other.chatbots[0]!.apiSecret, demo.apiSecret, 'another database gets its own credentials');
});

test('demo data: N realistic messages, the users and sessions derived from them', async () => {
  const emulator = memoryEmulator();
  const { generated } = await emulator.generateDemoData(300);
  assert.equal(generated, 300);
  assert.equal(await total(emulator), 300);
});

test('loadConfig: a good file, and clear errors for bad ones', () => {
  const good = join(dir, 'good.json');
  writeFileSync(good, JSON.stringify({ chatbots: [BOT_A, { ...BOT_B, dailyLimit: 5 }] }));
  assert.deepEqual(loadConfig(good), [BOT_A, { ...BOT_B, dailyLimit: 5 }]);
  const bad: [unknown, RegExp][] = [
    ['not json', /not valid JSON/],
    [[], /expected an object/],
    [{ chatbots: [] }, /non-empty array/],
    [{ chatbots: [{ ...BOT_A, apiKey: 'key' }] }, /chatbots\[0\]\.apiKey must be a string starting with "pk_"/],
    [{ chatbots: [{ ...BOT_A, apiSecret: 'secret' }] }, /apiSecret/],
    [{ chatbots: [{ ...BOT_A, tier: 'gold' }] }, /tier must be one of/],
    [{ chatbots: [{ ...BOT_A, id: 'has space' }] }, /\.id must be/],
    [{ chatbots: [BOT_A, BOT_A] }, /listed twice/],
    [{ chatbots: [BOT_A, { ...BOT_B, apiKey: BOT_A.apiKey }] }, /already used/],
    [{ chatbots: [{ ...BOT_A, tier: 'enterprise' }] }, /needs a dailyLimit/],
    [{ chatbots: [{ ...BOT_A, dailyLimit: -1 }] }, /dailyLimit/],
  ];
  for (const [content, message] of bad) {
    const path = join(dir, `bad-${fileNumber++}.json`);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    assert.throws(
      () => loadConfig(path),
      (e: unknown) => e instanceof ConfigError && message.test(e.message) && e.message.includes(path),
    );
  }
  assert.throws(() => loadConfig(join(dir, 'missing.json')), /no such file/);
});

test('a seed stores any sender upstream may have (Agent, System, one never named) and serves it as stored: not user-sent, no response time', async () => {
  const emulator = memoryEmulator();
  const senders = ['User', 'Bot', 'Agent', 'System', 'Moderator'];
  await emulator.importSeed(
    seedFile(
      senders.map((senderType, i) =>
        line(100 + i, { chatSessionId: 's-senders', chatUserId: 'user-senders', senderType, createdAt: `2025-03-01T08:00:0${i}Z` }),
      ),
    ),
  );
  const server = await emulator.listen({ port: 0 });
  try {
    const get = async (pathAndQuery: string) => {
      const res = await signedGet(server.port, pathAndQuery);
      assert.equal(res.status, 200);
      return res.body;
    };
    const listed = await get('messages?sessionId=s-senders');
    // Newest first, each with the sender it was stored with.
    assert.deepEqual(
      listed.data.map((m: { senderType: string }) => m.senderType),
      [...senders].reverse(),
    );
    for (const m of listed.data as { senderType: string; responseTime: unknown }[])
      assert.equal(m.responseTime, null, `${m.senderType}: null response time in a list (only Bot messages have one)`);
    const range = 'from=2025-03-01&to=2025-03-02';
    assert.equal((await get(`messages/count?${range}&sent=true`)).data, 1, 'only User is user-sent');
    assert.equal((await get(`messages/count?${range}&sent=false`)).data, 4, 'Bot, Agent, System and the unnamed one are not');
  } finally {
    await server.close();
  }
});
