// Generated Markdown built to make a lexer rescan or backtrack: pieces of one family of hostile
// syntax (delimiter runs, unclosed brackets, link titles, URL starts…), or of all of them, put
// together at random and repeated up to a length. Shared by the lexer's work property (Node) and
// the renderer's fuzz test (Chromium), so both try the same inputs.
import fc from 'fast-check';

/** Replies are lexed up to this many characters (longer ones are shown as plain text). */
export const REPLY_LENGTH = 12_000;

/** The pieces each family of hostile input is made of. */
export const FAMILIES: Record<string, readonly string[]> = {
  emphasis: ['*', '**', '***', '_', '__', '~', '~~', '~~~', 'a', ' ', '.', '\\*', '\n'],
  brackets: ['[', ']', '![', '(', ')', '](', '][', '[]', 'a', ' ', '\\]', '\n'],
  'link destinations and titles': [
    '[a](',
    '[a](b',
    '[a](b ',
    '[a](<b',
    ' "',
    " '",
    ' (',
    '(',
    ')',
    '"',
    "'",
    '>',
    '\\',
    '\n',
    '[a][',
    ']',
    '[a]: b ',
    '[a](javascript:b)',
    '[a](data:text/html,b)',
    '[a](JaVa\tScRiPt:b)',
    '[a](&#106;avascript:b)',
    '<vbscript:b>',
  ],
  'URL starts': [
    'www.',
    'www.a',
    'http://',
    'https://a.b',
    'mailto:a@b.c',
    'a@b',
    'a.b@c.d',
    '.c',
    'a',
    '(',
    ')',
    '.',
    '&a;',
    ' ',
    '<',
    '_',
    '-',
  ],
  'backtick runs': ['`', '``', '```', '````', 'a', ' ', '\n', '\\`'],
  nesting: ['> ', '- ', '* ', '1. ', '  ', '    ', '\n', '*[a](b)*', '[*a*](b)', '**', '[', '](c)', 'a'],
  'HTML-ish tags and comments': [
    '<a',
    '<div>',
    '</a>',
    ' x="',
    "'",
    '"',
    '>',
    '<!--',
    '-->',
    '<!A ',
    '<?',
    ' ',
    'a',
    '\n',
    '=',
    '/',
    '<script>',
    '<img src=x onerror=',
    ' style="',
    '<iframe ',
  ],
  tables: ['|', '-', ':', ' ', 'a', '\n', '|-|', '\\|', '`'],
  fences: ['```', '~~~', '\n', 'a', '    ', '\t', '` ', '~'],
};
export const FAMILY_NAMES = Object.keys(FAMILIES);
const ALL_PIECES = [...new Set(Object.values(FAMILIES).flat())];

/** Pieces of one family, or of all (`mixture`), joined into a short unit of text. */
export const unit = (family: string): fc.Arbitrary<string> =>
  fc.array(fc.constantFrom(...(FAMILIES[family] ?? ALL_PIECES)), { minLength: 1, maxLength: 6 }).map((pieces) => pieces.join(''));

/** A unit of text repeated up to `length` characters: what makes a lexer that rescans quadratic. */
export const repeated = (text: string, length: number) => text.repeat(Math.ceil(length / text.length)).slice(0, length);

/**
 * A hostile reply of at most `maxLength` characters, of one family (`mixture`: pieces of all), or
 * of any: a unit of text repeated, or several units one after another.
 */
export function hostileMarkdown(maxLength = REPLY_LENGTH, of?: string): fc.Arbitrary<string> {
  const family = of === undefined ? fc.constantFrom(...FAMILY_NAMES, 'mixture') : fc.constant(of);
  const oneUnit = family.chain((name) =>
    fc.tuple(unit(name), fc.integer({ min: Math.ceil(maxLength / 2), max: maxLength })).map(([text, length]) => repeated(text, length)),
  );
  const units = fc
    .array(
      family.chain((name) =>
        fc.tuple(unit(name), fc.integer({ min: 1, max: Math.ceil(maxLength / 30) })).map(([text, count]) => text.repeat(count)),
      ),
      { minLength: 1, maxLength: 12 },
    )
    .map((parts) => parts.join('').slice(0, maxLength));
  return fc.oneof(oneUnit, units);
}
