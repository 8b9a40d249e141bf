/**
 * The emulator's default reply source: deterministic answers drawn from the project's own docs.
 *
 * The docs are split into sections by headings and indexed once (on the first message) with
 * MiniSearch. A message is answered with the best-matching section, trimmed to a chat-sized excerpt
 * with its title, Markdown kept (the widget renders it safely). Greetings and thanks get a short
 * fixed answer, and a message that matches nothing gets an honest "couldn't find that" with a few
 * topics to ask about. No randomness and no clock: the same docs and the same message always give
 * the same reply, in English (the docs' language) whatever the message's language.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, isAbsolute, relative, sep } from 'node:path';
import MiniSearch from 'minisearch';
import { excerpt, splitSections, tablesAsLists, unlinkRelative, type DocSection } from './markdown-sections.js';
import { defaultDocPaths, findProjectRoot } from './project-docs.js';
import type { ReplyRequest, ReplySource } from './types.js';

export interface KnowledgeBaseOptions {
  /** Markdown files to answer from. Default: `README.md` and `docs/*.md` of the project root. */
  docs?: string[];
  /**
   * Reads one docs file (default: `fs.readFileSync` as UTF-8). Lets a host answer from docs that are
   * not on disk; called once per file, when the index is built.
   */
  readFile?: (path: string) => string;
  /** Longest excerpt of a section, in characters, cut at a paragraph boundary. Default 1200. */
  maxExcerptChars?: number;
}

/** A knowledge-base reply source, with the synchronous answer exposed for callers that need it. */
export interface KnowledgeBaseReplySource extends ReplySource {
  /** The reply to `content`, synchronously (builds the index on first use). */
  answer(content: string, userName?: string): string;
  /** How many sections the knowledge base holds (builds the index on first use). */
  readonly sectionCount: number;
}

interface KnowledgeBase {
  sections: DocSection[];
  index: MiniSearch<DocSection>;
  topics: string[];
}

// Words that say nothing about the topic: without them, "how do I embed the widget?" is searched as
// "embed widget", not matched against every section that says "how" or "the".
const STOP_WORDS = new Set(
  (
    'a an and are as at be by can could do does for from had has have how i if in into is it its me my of on or ' +
    'our please should so that the their them then there these they this to us was we what when where which who ' +
    'why will with would you your yours am any about also just get got want need tell know hi hello hey thanks'
  ).split(' '),
);

/** A light English stemmer, enough for "embedding"/"embedded"/"embed" or "messages"/"message" to meet. */
function stem(word: string): string {
  let w = word;
  const strip = (suffix: string, replacement = ''): boolean => {
    if (w.length - suffix.length >= 3 && w.endsWith(suffix)) {
      w = w.slice(0, w.length - suffix.length) + replacement;
      return true;
    }
    return false;
  };
  if (!strip('ies', 'y') && !w.endsWith('ss')) strip('s');
  if (strip('ing') || strip('ed')) {
    if (w.length >= 4 && w[w.length - 1] === w[w.length - 2] && !/[lsz]/.test(w[w.length - 1]!)) w = w.slice(0, -1);
  }
  strip('e');
  return w;
}

function processTerm(term: string): string | null {
  const lower = term.toLowerCase();
  if (lower.length < 2 || STOP_WORDS.has(lower)) return null;
  return stem(lower);
}

const GREETING =
  /^(hi|hello|hey|hiya|howdy|yo|greetings|good (morning|afternoon|evening|day)|bonjour|salut|hallo|guten (tag|morgen)|servus|hola|buenos dias|buenas|ciao|salve|ola|olá|oi|hej|hei|moin|привет|здравствуйте|你好|您好|こんにちは|안녕하세요|مرحبا|namaste)( (there|all|everyone|bot|chatbot|friend))?$/u;
const THANKS =
  /^(thanks|thank you|thx|ty|cheers|merci|danke|gracias|grazie|obrigad[oa]|спасибо|谢谢|ありがとう|감사합니다)( (so much|a lot|very much|again|beaucoup|schön|sehr))?$/u;

