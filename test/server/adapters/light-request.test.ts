// The light Request the Node adapters hand the handler: for every member the handler reads, and
// for what a site's own callbacks may read, it answers as a real Request made from the same Node
// request would (the real one gets the same body as a Web stream). Each case runs both side by side.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { toWebRequest } from '../../../src/server/adapters/node-request.js';
import { messageStream } from '../../../src/server/adapters/body-bytes.js';
import { listen } from '../helpers/handler-server.js';

const RAW_HEADERS = ['Host', 'chat.example', 'Content-Type', 'application/json', 'X-Note', '  one ', 'x-note', 'two', 'Cookie', 'sid=1'];

/** A Node request as the adapters receive one, its body in `chunks`. */
function nodeRequest(method: string, chunks: (string | Uint8Array)[], rawHeaders = RAW_HEADERS): IncomingMessage {
  return Object.assign(Readable.from(chunks.map((chunk) => Buffer.from(chunk))), {
    method,
    url: '/chatbot/message?x=1',
    headers: { host: 'chat.example' },
    rawHeaders,
    socket: { remoteAddress: '127.0.0.1' },
  }) as unknown as IncomingMessage;
}

/** The real Request for a Node request: its URL, method and headers, its body as a Web stream. */
function realRequest(message: IncomingMessage): Request {
  const pairs: [string, string][] = [];
  for (let i = 0; i < message.rawHeaders.length; i += 2) pairs.push([message.rawHeaders[i]!, message.rawHeaders[i + 1]!]);
  const hasBody = message.method !== 'GET' && message.method !== 'HEAD';
  return new Request(toWebRequest(message).request.url, {
    method: message.method,
    headers: pairs,
    ...(hasBody ? { body: messageStream(message), duplex: 'half' } : {}),
  } as RequestInit);
}

/** The light and the real Request for two Node requests alike: `method`, body in `chunks`. */
function pair(method: string, chunks: (string | Uint8Array)[], rawHeaders?: string[]): { light: Request; real: Request } {
  return {
    light: toWebRequest(nodeRequest(method, chunks, rawHeaders)).request,
    real: realRequest(nodeRequest(method, chunks, rawHeaders)),
  };
}

