// GFM tables as the reply lexer reads them: header cells, each column's alignment and the body
// rows, split on unescaped pipes, short rows padded and long ones cut to the header's width, and
// tables past the size the widget draws kept as their source text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lexMarkdown } from '../../../src/ui/markdown/block.js';
import { MAX_TABLE_CELLS, MAX_TABLE_COLUMNS } from '../../../src/ui/markdown/table.js';
import type { Token } from '../../../src/ui/markdown/tokens.js';

type Table = Extract<Token, { type: 'table' }>;

/** The reply's one block, which must be a table: its header, alignments and rows as text. */
function table(markdown: string): { header: string[]; align: Table['align']; rows: string[][] } {
  const tokens = lexMarkdown(markdown).filter((token) => token.type !== 'space');
  assert.equal(tokens.length, 1, `one block in ${JSON.stringify(markdown)}`);
  const token = tokens[0]!;
  assert.equal(token.type, 'table', `a table: ${JSON.stringify(markdown)}`);
  const { header, align, rows } = token as Table;
  return { header: header.map((cell) => cell.text), align, rows: rows.map((row) => row.map((cell) => cell.text)) };
}

test('a table has its header cells, the alignment of each column and its rows', () => {
  assert.deepEqual(
    table('| Plan | Price | Seats | Notes |\n|:-----|:-----:|------:|-------|\n| Free | 0 € | 1 | trial |\n| Team | 20 € | 10 | |'),
    {
      header: ['Plan', 'Price', 'Seats', 'Notes'],
      align: ['left', 'center', 'right', null],
      rows: [
        ['Free', '0 €', '1', 'trial'],
        ['Team', '20 €', '10', ''],
      ],
    },
  );
});

test('the pipes at either end of a row are optional, and cells are trimmed', () => {
  assert.deepEqual(table('a | b\n--|:-\n  1 |   2   \n| 3 | 4 |'), {
    header: ['a', 'b'],
    align: [null, 'left'],
    rows: [
      ['1', '2'],
      ['3', '4'],
    ],
  });
});

test('an escaped pipe is a pipe within its cell; an escaped backslash before a pipe is not', () => {
  assert.deepEqual(table('| a \\| b | c |\n|---|---|\n| x \\\\| y |').rows, [['x \\\\', 'y']]);
  assert.deepEqual(table('| a \\| b | c |\n|---|---|').header, ['a | b', 'c']);
});

test("rows with fewer cells than the header are padded with empty ones; cells past the header's are dropped", () => {
  assert.deepEqual(table('|a|b|c|\n|-|-|-|\n|1|\n|1|2|3|4|5|').rows, [
    ['1', '', ''],
    ['1', '2', '3'],
  ]);
});

test("cells hold inline Markdown, lexed with the reply's link definitions", () => {
  const token = lexMarkdown('|name|\n|-|\n|**bold** [docs][d]|\n\n[d]: https://example.com/docs')[0] as Table;
  const cell = token.rows[0]![0]!.tokens!;
  assert.deepEqual(
    cell.map((part) => part.type),
    ['strong', 'text', 'link'],
  );
  assert.equal((cell[2] as { href: string }).href, 'https://example.com/docs');
});

test('a header and delimiter row with different numbers of cells are no table', () => {
  assert.deepEqual(
    lexMarkdown('The plan | cost\n---|---|---').map((token) => token.type),
    ['paragraph'],
  );
});

test('a table wider or larger than the widget draws is kept as its source text', () => {
  const row = (cells: number) => '|a'.repeat(cells) + '|';
  const delimiter = (cells: number) => '|-'.repeat(cells) + '|';
  const wide = `${row(MAX_TABLE_COLUMNS + 1)}\n${delimiter(MAX_TABLE_COLUMNS + 1)}\n${row(1)}`;
  assert.deepEqual(lexMarkdown(wide), [{ type: 'plain', raw: wide }]);
  assert.equal(table(`${row(MAX_TABLE_COLUMNS)}\n${delimiter(MAX_TABLE_COLUMNS)}\n${row(1)}`).header.length, MAX_TABLE_COLUMNS);

  // Short rows count at the header's width: they are drawn padded.
  const rowsThatFit = MAX_TABLE_CELLS / 10 - 1;
  const tall = (rows: number) => `${row(10)}\n${delimiter(10)}\n${'x\n'.repeat(rows)}`.trimEnd();
  assert.equal(table(tall(rowsThatFit)).rows.length, rowsThatFit);
  assert.deepEqual(
    lexMarkdown(tall(rowsThatFit + 1)).map((token) => token.type),
    ['plain'],
  );
});
