// A stand-in for the upstream API on a real loopback HTTP server: it verifies every signature
// with the independent node:crypto signer, records every request exactly as received (so tests
// can assert what did NOT reach upstream), and answers like the API from a small in-memory store.
// A test can override any answer (status, headers, body), hang, or drop the connection.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { independentVerify } from '../../helpers/independent-signer.js';

export const CHATBOT_ID = 'bot_test';
export const API_KEY = 'pk_test_0123456789';
export const API_SECRET = 'sk_test_do_not_leak_4f9a8b7c6d5e';

export interface RecordedRequest {
  method: string;
  /** Path and query exactly as received. */
  target: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  rawHeaderNames: string[];
  body: string;
  signatureValid: boolean;
  timestamp: string;
}

export type Override = { status: number; headers?: Record<string, string>; body?: string } | 'hang' | 'destroy';

interface StoredMessage {
  id: string;
  chatbotId: string;
  chatSessionId: string;
  chatUserId: string;
  senderType: string;
  text: string;
  url?: string;
  tokenCount: number;
  responseTime: number | null;
  createdAt: string;
}

export interface RecordingUpstream {
  /** `http://127.0.0.1:PORT/api` */
  baseUrl: string;
  port: number;
  requests: RecordedRequest[];
  /** Answers of the next requests: set to a function to replace the default behaviour. */
  override: ((request: RecordedRequest) => Override | undefined) | undefined;
  /** Stores a message directly (as if another visitor had sent it). */
  seed(message: Partial<StoredMessage> & { chatUserId: string; text: string }): StoredMessage;
  reset(): void;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

function page<T>(items: T[], query: URLSearchParams) {
  const pageNumber = Number(query.get('page') ?? 1);
  const pageSize = Number(query.get('pageSize') ?? 20);
  const start = (pageNumber - 1) * pageSize;
  return {
    data: items.slice(start, start + pageSize),
    error: null,
    totalItems: items.length,
    pageSize,
    currentPage: pageNumber,
    totalPages: Math.ceil(items.length / pageSize),
  };
}

export async function startRecordingUpstream(): Promise<RecordingUpstream> {
  const requests: RecordedRequest[] = [];
  let messages: StoredMessage[] = [];
  let nextId = 1;
  const sockets = new Set<import('node:net').Socket>();

  let lastCreatedAt = 0;
  const store = (message: Partial<StoredMessage> & { chatUserId: string; text: string }): StoredMessage => {
    // Stored now (a seed may say when), each one after the previous, like upstream's clock.
    const previous = lastCreatedAt;
    lastCreatedAt = message.createdAt ? Date.parse(message.createdAt) : Math.max(Date.now(), lastCreatedAt + 1);
    const stored: StoredMessage = {
      id: message.id ?? `m${nextId++}`,
      chatbotId: CHATBOT_ID,
      chatSessionId: message.chatSessionId ?? `s_${message.chatUserId}`,
      chatUserId: message.chatUserId,
      senderType: message.senderType ?? 'User',
      text: message.text,
      tokenCount: 3,
      // A reply was begun when the message before it (its question) arrived, as upstream's are.
      responseTime: message.senderType === 'Bot' ? (message.responseTime ?? Math.max(0, lastCreatedAt - previous) / 1000) : null,
      createdAt: new Date(lastCreatedAt).toISOString(),
      ...(message.url ? { url: message.url } : {}),
    };
    messages.unshift(stored);
    return stored;
  };

  const upstream: RecordingUpstream = {
    baseUrl: '',
    port: 0,
    requests,
    override: undefined,
    seed: store,
    reset() {
      requests.length = 0;
      messages = [];
      upstream.override = undefined;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const target = req.url ?? '';
      const url = new URL(`http://upstream${target}`);
      const body = Buffer.concat(chunks).toString('utf8');
      const timestamp = String(req.headers['x-timestamp'] ?? '');
      const signature = String(req.headers['x-signature'] ?? '');
      const record: RecordedRequest = {
        method: req.method ?? '',
        target,
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        rawHeaderNames: req.rawHeaders.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()),
        body,
        signatureValid:
          req.headers['x-api-key'] === API_KEY &&
          Math.abs(Number(timestamp) - Date.now() / 1000) <= 300 &&
          independentVerify(API_SECRET, req.method ?? '', target, body, timestamp, signature),
        timestamp,
      };
      requests.push(record);
      const override = upstream.override?.(record);
      if (override === 'hang') return;
      if (override === 'destroy') return req.socket.destroy();
      if (override) {
        res.writeHead(override.status, override.headers ?? { 'Content-Type': 'application/json' });
        return res.end(override.body ?? '');
      }
      if (!record.signatureValid) return send(res, 401, { data: null, error: 'Invalid signature' });
      answer(record, res);
    });
  });

  function answer(record: RecordedRequest, res: ServerResponse): void {
    const prefix = `/api/Dev/${CHATBOT_ID}`;
    if (!record.path.startsWith(`${prefix}/`)) return send(res, 404, { data: null, error: 'Chatbot not found' });
    const route = record.path.slice(prefix.length);
    const q = record.query;
    if (record.method === 'POST' && route === '/message') {
      const input = JSON.parse(record.body) as { user?: { id?: string; name?: string }; message?: { content?: string; file?: string } };
      if (!input.user?.name) {
        return send(res, 400, {
          type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1',
          title: 'One or more validation errors occurred.',
          status: 400,
          errors: { 'user.name': ['The name field is required.'] },
          traceId: '00-abc',
        });
      }
      store({ chatUserId: input.user.id!, text: input.message!.content!, ...(input.message?.file ? { url: input.message.file } : {}) });
      store({ chatUserId: input.user.id!, text: `You said: ${input.message!.content}`, senderType: 'Bot' });
      return send(
        res,
        200,
        { data: `You said: ${input.message!.content}`, error: null, totalItems: 0, pageSize: 0, currentPage: 0, totalPages: 0 },
        {
          'X-RateLimit-Limit': '100',
          'X-RateLimit-Remaining': '99',
          'X-RateLimit-Reset': String(Math.floor(Date.now() / 1000) + 3600),
        },
      );
    }
    if (record.method !== 'GET') return send(res, 404, { data: null, error: 'Not found' });
    if (route === '/messages') {
      const list = messages.filter(
        (m) => (!q.has('userId') || m.chatUserId === q.get('userId')) && (!q.has('sessionId') || m.chatSessionId === q.get('sessionId')),
      );
      return send(res, 200, page(list, q));
    }
    if (route === '/messages/count') return send(res, 200, { data: messages.length, error: null });
    if (route === '/messages/count-by-month') return send(res, 200, { data: [], error: null });
    if (route.startsWith('/messages/')) {
      const found = messages.find((m) => m.id === route.slice('/messages/'.length));
      return found ? send(res, 200, { data: found, error: null }) : send(res, 404, { data: null, error: 'Message not found' });
    }
    if (route === '/sessions') {
      const ids = [...new Set(messages.filter((m) => !q.has('userId') || m.chatUserId === q.get('userId')).map((m) => m.chatSessionId))];
      const sessions = ids.map((id) => {
        const own = messages.filter((m) => m.chatSessionId === id);
        return {
          id,
          chatUserId: own[0]!.chatUserId,
          createdAt: own.at(-1)!.createdAt,
          lastMessageAt: own[0]!.createdAt,
          messageCount: own.length,
        };
      });
      return send(res, 200, page(sessions, q));
    }
    if (route === '/users') {
      const ids = [...new Set(messages.map((m) => m.chatUserId))];
      return send(
        res,
        200,
        page(
          ids.map((id) => ({ id, name: 'Visitor', createdAt: '', lastMessageAt: '', messageCount: 1 })),
          q,
        ),
      );
    }
    return send(res, 404, { data: null, error: 'Not found' });
  }

  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.port = (server.address() as AddressInfo).port;
  upstream.baseUrl = `http://127.0.0.1:${upstream.port}/api`;
  return upstream;
}
