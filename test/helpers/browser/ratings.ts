/**
 * Helpers of the feedback tests: what the handler's admin feedback routes list for a `rated-`
 * namespace (a handler of its own, see backend.ts), what the widget keeps in IndexedDB, and every
 * `POST …/feedback` the page makes with its answer.
 */
import { entries } from 'idb-keyval';
import type { FeedbackItem, FeedbackMonth } from '../../../src/shared/types.js';
import { absoluteEndpoint, equal, idbStore } from './helpers.js';

const DAY_MS = 86_400_000;
/** From yesterday to tomorrow (UTC days): every rating a test gives. */
const AROUND_NOW = () => ({
  from: new Date(Date.now() - DAY_MS).toISOString().slice(0, 10),
  to: new Date(Date.now() + DAY_MS).toISOString().slice(0, 10),
});

async function ratedAdmin<T>(namespace: string, route: string, query: Record<string, string>): Promise<T> {
  const response = await fetch(`/__rated/${namespace}/${route}?${new URLSearchParams({ ...AROUND_NOW(), ...query })}`);
  equal(response.status, 200, `admin ${route}`);
  return (await response.json()).data as T;
}

/** The ratings the handler lists for the namespace, newest first. */
export const listedRatings = (namespace: string, query: Record<string, string> = {}) =>
  ratedAdmin<FeedbackItem[]>(namespace, 'feedback', { pageSize: '100', ...query });

/** The namespace's ratings per month, from yesterday to tomorrow or over `range`. */
export const ratingsByMonth = (namespace: string, range: { from: string; to: string } | Record<string, never> = {}) =>
  ratedAdmin<FeedbackMonth[]>(namespace, 'feedback/count-by-month', range);

/** A rating as the widget keeps it: its latest choice, and whether the handler has it. */
export interface KeptRating {
  messageId: string;
  value: 'up' | 'down' | null;
  comment?: string;
  delivered?: boolean;
}

export async function keptRatings(namespace: string): Promise<KeptRating[]> {
  const prefix = `feedback|${absoluteEndpoint(namespace)}|`;
  return (await entries<string, KeptRating>(idbStore)).filter(([key]) => String(key).startsWith(prefix)).map(([, value]) => value);
}

/** One `POST …/feedback` of the page: the body it carried and the status it got (0: no answer), once `done`. */
export interface RatingPost {
  body: { messageId: string; value: string | null; comment?: string };
  status: number;
  done: boolean;
}

/** Records every `POST …/feedback` the page makes (the widget's own fetch, unchanged). */
export function recordRatingPosts(): { posts: RatingPost[]; stop(): void } {
  const original = window.fetch;
  const posts: RatingPost[] = [];
  window.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (init?.method !== 'POST' || !/\/chatbot\/feedback$/.test(new URL(url, document.baseURI).pathname)) return original(input, init);
    const post: RatingPost = { body: JSON.parse(init.body as string), status: 0, done: false };
    posts.push(post);
    try {
      const response = await original(input, init);
      post.status = response.status;
      return response;
    } finally {
      post.done = true;
    }
  };
  return { posts, stop: () => (window.fetch = original) };
}
