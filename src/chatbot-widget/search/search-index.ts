/**
 * The history search: the visitor's own messages of every cached conversation, in an inverted
 * index built in the browser (nothing is sent anywhere, so it works offline).
 *
 * Ranking, in order: more of the query's words found; more of them found as whole words (a
 * query word may also match the start of a longer word: `deliv` finds `delivery`); a BM25 score
 * (rare words and short messages count more); then the newer message.
 *
 * Why not MiniSearch (already a dependency of the repository's tooling): measured with esbuild
 * `--minify` and `gzip -9`, MiniSearch 7.2 alone is 5.8 kB gzip; this module with its tokenizer
 * and highlighting is 1.6 kB (1.7 kB as the chunk `npx vite build` writes), and MiniSearch would
 * still need the tokenizer for CJK and accents. Its fuzzy matching and field boosts are not
 * needed for one field of short texts. This chunk loads only when the visitor first uses the
 * search box.
 */
import type { CachedConversation } from '../conversation/cached-conversation.js';
import { highlight, type Piece } from './highlight.js';
import { tokenize, UNSPACED } from './tokenize.js';
import { senderKind } from '../sender-kind.js';

// Fetching the listed sessions' messages for the search comes with the search's code, in its chunk.
export { SessionPrefetch } from './session-prefetch.js';

/** One message found: where it is, when it was sent, and its text cut and marked for display. */
export interface SearchHit {
  sessionId: string;
  messageId: string;
  createdAt: string;
  /** A passage of the message around the first match, matched words marked. */
  pieces: Piece[];
}

/** Results shown at most: enough to scan, few enough to render at once. */
export const MAX_HITS = 50;
/** BM25's usual constants: how fast repeats stop counting, how much length evens out. */
const K1 = 1.2;
const B = 0.75;
/** A prefix match counts half a whole-word match in the score. */
const PREFIX_WEIGHT = 0.5;

interface Doc {
  sessionId: string;
  messageId: string;
  createdAt: string;
  time: number;
  text: string;
  length: number;
}

/** How a word of a message matches a query word: not (0), as its start (1), or whole (2). */
type Match = 0 | 1 | 2;
const WHOLE = 2;

/** How well a message matches a query: how many of the query's words it has, how many of them whole, and its score. */
interface Found {
  words: number;
  whole: number;
  score: number;
}

function match(word: string, query: string): Match {
  if (word === query) return WHOLE;
  return word.startsWith(query) || (UNSPACED.test(query) && word.includes(query)) ? 1 : 0;
}

/** The distinct words of a query, folded as the messages' are. */
export const queryTerms = (query: string) => [...new Set(tokenize(query).map((t) => t.term))];

export class SearchIndex {
  readonly #docs: Doc[] = [];
  /** word → (message → times it occurs). */
  readonly #postings = new Map<string, Map<number, number>>();
  #averageLength = 0;

  /**
   * Indexes the visitor's messages of `conversations`: what a visitor looks for is what they
   * asked, so the replies (the assistant's, a person's) and the notices are left out.
   */
  constructor(conversations: readonly CachedConversation[]) {
    let total = 0;
    for (const conversation of conversations) {
      for (const message of conversation.messages) {
        if (senderKind(message.senderType) !== 'user' || typeof message.text !== 'string') continue;
        const tokens = tokenize(message.text);
        if (!tokens.length) continue;
        const id = this.#docs.length;
        const time = Date.parse(message.createdAt);
        this.#docs.push({
          sessionId: conversation.sessionId,
          messageId: message.id,
          createdAt: message.createdAt,
          time: Number.isNaN(time) ? 0 : time,
          text: message.text,
          length: tokens.length,
        });
        total += tokens.length;
        for (const { term } of tokens) {
          let posting = this.#postings.get(term);
          if (!posting) this.#postings.set(term, (posting = new Map()));
          posting.set(id, (posting.get(id) ?? 0) + 1);
        }
      }
    }
    this.#averageLength = total / (this.#docs.length || 1);
  }

  /** Messages indexed. */
  get size() {
    return this.#docs.length;
  }

  /** The best {@link MAX_HITS} messages for `query`, best first. */
  search(query: string, limit = MAX_HITS): SearchHit[] {
    const terms = queryTerms(query);
    if (!terms.length) return [];
    const n = this.#docs.length;
    // message → how well it matches the whole query
    const found = new Map<number, Found>();
    for (const term of terms) {
      // This query word's best match in each message.
      const best = new Map<number, { kind: Match; score: number }>();
      for (const [word, posting] of this.#postings) {
        const kind = match(word, term);
        if (!kind) continue;
        const idf = Math.log(1 + (n - posting.size + 0.5) / (posting.size + 0.5));
        const weight = kind === WHOLE ? 1 : PREFIX_WEIGHT;
        for (const [id, tf] of posting) {
          const norm = tf + K1 * (1 - B + (B * this.#docs[id]!.length) / this.#averageLength);
          const score = weight * idf * ((tf * (K1 + 1)) / norm);
          const previous = best.get(id);
          if (!previous || kind > previous.kind || (kind === previous.kind && score > previous.score)) best.set(id, { kind, score });
        }
      }
      for (const [id, { kind, score }] of best) {
        const entry = found.get(id) ?? { words: 0, whole: 0, score: 0 };
        entry.words += 1;
        if (kind === WHOLE) entry.whole += 1;
        entry.score += score;
        found.set(id, entry);
      }
    }
    return [...found]
      .sort(([a, x], [b, y]) => y.words - x.words || y.whole - x.whole || y.score - x.score || this.#docs[b]!.time - this.#docs[a]!.time)
      .slice(0, limit)
      .map(([id]) => {
        const doc = this.#docs[id]!;
        const marks = tokenize(doc.text).filter((token) => terms.some((term) => match(token.term, term)));
        return { sessionId: doc.sessionId, messageId: doc.messageId, createdAt: doc.createdAt, pieces: highlight(doc.text, marks) };
      });
  }
}