/** The message reduced to lower-case words, for recognising greetings and thanks. */
function normalise(content: string): string {
  return content
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Minimum MiniSearch score for a section to count as an answer: below it, matches are fuzzy noise. */
const MIN_SCORE = 2;

/**
 * Creates the default reply source: answers from the project's docs, deterministic.
 *
 * @example
 * const source = createKnowledgeBaseReplySource();
 * await source.reply({ content: 'How do I embed the widget?', … }); // "**Embed the widget …**\n\n…"
 */
export function createKnowledgeBaseReplySource(options: KnowledgeBaseOptions = {}): KnowledgeBaseReplySource {
  const root = findProjectRoot();
  const paths = options.docs ?? defaultDocPaths(root);
  const readFile = options.readFile ?? ((path: string) => readFileSync(path, 'utf8'));
  const maxExcerptChars = options.maxExcerptChars ?? 1200;
  if (!Number.isFinite(maxExcerptChars) || maxExcerptChars < 100) {
    throw new RangeError(`maxExcerptChars must be a number of at least 100, got ${String(options.maxExcerptChars)}.`);
  }
  if (!options.readFile) {
    // A misspelt path should stop the emulator at start, not answer 500 on the first message.
    const missing = paths.filter((path) => !existsSync(path));
    if (missing.length) throw new Error(`Knowledge base: docs file not found: ${missing.join(', ')}.`);
  }

  let knowledgeBase: KnowledgeBase | undefined;
  const build = (): KnowledgeBase => {
    if (knowledgeBase) return knowledgeBase;
    const sections: DocSection[] = [];
    const topics: string[] = [];
    const readmeTopics: string[] = [];
    for (const path of paths) {
      let markdown: string;
      try {
        markdown = readFile(path);
      } catch (error) {
        throw new Error(`Knowledge base: cannot read docs file ${path}: ${(error as Error).message}`);
      }
      const fileSections = splitSections(markdown, displayName(path, root), sections.length);
      sections.push(...fileSections);
      if (basename(path).toLowerCase() === 'readme.md') {
        readmeTopics.push(...fileSections.filter((s) => s.level === 2).map((s) => s.title));
      } else {
        const title = /^#\s+(.+?)\s*$/m.exec(markdown)?.[1] ?? fileSections[0]?.title;
        if (title) topics.push(title);
      }
    }
    const index = new MiniSearch<DocSection>({
      idField: 'id',
      fields: ['title', 'context', 'body'],
      processTerm,
      searchOptions: {
        boost: { title: 3, context: 1.5, body: 1 },
        prefix: (term) => term.length >= 4,
        fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
        combineWith: 'OR',
      },
    });
    index.addAll(sections);
    knowledgeBase = { sections, index, topics: (topics.length ? topics : readmeTopics).slice(0, 5) };
    return knowledgeBase;
  };

  const answer = (content: string, userName?: string): string => {
    const kb = build();
    const words = normalise(content);
    const name = userName?.trim() ? `, ${userName.trim()}` : '';
    if (GREETING.test(words)) {
      return (
        `Hello${name}! I'm the demo assistant of this site. I answer from the project's docs, in English. ` +
        `Ask me about ${formatTopics(kb.topics)}, for example "How do I embed the widget?"`
      );
    }
    if (THANKS.test(words)) return `You're welcome${name}! Anything else I can help you with?`;

    const best = kb.index
      .search(content)
      .filter((result) => result.score >= MIN_SCORE)
      .sort((a, b) => b.score - a.score || (a.id as number) - (b.id as number))[0];
    const section = best ? kb.sections[best.id as number] : undefined;
    if (!section) {
      return (
        `I couldn't find that in the docs, sorry. I can help with ${formatTopics(kb.topics)}. ` +
        `Try a question such as "How do I embed the widget?" or "Is my API secret safe?"`
      );
    }
    const { text, truncated } = excerpt(tablesAsLists(unlinkRelative(section.body)), maxExcerptChars);
    const more = truncated ? `\n\n_…more in ${section.source}._` : `\n\n_From ${section.source}._`;
    return `**${section.title}**\n\n${text}${more}`;
  };

  return {
    name: 'knowledge-base',
    answer,
    get sectionCount() {
      return build().sections.length;
    },
    async reply(request: ReplyRequest, signal?: AbortSignal): Promise<string> {
      signal?.throwIfAborted();
      return answer(request.content, request.userName);
    },
  };
}

/** The path shown to visitors: relative to the project root when inside it, else the file name. */
function displayName(path: string, root: string | undefined): string {
  if (root) {
    const rel = relative(root, path);
    if (rel && !rel.startsWith('..') && !isAbsolute(rel)) return rel.split(sep).join('/');
  }
  return basename(path);
}

/** Topics to suggest when nothing matched: each docs file's title, or the README's sections when it is alone. */
function formatTopics(topics: string[]): string {
  if (topics.length === 0) return 'this product';
  const bold = topics.map((t) => `**${t}**`);
  return bold.length === 1 ? bold[0]! : `${bold.slice(0, -1).join(', ')} or ${bold[bold.length - 1]}`;
}
