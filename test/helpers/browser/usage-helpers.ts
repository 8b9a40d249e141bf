/**
 * Helpers of the `<chatbot-usage>` browser tests: an element on a fresh endpoint namespace with the
 * backend's admin token, the admin routes read directly (what the element must show), and the
 * element's `chatbot-error` events recorded.
 */
import '../../../src/browser/index.js';
import type { ChatbotUsage, ChatbotUsageErrorDetail } from '../../../src/browser/index.js';
import type { MonthlyUsage } from '../../../src/shared/types.js';
import { ADMIN_TOKEN } from './admin-token.js';
import { endpointOf, equal, freshNamespace } from './helpers.js';

const mounted: HTMLElement[] = [];

export interface MountedUsage {
  el: ChatbotUsage;
  namespace: string;
  errors: ChatbotUsageErrorDetail[];
}

/** A `<chatbot-usage>` with the given attributes (the admin token unless given), settled. */
export async function mountUsage(attributes: Record<string, string> = {}, namespace = freshNamespace('u')): Promise<MountedUsage> {
  const el = document.createElement('chatbot-usage');
  el.setAttribute('endpoint', endpointOf(namespace));
  for (const [name, value] of Object.entries({ 'admin-token': ADMIN_TOKEN, ...attributes })) el.setAttribute(name, value);
  const errors: ChatbotUsageErrorDetail[] = [];
  // Heard on the document: the event bubbles and crosses the shadow root.
  const listener = (event: Event) => {
    if (event.composedPath()[0] === el) errors.push((event as CustomEvent<ChatbotUsageErrorDetail>).detail);
  };
  document.addEventListener('chatbot-error', listener);
  document.body.append(el);
  mounted.push(el);
  await el.settled;
  return { el, namespace, errors };
}

export function unmountUsage() {
  for (const el of mounted.splice(0)) el.remove();
}

/** GET of an admin route with the admin token, as the element would make it. */
export async function adminGet<T>(route: string, query: Record<string, string>): Promise<T> {
  const response = await fetch(`${endpointOf('direct')}/admin/${route}?${new URLSearchParams(query)}`, {
    headers: { 'X-Admin-Token': ADMIN_TOKEN },
  });
  equal(response.status, 200, `${route}: status`);
  return (await response.json()).data as T;
}

export const countByMonth = (from: string, to: string) => adminGet<MonthlyUsage[]>('messages/count-by-month', { from, to });
export const count = (from: string, to: string, sent?: boolean) =>
  adminGet<number>('messages/count', sent === undefined ? { from, to } : { from, to, sent: String(sent) });

/** A displayed number ("1,234") as a number. */
export const figure = (text: string | null | undefined) => Number((text ?? '').replace(/[^\d]/g, ''));

/** Records the URLs of every `fetch` from now until `stop()`. */
export function recordFetches(): { urls: string[]; stop(): void } {
  const original = window.fetch;
  const urls: string[] = [];
  window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    urls.push(input instanceof Request ? input.url : String(input));
    return original(input, init);
  };
  return { urls, stop: () => void (window.fetch = original) };
}
