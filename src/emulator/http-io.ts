/**
 * Reading requests and writing responses on node:http: the body cap (413) and JSON output.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiErrors } from './errors.js';

/** Largest request body accepted, in bytes; more is refused with 413 before authentication. */
const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * The raw body bytes (the signature covers them as sent). A declared or streamed length over
 * `limit` rejects with the 413 error; chunked bodies are counted as they arrive.
 */
export function readBody(req: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) return Promise.reject(apiErrors.payloadTooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      req.off('data', onData);
      if (error) reject(error);
      else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish(apiErrors.payloadTooLarge(limit));
      else chunks.push(chunk);
    };
    req.on('data', onData);
    req.once('end', () => finish());
    req.once('error', (error) => finish(error));
    req.once('aborted', () => finish(new Error('request aborted')));
  });
}

/** Writes a JSON response. Bodies are small, so they go out with a Content-Length in one piece. */
export function writeJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}
