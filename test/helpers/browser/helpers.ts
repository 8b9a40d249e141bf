/**
 * Helpers of the browser tests: a widget on a fresh endpoint namespace, part lookups, polling,
 * typing like a visitor, and the backend's test routes (see backend.ts).
 */
import { createStore, get, set } from 'idb-keyval';
import '../../../src/browser/index.js';
import type { ChatbotWidget } from '../../../src/browser/index.js';

export function assert(condition: unknown, message = 'assertion failed'): asserts condition {
  if (!condition) throw new Error(message);
}

export function equal<T>(actual: T, expected: T, message = '') {
  if (actual !== expected) throw new Error(`${message} expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

let counter = 0;
/** A namespace no other test uses: its own endpoint, IndexedDB keys and visitor. */
export function freshNamespace(prefix = 'w') {
  return `${prefix}-${Date.now().toString(36)}-${++counter}-${Math.random().toString(36).slice(2, 7)}`;
}

export const endpointOf = (namespace: string) => `/t/${namespace}/chatbot`;

const mounted: HTMLElement[] = [];

/** A `<chatbot-widget>` on a fresh (or given) namespace, attached to the page. */
export async function mount(attributes: Record<string, string> = {}, namespace = freshNamespace()) {
  const el = document.createElement('chatbot-widget') as ChatbotWidget;
  el.setAttribute('endpoint', endpointOf(namespace));
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  (attributes.container ? document.querySelector(attributes.container)! : document.body).append(el);
  mounted.push(el);
  await el.updateComplete;
  return { el, namespace };
}

/** Removes every widget the test mounted. */
export function unmountAll() {
  for (const el of mounted.splice(0)) el.remove();
}

export const part = (el: HTMLElement, name: string) => el.shadowRoot!.querySelector<HTMLElement>(`[part~="${name}"]`);
export const parts = (el: HTMLElement, name: string) => [...el.shadowRoot!.querySelectorAll<HTMLElement>(`[part~="${name}"]`)];
/** The words of the `error` part (its text, without the dismiss button's), or undefined when none is shown. */
export const errorText = (el: HTMLElement) => part(el, 'error')?.querySelector('span')?.textContent ?? undefined;

/** Polls until `check` returns a truthy value; fails with `what` after `timeout` ms. */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeout = 8_000): Promise<NonNullable<Awaited<T>>> {
  const start = performance.now();
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as NonNullable<Awaited<T>>;
    } catch (error) {
      last = error;
    }
    if (performance.now() - start > timeout)
      throw new Error(`timed out waiting for ${what}${last ? `: ${last instanceof Error ? last.message : String(last as string)}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Gives something that must NOT happen the time to happen (a send, a load, a script, a redraw):
 * the check after it proves it did not. Only for such checks; whatever must happen is awaited
 * with {@link waitFor}.
 */
export function quietFor(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Types into the message field and presses Enter, as a visitor would. */
export async function typeAndSend(el: ChatbotWidget, text: string) {
  const input = part(el, 'input') as HTMLTextAreaElement;
  input.focus();
  input.value = text;
  input.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true }));
  await el.updateComplete;
  input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, composed: true, cancelable: true }));
  await el.updateComplete;
}

export const bubbleTexts = (el: HTMLElement, name = 'message') =>
  parts(el, name).map((m) =>
    m
      .querySelector('.bubble')!
      .textContent!.replace(/^\s*(You|Assistant):/, '')
      .trim(),
  );

/** Waits until the bot has answered `count` messages of this widget. */
export const waitForReplies = (el: HTMLElement, count: number, timeout?: number) =>
  waitFor(() => parts(el, 'message-bot').length >= count && parts(el, 'message-pending').length === 0, `${count} replies`, timeout);

/** Sets how the network behaves for a namespace: `up`, `down` (no connection) or `drop` (answer lost). */
export async function network(namespace: string, mode: 'up' | 'down' | 'drop') {
  const response = await fetch(`/__net/${namespace}/${mode}`, { method: 'POST' });
  equal(response.status, 204, 'network switch');
}

/**
 * Makes `navigator.onLine` say `online`. A stand-in for the browser's own offline switch, which
 * page scripts cannot flip: the connection itself is cut with {@link network} (`down`), and this
 * adds what a real offline browser also reports. `browserOnline(true)` restores the real value.
 */
export function browserOnline(online: boolean) {
  if (online) delete (navigator as { onLine?: boolean }).onLine;
  else Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
}

const store = createStore('chatbot-widget', 'kv');
export const absoluteEndpoint = (namespace: string) => new URL(endpointOf(namespace), document.baseURI).href;

/** The visitor identity the widget stored for a namespace. */
export async function storedIdentity(namespace: string) {
  return get<{ token: string; userId: string }>(`identity|${absoluteEndpoint(namespace)}`, store);
}

export { get as idbGet, set as idbSet, store as idbStore };

/**
 * The conversation the widget cached as the visitor's current one at a namespace (test user ids
 * need no escaping in keys): what a transcript or a reload reads once the connection is gone.
 */
export async function cachedCurrentConversation(namespace: string) {
  const base = absoluteEndpoint(namespace);
  const userId = (await storedIdentity(namespace))?.userId;
  if (!userId) return undefined;
  const current = (await get<{ current?: string }>(`index|${base}|${userId}|`, store))?.current;
  if (!current) return undefined;
  return get<{ sessionId: string; messages: { text: string }[] }>(`conversation|${base}|${userId}|${current}`, store);
}

/** The messages upstream holds for a visitor (admin route of the handler), newest first. */
export async function upstreamMessages(userId: string): Promise<{ id: string; text: string; senderType: string; chatSessionId: string }[]> {
  const response = await fetch(`/__admin/messages?userId=${encodeURIComponent(userId)}&pageSize=100`);
  equal(response.status, 200, 'admin messages');
  return (await response.json()).data;
}

/** Adds messages upstream through the emulator's seed import. */
export async function seed(records: Record<string, unknown>[]) {
  const response = await fetch('/__seed', { method: 'POST', body: JSON.stringify({ records }) });
  equal(response.status, 200, 'seed');
}

/** A server-shaped message for cache fixtures. */
export function fakeMessage(i: number, sessionId: string, userId: string, start = Date.now() - 86_400_000) {
  return {
    id: `m${String(i).padStart(6, '0')}`,
    chatbotId: 'bot_widget',
    chatSessionId: sessionId,
    chatUserId: userId,
    senderType: i % 2 === 0 ? 'User' : 'Bot',
    text: i % 2 === 0 ? `Question number ${i}` : `Answer **number** ${i}`,
    tokenCount: 3,
    responseTime: i % 2 === 0 ? null : 0.4,
    createdAt: new Date(start + i * 1_000).toISOString(),
  };
}

/**
 * Puts a visitor and one cached conversation into IndexedDB, as a previous visit would have;
 * with `firstPaint`, also the first-paint record the widget keeps in localStorage (the newest
 * 24 messages, and the visitor they belong to).
 */
export async function writeCachedConversation(
  namespace: string,
  messages: ReturnType<typeof fakeMessage>[],
  userId = 'cached-visitor',
  sessionId = 'cached-session',
  { firstPaint = false } = {},
) {
  const base = absoluteEndpoint(namespace);
  await set(`identity|${base}`, { token: 'not-a-valid-token', userId }, store);
  await set(`index|${base}|${userId}|`, { current: sessionId, entries: { [sessionId]: [Date.now(), messages.length] } }, store);
  await set(`conversation|${base}|${userId}|${sessionId}`, { sessionId, messages, totalItems: messages.length }, store);
  if (firstPaint) writeFirstPaintRecord(namespace, userId, { sessionId, messages: messages.slice(-24), totalItems: messages.length });
}

const paintKey = (namespace: string) => `chatbot-widget|paint|${absoluteEndpoint(namespace)}`;
const visitorKey = (namespace: string) => `chatbot-widget|visitor|${absoluteEndpoint(namespace)}`;

/**
 * Writes the first-paint record of an endpoint in localStorage: a conversation of `userId`, and
 * `visitor` as the endpoint's stored visitor (by default the same).
 */
export function writeFirstPaintRecord(namespace: string, userId: string, conversation: object, visitor = userId) {
  localStorage.setItem(visitorKey(namespace), visitor);
  localStorage.setItem(paintKey(namespace), JSON.stringify({ userId, conversation }));
}

/** The first-paint record of an endpoint, and the visitor named beside it, as stored. */
export function readFirstPaintRecord(namespace: string) {
  const text = localStorage.getItem(paintKey(namespace));
  return {
    visitor: localStorage.getItem(visitorKey(namespace)),
    record: text ? (JSON.parse(text) as { userId: string; conversation: { messages: { id: string; text: string }[] } }) : undefined,
  };
}

/** Forgets the first-paint record of an endpoint, as a device that never kept one. */
export function forgetFirstPaintRecord(namespace: string) {
  localStorage.removeItem(paintKey(namespace));
}

/**
 * Mounts a widget watched from before its first render. `first` resolves with the message keys
 * of the first render that shows bubbles; `drawnEmpty` tells whether the message list was ever
 * drawn without any before that.
 */
export function mountWatched(attributes: Record<string, string> = {}, namespace = freshNamespace()) {
  const el = document.createElement('chatbot-widget') as ChatbotWidget;
  el.setAttribute('endpoint', endpointOf(namespace));
  for (const [name, value] of Object.entries(attributes)) el.setAttribute(name, value);
  document.body.append(el); // the shadow root is there now; the first render is a microtask away
  mounted.push(el);
  const root = el.shadowRoot!;
  let drawnEmpty = false;
  const first = new Promise<string[]>((resolve) => {
    const observer = new MutationObserver(() => {
      const list = root.querySelector('[part="messages"]');
      const keys = [...root.querySelectorAll<HTMLElement>('[part~="message"]')].map((m) => m.dataset.key!);
      if (list && !keys.length) drawnEmpty = true;
      if (!keys.length) return;
      observer.disconnect();
      resolve(keys);
    });
    observer.observe(root, { childList: true, subtree: true });
  });
  return { el, first, drawnEmpty: () => drawnEmpty };
}

/** One `POST …/message` the page made: its idempotency key and the text it carried. */
export interface SentAttempt {
  key: string | null;
  content: string;
}

/**
 * Records every send the page makes (the widget's own fetch, unchanged), to check which key
 * each attempt carried. Returns the list, filled as sends go out, and a function that stops it.
 */
export function recordSends(): { attempts: SentAttempt[]; stop(): void } {
  const original = window.fetch;
  const attempts: SentAttempt[] = [];
  window.fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (init?.method === 'POST' && /\/chatbot\/message$/.test(new URL(url, document.baseURI).pathname)) {
      const headers = new Headers(init.headers);
      attempts.push({ key: headers.get('Idempotency-Key'), content: JSON.parse(init.body as string).content });
    }
    return original(input, init);
  };
  return { attempts, stop: () => (window.fetch = original) };
}

/**
 * Makes the send answers look like those of a handler that does not name the stored messages
 * (no `stored` field), for the widget's fallback. Returns a function that stops it.
 */
export function withoutStoredIds(): () => void {
  const original = window.fetch;
  window.fetch = async (input, init) => {
    const response = await original(input, init);
    const url = input instanceof Request ? input.url : String(input);
    if (init?.method !== 'POST' || !/\/chatbot\/message$/.test(new URL(url, document.baseURI).pathname) || !response.ok) return response;
    const body = await response.json();
    delete body.stored;
    return new Response(JSON.stringify(body), { status: response.status, headers: response.headers });
  };
  return () => (window.fetch = original);
}

/** The outbox entries stored for a namespace (IndexedDB, as a reload would find them). */
export async function storedOutbox(namespace: string) {
  const { entries } = await import('idb-keyval');
  const prefix = `outbox|${absoluteEndpoint(namespace)}|`;
  return (await entries<string, { localId: string; key: string; content: string; state: string }>(store))
    .filter(([key]) => key.startsWith(prefix))
    .map(([, value]) => value);
}
