import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOpenAIReplySource, DEFAULT_SYSTEM_PROMPT, type ReplyRequest } from '../../../src/emulator/replies/index.js';
import { refusedOrigin } from '../../helpers/refused-port.js';

// A local stand-in for an OpenAI-compatible server (the real one cannot be reached from here): it
// checks the credential, records each request, and answers according to the model name.
const API_KEY = 'sk-test-very-secret-key-123';
interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  contentType: string | undefined;
  body: { model: string; messages: { role: string; content: string }[] };
}
const seen: Seen[] = [];
let server: Server;
let baseUrl: string;

function handle(req: IncomingMessage, res: ServerResponse, raw: string): void {
  const send = (status: number, body: string, type = 'application/json'): void => {
    res.writeHead(status, { 'Content-Type': type });
    res.end(body);
  };
  if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
    return send(404, JSON.stringify({ error: { message: `no route ${req.url}` } }));
  if (req.headers.authorization !== `Bearer ${API_KEY}`) {
    // Like some real servers, it echoes the refused key: the source must not pass it on.
    return send(401, JSON.stringify({ error: { message: `Incorrect API key provided: ${req.headers.authorization?.slice(7)}` } }));
  }
  const body = JSON.parse(raw) as Seen['body'];
  seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, contentType: req.headers['content-type'], body });
  switch (body.model) {
    case 'echo-model': {
      const last = body.messages[body.messages.length - 1]!;
      return send(
        200,
        JSON.stringify({
          id: 'c1',
          object: 'chat.completion',
          choices: [{ index: 0, message: { role: 'assistant', content: `You said: ${last.content}` }, finish_reason: 'stop' }],
        }),
      );
    }
    case 'parts-model':
      return send(
        200,
        JSON.stringify({
          choices: [
            {
              message: {
                role: 'assistant',
                content: [
                  { type: 'text', text: 'Hello ' },
                  { type: 'text', text: 'there' },
                ],
              },
            },
          ],
        }),
      );
    case 'overloaded-model':
      return send(503, JSON.stringify({ error: { message: 'The model is overloaded, try again later' } }));
    case 'html-model':
      return send(200, '<html>gateway</html>', 'text/html');
    case 'empty-model':
      return send(200, JSON.stringify({ choices: [] }));
    case 'slow-model':
      setTimeout(() => send(200, JSON.stringify({ choices: [{ message: { content: 'late' } }] })), 2_000).unref();
      return;
    default:
      return send(400, JSON.stringify({ error: { message: `unknown model ${body.model}` } }));
  }
}

before(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => handle(req, res, raw));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function request(content: string, history: ReplyRequest['history'] = []): ReplyRequest {
  return { chatbotId: 'bot_a', userId: 'u1', userName: 'Ada', sessionId: 's1', content, history };
}

test('posts the model and the session as context, oldest first, and returns the completion', async () => {
  seen.length = 0;
  const source = createOpenAIReplySource({ baseUrl: `${baseUrl}/`, model: 'echo-model', apiKey: API_KEY });
  assert.equal(source.name, 'openai:echo-model');
  const reply = await source.reply(
    request('And on mobile?', [
      { senderType: 'User', text: 'How do I embed the widget?' },
      { senderType: 'Bot', text: 'Add the script tag.' },
      { senderType: 'User', text: 'Thanks' },
      { senderType: 'Bot', text: 'Welcome!' },
    ]),
  );
  assert.equal(reply, 'You said: And on mobile?');
  assert.equal(seen.length, 1);
  const [call] = seen;
  assert.equal(call!.url, '/v1/chat/completions', 'a trailing slash on baseUrl is not doubled');
  assert.equal(call!.authorization, `Bearer ${API_KEY}`);
  assert.match(call!.contentType ?? '', /^application\/json/);
  assert.equal(call!.body.model, 'echo-model');
  assert.deepEqual(call!.body.messages, [
    { role: 'system', content: DEFAULT_SYSTEM_PROMPT },
    { role: 'user', content: 'How do I embed the widget?' },
    { role: 'assistant', content: 'Add the script tag.' },
    { role: 'user', content: 'Thanks' },
    { role: 'assistant', content: 'Welcome!' },
    { role: 'user', content: 'And on mobile?' },
  ]);
});

