/**
 * Reading a request body with its size capped while reading: `Content-Length` may be absent
 * (chunked) or false, so bytes are counted as they arrive and reading stops past the cap.
 */
import { readCapped, StreamTooLarge } from './capped-stream.js';
import { refuse, TEXT } from './responses.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Whether the request declares a JSON body (`application/json`, any parameters). */
export function isJsonRequest(request: Request): boolean {
  const type = request.headers.get('Content-Type');
  if (!type) return false;
  return type.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** The body as text, at most `maxBytes` bytes of UTF-8; answers 413 past that and 400 on bad UTF-8. */
async function readCappedText(request: Request, maxBytes: number): Promise<string> {
  // A declared length over the cap is refused at once; a smaller one is not trusted either.
  const declared = Number(request.headers.get('Content-Length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await request.body?.cancel().catch(() => undefined);
    refuse(413, TEXT.tooLarge);
  }
  if (!request.body) return '';
  let bytes: Uint8Array;
  try {
    bytes = await readCapped(request.body, maxBytes);
  } catch (error) {
    if (error instanceof StreamTooLarge) refuse(413, TEXT.tooLarge);
    // The visitor's connection broke off mid-body. That is the client's doing, not a fault of
    // this server: answer 400 (if anyone still listens) and keep it out of the error log,
    // which any client could otherwise fill at will.
    refuse(400, TEXT.bodyUnreadable);
  }
  try {
    return decoder.decode(bytes);
  } catch {
    refuse(400, 'The request body is not valid UTF-8 text.');
  }
}

/** The body parsed as a JSON object (`{}` for an empty body when `allowEmpty`). */
export async function readJsonObject(request: Request, maxBytes: number, allowEmpty = false): Promise<Record<string, unknown>> {
  const text = await readCappedText(request, maxBytes);
  if (allowEmpty && text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    refuse(400, TEXT.badJson);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) refuse(400, 'The request body must be a JSON object.');
  return value as Record<string, unknown>;
}