/** What `read` gives, or the name of what it throws. */
async function outcome(read: () => unknown): Promise<unknown> {
  try {
    return await read();
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
}

describe('the light Request', () => {
  it('answers method, URL, headers and the rest of a Request as the real one does', async () => {
    const { light, real } = pair('POST', ['{"content":"hi"}']);
    assert.ok(light instanceof Request);
    assert.equal(Object.prototype.toString.call(light), '[object Request]');
    for (const member of [
      'method',
      'url',
      'bodyUsed',
      'cache',
      'credentials',
      'destination',
      'duplex',
      'integrity',
      'isHistoryNavigation',
      'isReloadNavigation',
      'keepalive',
      'mode',
      'redirect',
      'referrer',
      'referrerPolicy',
    ] as const) {
      assert.equal((light as unknown as Record<string, unknown>)[member], (real as unknown as Record<string, unknown>)[member], member);
    }
    assert.ok(light.headers instanceof Headers);
    assert.deepEqual([...light.headers], [...real.headers]);
    assert.equal(light.headers.get('x-note'), 'one, two');
    assert.equal(light.signal.aborted, false);
  });

  it('reads the body whole through arrayBuffer(), text() and json(), once, as the real one does', async () => {
    const body = ['{"content":', '"two chunks, é"}'];
    for (const read of ['arrayBuffer', 'text', 'json'] as const) {
      const { light, real } = pair('POST', body);
      const [lightValue, realValue] = [await light[read](), await real[read]()];
      assert.deepEqual(
        read === 'arrayBuffer' ? Buffer.from(lightValue as ArrayBuffer) : lightValue,
        read === 'arrayBuffer' ? Buffer.from(realValue as ArrayBuffer) : realValue,
      );
      assert.equal(light.bodyUsed, true);
      // A second read of the body, by any method, fails as it does for a real Request.
      for (const again of ['arrayBuffer', 'text', 'json', 'blob', 'formData'] as const) {
        assert.equal(await outcome(() => light[again]()), await outcome(() => real[again]()), `${read} then ${again}`);
        assert.equal(await outcome(() => light[again]()), 'throws TypeError');
      }
      assert.equal(await outcome(() => light.clone()), await outcome(() => real.clone()));
      assert.equal(await outcome(() => light.body!.getReader()), await outcome(() => real.body!.getReader()));
      assert.equal(light.body, light.body, 'the same stream each time');
    }
  });

  it('gives the ArrayBuffer of the body alone, not the shared buffer Node read it into', async () => {
    const { light } = pair('POST', ['abc']);
    const buffer = await light.arrayBuffer();
    assert.equal(buffer.byteLength, 3);
    assert.equal(Buffer.from(buffer).toString(), 'abc');
  });

  it('decodes text() and json() as the real one does: BOM dropped, bad UTF-8 replaced, bad JSON a SyntaxError', async () => {
    const odd = [new Uint8Array([0xef, 0xbb, 0xbf]), 'caf', new Uint8Array([0xc3]), new Uint8Array([0xff, 0x41])];
    const textPair = pair('POST', odd);
    const texts = [await textPair.light.text(), await textPair.real.text()];
    assert.deepEqual(texts, ['caf\uFFFD\uFFFDA', 'caf\uFFFD\uFFFDA']);
    const jsonPair = pair('POST', ['{"content":']);
    const [light, real] = [await outcome(() => jsonPair.light.json()), await outcome(() => jsonPair.real.json())];
    assert.equal(light, real);
    assert.equal(light, 'throws SyntaxError');
  });

  it('has no body for GET and HEAD, and reads it as empty any number of times', async () => {
    for (const method of ['GET', 'HEAD']) {
      const { light, real } = pair(method, []);
      assert.equal(light.body, real.body);
      assert.equal(light.body, null);
      assert.equal((await light.arrayBuffer()).byteLength, 0);
      assert.equal(await light.text(), await real.text());
      assert.equal(await light.text(), '');
      assert.equal(light.bodyUsed, real.bodyUsed);
      assert.equal(light.bodyUsed, false);
    }
  });

  it('hands the body out as a stream, which then counts as read once read from', async () => {
    const { light, real } = pair('POST', ['{"a":', '1}']);
    for (const request of [light, real]) {
      assert.ok(request.body instanceof ReadableStream);
      assert.equal(request.body, request.body, 'the same stream each time');
      assert.equal(request.bodyUsed, false);
      const reader = request.body.getReader();
      const first = await reader.read();
      assert.equal(Buffer.from(first.value!).toString(), '{"a":');
      reader.releaseLock();
      assert.equal(request.bodyUsed, true);
      assert.equal(await outcome(() => request.text()), 'throws TypeError');
    }
  });

  it('clones with the body inside, and still reads the body itself afterwards', async () => {
    const { light, real } = pair('POST', ['{"content":"cloned"}']);
    const [lightCopy, realCopy] = [light.clone(), real.clone()];
    assert.ok(lightCopy instanceof Request);
    assert.equal(await lightCopy.text(), await realCopy.text());
    assert.deepEqual([...lightCopy.headers], [...realCopy.headers]);
    assert.equal(await light.text(), '{"content":"cloned"}');
    assert.equal(light.bodyUsed, true);
  });

  it('reads the body from the socket only when asked', async () => {
    const message = nodeRequest('POST', ['{"late":true}']);
    const { request } = toWebRequest(message);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(message.readableFlowing, null, 'nobody has listened to the body yet');
    assert.deepEqual(await request.json(), { late: true });
  });

  it('stands a body a parser already read in for the message body, with its own length', async () => {
    const message = nodeRequest('POST', [], ['Host', 'chat.example', 'Content-Length', '999']);
    const { request } = toWebRequest(message, '{"parsed":true}');
    const real = new Request(request.url, { method: 'POST', body: '{"parsed":true}' });
    assert.equal(request.headers.get('content-type'), real.headers.get('content-type'));
    assert.equal(request.headers.get('content-length'), String('{"parsed":true}'.length));
    assert.equal(await request.text(), await real.text());
  });

  it(
    'when the visitor leaves mid-body: reading fails as it does for the real one, and the signal aborts',
    { timeout: 10_000 },
    async () => {
      const results: { light?: unknown; real?: unknown; signal?: AbortSignal }[] = [{}, {}];
      let read!: () => void;
      const server = await listen(
        createServer((req: IncomingMessage, res: ServerResponse) => {
          // The first request is read through the light Request, the second through a real one.
          const light = results[0]!.signal === undefined;
          const entry = results[light ? 0 : 1]!;
          const request = light ? toWebRequest(req, undefined, undefined, res).request : realRequest(req);
          entry.signal = request.signal;
          void outcome(() => request.arrayBuffer()).then((result) => {
            entry[light ? 'light' : 'real'] = result;
            read();
          });
        }),
      );
      try {
        for (let round = 0; round < 2; round++) {
          const wasRead = new Promise<void>((resolve) => (read = resolve));
          const socket = connect(server.port, '127.0.0.1');
          socket.on('error', () => undefined);
          socket.write(
            'POST /chatbot/message HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"cont',
          );
          await new Promise((resolve) => setTimeout(resolve, 50));
          socket.destroy();
          await wasRead;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
        assert.match(String(results[0]!.light), /^throws /);
        assert.match(String(results[1]!.real), /^throws /);
        assert.equal(results[0]!.signal!.aborted, true, 'the light request sees the visitor leave');
      } finally {
        await server.close();
      }
    },
  );

  it('keeps its signal unaborted once the answer is written', async () => {
    let signal: AbortSignal | undefined;
    const server = await listen(
      createServer((req: IncomingMessage, res: ServerResponse) => {
        const { request } = toWebRequest(req, undefined, undefined, res);
        signal = request.signal;
        void request.text().then((text) => res.end(text));
      }),
    );
    try {
      const answer = await fetch(`${server.origin}/echo`, { method: 'POST', body: 'kept' });
      assert.equal(await answer.text(), 'kept');
    } finally {
      await server.close();
    }
    // The connection is gone too now, after a finished answer: that is no visitor leaving.
    assert.equal(signal!.aborted, false);
  });
});
