// The reply lexer's work grows linearly with the text, whatever the text: a property over
// generated hostile Markdown (./arbitraries.ts) up to the 12,000 characters a reply is lexed at,
// and the same families at four times that, plus fixed inputs that once made it rescan. Work is
// counted, not timed (./work-count.ts says what counts): every loop iteration and call of the
// lexer, every regular expression run with the characters it reads, every `indexOf` with the
// characters it passes over.
//
// The bound, WORK_PER_CHARACTER × length + WORK_FIXED: the lexer reads a reply in passes that
// each look at a position a bounded number of times (the top of ../../src/ui/markdown/
// inline.ts and block.ts say why). The block pass runs again for each level of container a line
// is in, up to MAX_DEPTH + 1 = 13 levels, at about 14 units a character a level (this count
// charges an anchored expression that fails with the whole line): the deepest nesting measures
// about 185 units a character (`- - - … x`, a list in a list in a list …). Whether a line is a
// thematic break is not part of that: it is decided from the line's end, read once. The inline
// pass, with the emphasis matching after it, measures at most about 35 (`*_*_*_…`). 250 leaves
// room for both on one text, and is below what a break test reading the line at each level costs
// (`> > > … x` measured 315, each marker stripped testing the rest of the line), and far below
// what a rescanning lexer does: a URL run cut at an unclosed `(` and scanned again from each start
// measured 6,000 units a character at 12,000 characters, and 24,000 at 48,000.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lexMarkdown } from '../../../src/ui/markdown/block.js';
import { fuzzParameters } from '../../helpers/fuzz.js';
import { FAMILY_NAMES, hostileMarkdown, REPLY_LENGTH } from './arbitraries.js';
import { countWork } from './work-count.js';

const WORK_PER_CHARACTER = 250;
const WORK_FIXED = 1_000;

/** Inputs that made a lexer backtrack or rescan, by length. */
const HOSTILE: Record<string, (length: number) => string> = {
  'intraword underscores': (n) => '_a'.repeat(n / 2),
  'unclosed emphasis': (n) => '*a **b '.repeat(n / 7),
  'emphasis of every kind': (n) => 'a*_~'.repeat(n / 4),
  'nested emphasis': (n) => '*a '.repeat(n / 6) + 'a* '.repeat(n / 6),
  tildes: (n) => '~~a'.repeat(n / 3),
  'open brackets': (n) => '[!['.repeat(n / 3),
  'links never closed': (n) => '[a](()'.repeat(n / 6),
  'link destinations': (n) => '[a](b'.repeat(n / 5),
  'link titles': (n) => '[a](b "'.repeat(n / 7),
  'link titles opened with (': (n) => '[a](b ('.repeat(n / 7),
  'link titles closed at the end': (n) => '[a](b "'.repeat(n / 7) + '"',
  references: (n) => '[a][b]'.repeat(n / 6),
  'backtick runs': (n) => '`a``b'.repeat(n / 5),
  'tags never closed': (n) => '<a x="'.repeat(n / 6),
  'one long tag': (n) => '<a ' + 'b '.repeat(n / 2),
  'comments never closed': (n) => 'x <!--a'.repeat(n / 7),
  'declarations never closed': (n) => 'x <!A '.repeat(n / 6),
  URLs: (n) => 'https://a.b/...'.repeat(n / 15),
  'URLs cut at an unclosed (': (n) => 'www.a('.repeat(n / 6),
  'http URLs cut at an unclosed (': (n) => 'http://a('.repeat(n / 9),
  'URL with trailing dots': (n) => 'https://a.b/' + '.'.repeat(n),
  'URL with trailing entities': (n) => 'https://a.b/' + '&a;'.repeat(n / 3),
  'e-mail-like words': (n) => 'a_b.c-'.repeat(n / 6) + '@',
  'quote markers': (n) => '> '.repeat(n / 2) + 'x',
  'list markers in a quote': (n) => '> ' + '- '.repeat(n / 2 - 2) + '*',
  'lazy quote lines': (n) => '> a\nb\n'.repeat(n / 6),
  'indented lists': (n) => Array.from({ length: Math.sqrt(n) }, (_, i) => ' '.repeat(i * 2) + '- x').join('\n'),
  'list markers': (n) => '1. '.repeat(n / 3),
  fences: (n) => '```\n'.repeat(n / 4),
  'table rows': (n) => '|a|\n|-|\n' + '|x|\n'.repeat(n / 4),
  // Short rows are padded to the header's width: columns × rows cells from a few characters each.
  'a wide header over short rows': (n) => '|a'.repeat(n / 8) + '|\n' + '|-'.repeat(n / 8) + '|\n' + 'x\n'.repeat(n / 4),
  'twenty columns over many short rows': (n) => '|a'.repeat(20) + '|\n' + '|-'.repeat(20) + '|\n' + 'x\n'.repeat(n / 2 - 50),
  'escaped pipes': (n) => 'a|b\n-|-\n' + '\\|'.repeat(n / 2 - 5),
  'HTML blocks': (n) => '<div>\n'.repeat(n / 6),
  everything: (n) => '*_~`[]()<>!\\\n'.repeat(n / 13),
};

function assertLinear(name: string, text: string): void {
  const { work } = countWork(text);
  const bound = WORK_PER_CHARACTER * text.length + WORK_FIXED;
  assert.ok(work <= bound, `${name}: ${work} units of work for ${text.length} characters (at most ${bound})`);
}

test('lexing hostile replies known to make a lexer rescan is linear in their length', () => {
  for (const [name, make] of Object.entries(HOSTILE)) assertLinear(name, make(REPLY_LENGTH));
});

for (const family of [...FAMILY_NAMES, 'mixture']) {
  test(`lexing generated replies of ${family} is linear in their length and never throws`, () => {
    fc.assert(
      fc.property(hostileMarkdown(REPLY_LENGTH, family), (text) => {
        assert.doesNotThrow(() => lexMarkdown(text));
        assertLinear(family, text);
      }),
      fuzzParameters(20),
    );
  });
}

test('lexing generated replies at four times the length of a reply is linear too', () => {
  fc.assert(
    fc.property(hostileMarkdown(4 * REPLY_LENGTH), (text) => assertLinear('four times longer', text)),
    fuzzParameters(10),
  );
});

test('short random strings of Markdown punctuation lex without throwing', () => {
  fc.assert(
    fc.property(hostileMarkdown(200), (text) => void lexMarkdown(text)),
    fuzzParameters(2_000),
  );
});
