// The fault-injecting proxy the exactly-once tests stand on: it must really forward (signatures
// intact), really hold requests, and drop a connection only after upstream stored the message.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ChatbotClient } from '../../../src/client/index.js';
import { createEmulator, type Emulator } from '../../../src/emulator/index.js';
import { startFaultyUpstream, type FaultyUpstream } from '../../helpers/faulty-upstream.js';

const BOT = { id: 'bot_faulty', apiKey: 'pk_faulty_key', apiSecret: 'sk_faulty_secret_0123456789', tier: 'premium' as const };

describe('faulty upstream proxy', () => {
  let emulator: Emulator;
  let server: { url: string; close(): Promise<void> };
  let proxy: FaultyUpstream;
  let client: ChatbotClient;

  before(async () => {
    emulator = createEmulator({ db: ':memory:', chatbots: [BOT], replySource: { name: 'echo', reply: async (r) => `Echo: ${r.content}` } });
    server = await emulator.listen({ port: 0 });
    proxy = await startFaultyUpstream({ target: server.url });
    client = new ChatbotClient({ baseUrl: proxy.baseUrl, apiKey: BOT.apiKey, apiSecret: BOT.apiSecret, chatbotId: BOT.id, retry: false });
  });
  after(async () => {
    await proxy.close();
    await server.close();
    emulator.close();
  });

  const storedFor = async (userId: string) => (await client.listMessages({ userId })).data.length;

  it("forwards signed requests unchanged and answers with upstream's answer", async () => {
    const reply = await client.sendMessage({ user: { id: 'u_pass', name: 'P' }, message: { content: 'hello' } });
    assert.equal(reply.reply, 'Echo: hello');
    assert.equal(await storedFor('u_pass'), 2);
  });

  it('drops the connection after upstream stored the message', async () => {
    proxy.dropNext();
    await assert.rejects(client.sendMessage({ user: { id: 'u_drop', name: 'D' }, message: { content: 'lost answer' } }));
    await proxy.idle();
    assert.equal(await storedFor('u_drop'), 2, 'question and reply stored although the caller saw a drop');
    assert.equal(proxy.requests.filter((r) => r.outcome === 'dropped').length, 1);
  });

  it('holds a send before forwarding it: nothing is stored until the delay is over', async () => {
    proxy.configure({ delayBeforeMs: 600 });
    const sending = client.sendMessage({ user: { id: 'u_slow', name: 'S' }, message: { content: 'slow' } });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await storedFor('u_slow'), 0, 'not stored while held');
    await sending;
    assert.equal(await storedFor('u_slow'), 2);
    proxy.configure({ delayBeforeMs: 0 });
  });

  it('drops with a seeded probability: the same seed drops the same sends', async () => {
    const runOnce = async (seed: number) => {
      const seededProxy = await startFaultyUpstream({ target: server.url, dropProbability: 0.5, seed });
      const seededClient = new ChatbotClient({
        baseUrl: seededProxy.baseUrl,
        apiKey: BOT.apiKey,
        apiSecret: BOT.apiSecret,
        chatbotId: BOT.id,
        retry: false,
      });
      const pattern: boolean[] = [];
      for (let i = 0; i < 12; i++) {
        pattern.push(
          await seededClient.sendMessage({ user: { id: `u_seed${seed}`, name: 'S' }, message: { content: `n${i}` } }).then(
            () => false,
            () => true,
          ),
        );
      }
      await seededProxy.close();
      return pattern;
    };
    const first = await runOnce(7);
    assert.deepEqual(await runOnce(7), first);
    assert.ok(first.includes(true) && first.includes(false), `a mix of drops and answers: ${first}`);
  });
});
