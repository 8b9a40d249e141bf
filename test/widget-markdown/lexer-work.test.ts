// The reply lexer on hostile and random input: it never throws, and its work grows linearly with
// the length of the text. Work is counted, not timed: every regular expression run and every
// character `indexOf` scans, while lexing texts of 12,500 and 50,000 characters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lexMarkdown } from '../../src/widget/markdown/block.js';

/** Inputs built to make a naive lexer backtrack or rescan, by length. */
const HOSTILE: Record<string, (length: number) => string> = {
  'intraword underscores': (n) => '_a'.repeat(n / 2),
  'unclosed emphasis': (n) => '*a **b '.repeat(n / 7),
  tildes: (n) => '~~a'.repeat(n / 3),
  'open brackets': (n) => '[!['.repeat(n / 3),
  'links never closed': (n) => '[a](()'.repeat(n / 6),
  'link destinations': (n) => '[a](b'.repeat(n / 5),
  'link titles': (n) => '[a](b "'.repeat(n / 7),
  references: (n) => '[a][b]'.repeat(n / 6),
  'backtick runs': (n) => '`a``b'.repeat(n / 5),
  'tags never closed': (n) => '<a x="'.repeat(n / 6),
  'one long tag': (n) => '<a ' + 'b '.repeat(n / 2),
  'comments never closed': (n) => 'x <!--a'.repeat(n / 7),
  'declarations never closed': (n) => 'x <!A '.repeat(n / 6),
  URLs: (n) => 'https://a.b/...'.repeat(n / 15),
  'URL with trailing dots': (n) => 'https://a.b/' + '.'.repeat(n),
  'URL with trailing entities': (n) => 'https://a.b/' + '&a;'.repeat(n / 3),
  'e-mail-like words': (n) => 'a_b.c-'.repeat(n / 6) + '@',
  'quote markers': (n) => '> '.repeat(n / 2) + 'x',
  'lazy quote lines': (n) => '> a\nb\n'.repeat(n / 6),
  'indented lists': (n) => Array.from({ length: Math.sqrt(n) }, (_, i) => ' '.repeat(i * 2) + '- x').join('\n'),
  'list markers': (n) => '1. '.repeat(n / 3),
  fences: (n) => '```\n'.repeat(n / 4),
  'table rows': (n) => '|a|\n|-|\n' + '|x|\n'.repeat(n / 4),
  'HTML blocks': (n) => '<div>\n'.repeat(n / 6),
  everything: (n) => '*_~`[]()<>!\\\n'.repeat(n / 13),
};

/** Runs `work` counting regular expression runs and characters scanned by `indexOf`. */
function countWork(work: () => void): number {
  let count = 0;
  const { exec } = RegExp.prototype;
  const { indexOf } = String.prototype;
  RegExp.prototype.exec = function (this: RegExp, text: string) {
    count++;
    return exec.call(this, text);
  };
  String.prototype.indexOf = function (this: string, search: string, from = 0) {
    const at = indexOf.call(this, search, from);
    count += 1 + (at < 0 ? this.length : at) - from;
    return at;
  };
  try {
    work();
  } finally {
    RegExp.prototype.exec = exec;
    String.prototype.indexOf = indexOf;
  }
  return count;
}

test('lexing work grows linearly with the text, whatever the text', () => {
  for (const [name, make] of Object.entries(HOSTILE)) {
    const short = countWork(() => lexMarkdown(make(12_500)));
    const long = countWork(() => lexMarkdown(make(50_000)));
    // Four times the text: about four times the work (quadratic work would be sixteen times).
    assert.ok(long <= short * 5, `${name}: ${short} units of work for 12,500 characters, ${long} for 50,000`);
  }
});

test('2,000 random strings of Markdown punctuation lex without throwing', () => {
  const alphabet = [
    '*',
    '_',
    '~',
    '`',
    '[',
    ']',
    '(',
    ')',
    '!',
    '<',
    '>',
    '#',
    '-',
    '+',
    '1.',
    '|',
    ':',
    '\\',
    '&',
    ';',
    '"',
    "'",
    ' ',
    '  ',
    '\t',
    '\n',
    '\n\n',
    'a',
    'b',
    'http://',
    'www.',
    '@',
    'x.io',
  ];
  let seed = 12_345;
  const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  for (let run = 0; run < 2_000; run++) {
    let text = '';
    for (let length = Math.floor(random() * 200); length > 0; length--) text += alphabet[Math.floor(random() * alphabet.length)];
    assert.doesNotThrow(() => lexMarkdown(text), JSON.stringify(text));
  }
});
