// The rated answers of <chatbot-usage> (src/chatbot-usage/rated-answers.ts) against the real
// signing handler and emulator over loopback HTTP: each rating gets the bot message it rates and
// the visitor's question just before it, read from the session's messages (newest first, 100 a
// page): across a page boundary, at the session's very start, for an answer the session no
// longer holds, and with one read of a session however many of its answers are rated.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { adminTokenAuthorizer, createSigningHandler } from '../../src/server/index.js';
import { toNodeListener } from '../../src/server/adapters/node.js';
import { AdminApi } from '../../src/chatbot-usage/admin-api.js';
import { ratedAnswers } from '../../src/chatbot-usage/rated-answers.js';
import type { FeedbackItem } from '../../src/shared/types.js';

const BOT = { id: 'bot_rated', apiKey: 'pk_rated', apiSecret: 'sk_rated_secret', tier: 'premium' as const };
const TOKEN = 'rated-admin-token-0123456789';
const PAIRS = 65;
let emulator: Emulator;
let upstream: { url: string; close(): Promise<void> };
let server: Server;
let base: string;

before(async () => {
  emulator = createEmulator({ db: ':memory:', chatbots: [BOT], replySource: { name: 'none', reply: async () => 'ok' } });
  upstream = await emulator.listen({ port: 0, host: '127.0.0.1' });
  // One long session: 65 questions each answered, then one last question not answered yet
  // (131 messages). Newest first, answer K is at 2 × (64 − K) + 1 and its question right after.
  const start = Date.UTC(2026, 0, 5);
  const line = (id: string, senderType: string, text: string, at: number) =>
    JSON.stringify({
      id,
      chatbotId: BOT.id,
      chatSessionId: 'long',
      chatUserId: 'ada',
      userName: 'Ada',
      senderType,
      text,
      createdAt: new Date(at).toISOString(),
    });
  const lines: string[] = [];
  for (let k = 0; k < PAIRS; k++) {
    lines.push(line(`q${k}`, 'User', `question ${k}`, start + k * 2_000));
    lines.push(line(`a${k}`, 'Bot', `answer ${k}`, start + k * 2_000 + 1_000));
  }
  lines.push(line('q-last', 'User', 'the last question', start + PAIRS * 2_000));
  lines.push(
    JSON.stringify({
      id: 'other-a',
      chatbotId: BOT.id,
      chatSessionId: 'short',
      chatUserId: 'ben',
      userName: 'Ben',
      senderType: 'Bot',
      text: 'a greeting',
      createdAt: new Date(start).toISOString(),
    }),
  );
  const file = join(mkdtempSync(join(tmpdir(), 'rated-seed-')), 'seed.jsonl');
  writeFileSync(file, lines.join('\n'));
  await emulator.importSeed(file);
  server = createServer(
    toNodeListener(
      createSigningHandler({
        apiBaseUrl: upstream.url,
        apiKey: BOT.apiKey,
        apiSecret: BOT.apiSecret,
        chatbotId: BOT.id,
        basePath: '/chatbot',
        authorizeAdmin: adminTokenAuthorizer(TOKEN),
        logger: { warn() {}, error() {} },
      }),
    ),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/chatbot`;
});

after(async () => {
  await new Promise((resolve) => server.close(resolve));
  await upstream.close();
  emulator.close();
});

const rating = (messageId: string, chatSessionId: string, value: 'up' | 'down' = 'down'): FeedbackItem => ({
  messageId,
  value,
  comment: null,
  chatUserId: chatSessionId === 'long' ? 'ada' : 'ben',
  chatSessionId,
  createdAt: '2026-01-06T00:00:00.000Z',
});

/** Counts the admin reads of session messages the calls make. */
function countReads() {
  const original = globalThis.fetch;
  const pages: string[] = [];
  globalThis.fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    if (url.pathname.endsWith('/admin/messages')) pages.push(`${url.searchParams.get('sessionId')}:${url.searchParams.get('page')}`);
    return original(input, init);
  };
  return { pages, stop: () => void (globalThis.fetch = original) };
}

test('each rated answer gets its question, across a page boundary and at the start of the session; one read per session', async () => {
  const api = new AdminApi(base, TOKEN, new AbortController().signal);
  const reads = countReads();
  try {
    const answers = await ratedAnswers(api, [
      rating('a64', 'long'), // the newest answer, first page
      rating('a15', 'long', 'up'), // the last message of page 1: its question opens page 2
      rating('a0', 'long'), // the session's first answer, on page 2
      rating('other-a', 'short'), // a bot message with no question before it
      rating('gone', 'long'), // not (or no longer) in its session
    ]);
    assert.deepEqual(
      answers.map((a) => [a.rating.messageId, a.answer?.text, a.question?.text, a.position]),
      [
        ['a64', 'answer 64', 'question 64', 1],
        ['a15', 'answer 15', 'question 15', 99],
        ['a0', 'answer 0', 'question 0', 129],
        ['other-a', 'a greeting', undefined, 0],
        ['gone', undefined, undefined, undefined],
      ],
    );
    assert.deepEqual(reads.pages.sort(), ['long:1', 'long:2', 'short:1'], 'each page of a session read once');
  } finally {
    reads.stop();
  }
});

test('a session whose rated answers are all on its first page is read once', async () => {
  const api = new AdminApi(base, TOKEN, new AbortController().signal);
  const reads = countReads();
  try {
    const [answer] = await ratedAnswers(api, [rating('a60', 'long')]);
    assert.equal(answer?.question?.text, 'question 60');
    assert.deepEqual(reads.pages, ['long:1']);
  } finally {
    reads.stop();
  }
});
