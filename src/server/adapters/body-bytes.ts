/**
 * A Node request's body, read two ways, each only when the handler asks for it: whole, straight
 * from the message's own events ({@link messageBytes}: no Web stream in between, so a body of one
 * chunk, what a chat message is, costs one callback rather than a promise per read), or as a Web
 * stream ({@link messageStream}, for a body of undeclared length, read with a cap).
 */
import type { IncomingMessage } from 'node:http';

/** Thrown when the visitor's connection closes before the body's end arrived. */
export class BodyCutOff extends Error {
  override name = 'BodyCutOff';
}

/**
 * Every byte of `message`'s body, in a buffer of its own as `arrayBuffer()` must give them (Node's
 * chunks are views into larger shared buffers). Rejects with the message's error, or BodyCutOff, when the
 * connection goes before the body ends. A body something else already read to its end (an Express
 * middleware that kept nothing) reads as empty: its 'end' has fired and will not fire again.
 */
export function messageBytes(message: IncomingMessage): Promise<Uint8Array<ArrayBuffer>> {
  if (message.readableEnded) return Promise.resolve(new Uint8Array(0));
  if (message.destroyed) return Promise.reject(new BodyCutOff('the connection closed before the request body ended'));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.byteLength;
    };
    const onEnd = () => {
      stop();
      const bytes = new Uint8Array(total);
      let offset = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.byteLength;
      }
      resolve(bytes);
    };
    const onError = (error: Error) => {
      stop();
      reject(error);
    };
    // Without an error first (a socket destroyed on purpose), 'close' alone says the end will not come.
    const onClose = () => onError(new BodyCutOff('the connection closed before the request body ended'));
    const stop = () => {
      message.off('data', onData);
      message.off('end', onEnd);
      message.off('error', onError);
      message.off('close', onClose);
    };
    message.on('data', onData);
    message.once('end', onEnd);
    message.once('error', onError);
    message.once('close', onClose);
    // A message paused by an earlier reader stays paused when 'data' is listened to.
    message.resume();
  });
}

/**
 * The request body as a Web stream that reads the socket only when someone reads the stream: a
 * request the handler refuses before its body (401, 403, 415, a declared length over the cap)
 * leaves the body unread. Cancelling it stops reading without destroying the socket, so the
 * answer can still be written.
 */
export function messageStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let listening = false;
  let cancelled = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (listening) return void req.resume();
        listening = true;
        // Something before the handler (an Express middleware) already read the body without
        // leaving it in req.body: 'end' has fired and will not fire again, so waiting for it
        // would hang the request forever. The handler gets an empty body instead.
        if (req.readableEnded) return controller.close();
        req.on('data', (chunk: Buffer) => {
          if (cancelled) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) req.pause();
        });
        req.once('end', () => {
          if (!cancelled) controller.close();
        });
        req.once('error', (error) => {
          if (!cancelled) controller.error(error);
        });
      },
      cancel() {
        cancelled = true;
        req.pause();
      },
    },
    // Nothing is read ahead: the first read of the stream is the first read of the socket.
    { highWaterMark: 0 },
  );
}
