/**
 * Words of a message for the history search, with where each sits in the original text (so a
 * match can be highlighted there) and its folded form (so `Café`, `cafe` and `CAFÉ` meet).
 *
 * Languages written without spaces (Chinese, Japanese, Thai) are split by the browser's
 * `Intl.Segmenter`, which knows their words; where it is missing, each ideograph and kana is a
 * word of its own, which still finds them (a query is split the same way).
 */

/** One word of a text: `text.slice(start, end)` folds to `term`. */
export interface Token {
  term: string;
  start: number;
  end: number;
}

/**
 * Accents to drop after canonical decomposition (`[first, last]` code points): the combining
 * diacritics of Latin, Greek and Cyrillic, Hebrew points and Arabic vowel marks. Not every
 * mark: Indic vowel signs and the kana voicing marks change the letter, not its accent, and stay.
 */
const ACCENTS: readonly (readonly [number, number])[] = [
  [0x0300, 0x036f],
  [0x0591, 0x05c7],
  [0x064b, 0x065f],
  [0x0670, 0x0670],
  [0x1ab0, 0x1aff],
  [0x1dc0, 0x1dff],
  [0x20d0, 0x20ff],
  [0xfe20, 0xfe2f],
];
const isAccent = (mark: string) => {
  const code = mark.codePointAt(0)!;
  return ACCENTS.some(([first, last]) => code >= first && code <= last);
};

/**
 * The form words are compared in: compatibility-decomposed (ligatures, full-width letters),
 * accents dropped, recomposed (Hangul syllables), case-folded, with the folds `toLowerCase`
 * leaves out (ß is ss, a final sigma is a sigma).
 */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{Mn}/gu, (mark) => (isAccent(mark) ? '' : mark))
    .normalize('NFC')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/ς/g, 'σ');
}

/**
 * Chinese and Japanese: written without spaces, split per character where no segmenter is, and
 * matched inside words (a query for 票 finds 机票, a word of the segmenter's).
 */
export const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/** A run of letters and digits (marks included, so decomposed accents stay inside the word). */
const WORD = /[\p{L}\p{N}\p{M}_]+/gu;

let segmenter: Intl.Segmenter | null | undefined;

function wordSegmenter(): Intl.Segmenter | null {
  if (segmenter === undefined) {
    try {
      segmenter = typeof Intl.Segmenter === 'function' ? new Intl.Segmenter(undefined, { granularity: 'word' }) : null;
    } catch {
      segmenter = null;
    }
  }
  return segmenter;
}

/** For tests: tokenize as a browser without `Intl.Segmenter` would (`false`), or as this one does. */
export function useSegmenter(enabled: boolean) {
  segmenter = enabled ? undefined : null;
}

function push(tokens: Token[], text: string, start: number, end: number) {
  const term = fold(text.slice(start, end));
  if (term) tokens.push({ term, start, end });
}

/** The words of `text`, in order. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const words = wordSegmenter();
  if (words) {
    for (const { segment, index, isWordLike } of words.segment(text)) {
      if (isWordLike) push(tokens, text, index, index + segment.length);
    }
    return tokens;
  }
  for (const match of text.matchAll(WORD)) {
    const start = match.index;
    const word = match[0];
    let from = 0;
    // Per character through the unspaced scripts, whole words elsewhere.
    for (let i = 0; i < word.length;) {
      const char = String.fromCodePoint(word.codePointAt(i)!);
      if (UNSPACED.test(char)) {
        if (from < i) push(tokens, text, start + from, start + i);
        push(tokens, text, start + i, start + i + char.length);
        from = i + char.length;
      }
      i += char.length;
    }
    if (from < word.length) push(tokens, text, start + from, start + word.length);
  }
  return tokens;
}