test('keeps only the most recent history, uses the given system prompt, mentions an attached file', async () => {
  seen.length = 0;
  const source = createOpenAIReplySource({ baseUrl, model: 'echo-model', apiKey: API_KEY, systemPrompt: 'Be terse.', maxHistory: 2 });
  const history = Array.from({ length: 6 }, (_, i) => ({ senderType: i % 2 ? 'Bot' : 'User', text: `m${i}` }));
  await source.reply({ ...request('see this', history), file: 'https://example.com/shot.png' });
  assert.deepEqual(seen[0]!.body.messages, [
    { role: 'system', content: 'Be terse.' },
    { role: 'user', content: 'm4' },
    { role: 'assistant', content: 'm5' },
    { role: 'user', content: 'see this\n\n(Attached file: https://example.com/shot.png)' },
  ]);
});

test('joins the text parts of a content array', async () => {
  const source = createOpenAIReplySource({ baseUrl, model: 'parts-model', apiKey: API_KEY });
  assert.equal(await source.reply(request('hi')), 'Hello there');
});

test('a refused key gives a clear error that never contains the key', async () => {
  const wrongKey = 'sk-wrong-key-456';
  const source = createOpenAIReplySource({ baseUrl, model: 'echo-model', apiKey: wrongKey });
  await assert.rejects(source.reply(request('hi')), (error: Error) => {
    assert.match(error.message, /HTTP 401 Unauthorized: Incorrect API key provided: \[redacted\]/);
    assert.ok(!error.message.includes(wrongKey));
    assert.ok(!JSON.stringify(error, Object.getOwnPropertyNames(error)).includes(wrongKey));
    return true;
  });
});

test("HTTP errors name the status and the endpoint's own message", async () => {
  const source = createOpenAIReplySource({ baseUrl, model: 'overloaded-model', apiKey: API_KEY });
  await assert.rejects(source.reply(request('hi')), (error: Error) => {
    assert.match(error.message, /HTTP 503 Service Unavailable: The model is overloaded, try again later/);
    assert.match(error.message, /\/v1\/chat\/completions, model overloaded-model/);
    assert.ok(!error.message.includes(API_KEY));
    return true;
  });
});

test('a body that is not JSON, or has no completion, is an error saying so', async () => {
  await assert.rejects(
    createOpenAIReplySource({ baseUrl, model: 'html-model', apiKey: API_KEY }).reply(request('hi')),
    /not JSON \(starts with "<html>gateway<\/html>"\)/,
  );
  await assert.rejects(
    createOpenAIReplySource({ baseUrl, model: 'empty-model', apiKey: API_KEY }).reply(request('hi')),
    /no choices\[0\]\.message\.content/,
  );
});

test('a slow endpoint times out with a clear error', async () => {
  const source = createOpenAIReplySource({ baseUrl, model: 'slow-model', apiKey: API_KEY, timeoutMs: 100 });
  await assert.rejects(source.reply(request('hi')), /no answer within 100 ms/);
});

test('a cancelled reply says it was cancelled', async () => {
  const source = createOpenAIReplySource({ baseUrl, model: 'slow-model', apiKey: API_KEY });
  const controller = new AbortController();
  const pending = source.reply(request('hi'), controller.signal);
  setTimeout(() => controller.abort(), 20);
  await assert.rejects(pending, /the reply was cancelled/);
});

test('an unreachable endpoint is an error naming it, without the key', async () => {
  const origin = await refusedOrigin();
  const source = createOpenAIReplySource({ baseUrl: `${origin}/v1`, model: 'm', apiKey: API_KEY });
  await assert.rejects(source.reply(request('hi')), (error: Error) => {
    assert.ok(error.message.includes(`${origin}/v1/chat/completions`), error.message);
    assert.match(error.message, /could not reach the endpoint/);
    assert.ok(!error.message.includes(API_KEY));
    return true;
  });
});

test('bad options are refused at creation', () => {
  assert.throws(
    () => createOpenAIReplySource({ baseUrl: 'localhost:11434', model: 'm', apiKey: 'k' }),
    /baseUrl must be an (absolute|http)/,
  );
  assert.throws(() => createOpenAIReplySource({ baseUrl: 'ftp://x/v1', model: 'm', apiKey: 'k' }), /http or https/);
  assert.throws(() => createOpenAIReplySource({ baseUrl, model: '', apiKey: 'k' }), /model name is required/);
  assert.throws(() => createOpenAIReplySource({ baseUrl, model: 'm', apiKey: '' }), /API key is required/);
  assert.throws(() => createOpenAIReplySource({ baseUrl, model: 'm', apiKey: 'k', timeoutMs: 0 }), /timeoutMs/);
});
