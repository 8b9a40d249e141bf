// The history search's parts: folding (accents, case, width), words of unspaced scripts with and
// without Intl.Segmenter, ranking (words found, whole over prefix, newer on ties), passages.
import { assert, equal } from '../helpers/browser/helpers.js';
import { fold, tokenize, useSegmenter } from '../../src/chatbot-widget/search/tokenize.js';
import { SearchIndex, type SearchHit } from '../../src/chatbot-widget/search/search-index.js';
import { highlight } from '../../src/chatbot-widget/search/highlight.js';
import type { CachedConversation } from '../../src/chatbot-widget/conversation/cached-conversation.js';

let ids = 0;
/** A cached conversation of visitor messages (`[text, minutes ago]`), each followed by a bot answer. */
function conversation(sessionId: string, messages: [string, number][]): CachedConversation {
  const now = Date.now();
  return {
    sessionId,
    totalItems: messages.length * 2,
    messages: messages.flatMap(([text, ago]) => {
      const at = now - ago * 60_000;
      const base = { chatbotId: 'b', chatSessionId: sessionId, chatUserId: 'u', tokenCount: 1 };
      return [
        { ...base, id: `m${++ids}`, senderType: 'User' as const, text, createdAt: new Date(at).toISOString() },
        { ...base, id: `m${++ids}`, senderType: 'Bot' as const, text: `bot says ${text}`, createdAt: new Date(at + 1_000).toISOString() },
      ];
    }),
  };
}

const texts = (hits: SearchHit[]) => hits.map((h) => h.pieces.map((p) => p.text).join(''));
const marked = (hit: SearchHit) => hit.pieces.filter((p) => p.mark).map((p) => p.text);

describe('history search: words', () => {
  afterEach(() => useSegmenter(true));

  it('folds accents, case, width and ligatures, and keeps kana voicing and Hangul', () => {
    equal(fold('Café CRÈME'), 'cafe creme');
    equal(fold('Straße'), 'strasse');
    equal(fold('ＡＢＣ ﬁle'), 'abc file');
    equal(fold('ΣΟΦΟΣ'), 'σοφοσ');
    equal(fold('がっこう'), 'がっこう', 'the voicing mark changes the kana: kept');
    equal(fold('한국어'), '한국어', 'Hangul syllables recomposed');
  });

  it('splits Chinese and Japanese into words, with Intl.Segmenter and without it', () => {
    const withSegmenter = tokenize('我想预订机票').map((t) => t.term);
    assert(withSegmenter.length >= 3 && withSegmenter.join('') === '我想预订机票', `segmented: ${withSegmenter.join('/')}`);
    useSegmenter(false);
    equal(
      tokenize('我想预订机票 ok')
        .map((t) => t.term)
        .join('/'),
      '我/想/预/订/机/票/ok',
      'per character',
    );
    equal(
      tokenize('Crème brûlée!')
        .map((t) => t.term)
        .join('/'),
      'creme/brulee',
    );
    const [token] = tokenize('  Brûlée');
    equal(`${token!.start}-${token!.end}`, '2-8', 'offsets in the original text');
  });
});

describe('history search: ranking', () => {
  const index = new SearchIndex([
    conversation('s1', [
      ['Where is my delivery?', 60],
      ['refund please', 50],
      ['I want a refund for the delivery', 40],
      ['Refund', 70],
    ]),
    conversation('s2', [
      ['Delivering tomorrow?', 30],
      ['refund', 20],
      ['Café opening hours', 10],
      ['我想预订机票', 5],
    ]),
  ]);

  it("indexes only the visitor's messages", () => {
    equal(index.size, 8);
    equal(index.search('bot').length, 0, 'bot answers are not searched');
  });

  it('puts more words found first, then rare words and short messages, then newer messages', () => {
    const hits = index.search('refund delivery');
    equal(texts(hits)[0], 'I want a refund for the delivery', 'both words');
    equal(texts(hits).slice(1).join('|'), 'Where is my delivery?|refund|Refund|refund please', 'one word each');
    assert(Date.parse(hits[2]!.createdAt) > Date.parse(hits[3]!.createdAt), 'same score: the newer first');
    const prefix = index.search('deliver');
    equal(texts(prefix).join('|'), 'Delivering tomorrow?|Where is my delivery?|I want a refund for the delivery', 'prefixes');
  });

  it('puts whole-word matches before prefix matches, even older and longer ones', () => {
    const words = new SearchIndex([
      conversation('s3', [
        ['orders', 1],
        ['we need to talk about the order of things here before we go any further today', 100],
      ]),
    ]);
    equal(texts(words.search('order')).join('|'), 'we need to talk about the order of things here before we go any further today|orders');
  });

  it('finds accented and CJK text from plain queries, and marks the words found', () => {
    const [cafe] = index.search('CAFE');
    assert(cafe, 'found');
    equal(marked(cafe).join('|'), 'Café');
    equal(cafe.sessionId, 's2');
    const [ticket] = index.search('票');
    assert(ticket, 'a character inside a word of the segmenter is found');
    equal(marked(ticket).join(''), '机票');
    equal(index.search('zzz').length, 0);
    equal(index.search('  ').length, 0);
  });
});

describe('history search: passages', () => {
  it('cuts long messages around the first match, at a word, and merges overlapping marks', () => {
    const text = `${'lorem ipsum '.repeat(20)}needle ${'dolor sit '.repeat(20)}`;
    const at = text.indexOf('needle');
    const pieces = highlight(text, [{ start: at, end: at + 6 }]);
    const joined = pieces.map((p) => p.text).join('');
    assert(joined.startsWith('…') && joined.endsWith('…'), joined);
    assert(joined.length <= 162, `passage length ${joined.length}`);
    assert(/^…\w/.test(joined) && !joined.startsWith('… '), 'starts at a word');
    equal(
      pieces
        .filter((p) => p.mark)
        .map((p) => p.text)
        .join(),
      'needle',
    );
    equal(
      highlight('abcdef', [
        { start: 3, end: 5 },
        { start: 0, end: 2 },
        { start: 1, end: 4 },
      ])
        .map((p) => (p.mark ? `[${p.text}]` : p.text))
        .join(''),
      '[abcde]f',
    );
  });

  it('never cuts a character in two', () => {
    const text = `${'😀'.repeat(100)}x`;
    const pieces = highlight(text, [{ start: 200, end: 201 }]);
    const joined = pieces.map((p) => p.text).join('');
    assert(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(joined), 'no lone surrogate');
  });
});
