/**
 * GFM tables for the reply lexer (./block.ts): where one starts, its alignments, a row's cells,
 * and the size past which a table is shown as its source text.
 */
import type { Align, Leaf, Token } from './tokens.js';

/** A delimiter row: cells of dashes, each with an optional colon at either end, split by pipes. */
const TABLE_DELIMITER = /^ {0,3}((?:\| *)?:?-+:? *(?:\| *:?-+:? *)*(?:\| *)?)$/;

/**
 * The most columns, and cells (the header's included, short rows padded), of a table drawn as a
 * table: a larger one is shown as its source text. Short rows are padded to the header's width, so
 * a wide header over many short rows (`|||…`, then lines of `x`) would otherwise make millions of
 * cells out of a reply of a few thousand characters.
 */
export const MAX_TABLE_COLUMNS = 20;
export const MAX_TABLE_CELLS = 2_000;

/**
 * A table row's cells, trimmed, as GFM splits them: on each `|` not escaped by a backslash (`\|`
 * is a pipe within a cell), the pipes at either end of the row optional.
 */
export function tableCells(row: string): string[] {
  const cells: string[] = [];
  let start = 0;
  for (let k = 0; k < row.length; k++) {
    if (row[k] === '\\') k++;
    else if (row[k] === '|') {
      cells.push(row.slice(start, k));
      start = k + 1;
    }
  }
  cells.push(row.slice(start));
  // An empty first or last cell is the space before a leading pipe or after a trailing one.
  if (!cells[0]!.trim()) cells.shift();
  if (cells.length && !cells.at(-1)!.trim()) cells.pop();
  return cells.map((cell) => cell.trim().replace(/\\\|/g, '|'));
}

/** A delimiter row's alignments, a column each: `:--` left, `:-:` center, `--:` right. */
function alignments(delimiter: string): Align[] {
  return delimiter
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((cell) => {
      const [left, right] = [/^ *:/.test(cell), /: *$/.test(cell)];
      return left && right ? 'center' : right ? 'right' : left ? 'left' : null;
    });
}

/**
 * The alignments of the GFM table starting at lines[at], if lines[at] and the next line start one:
 * a header row, then a delimiter row of as many cells.
 */
export function tableAt(lines: string[], at: number): Align[] | undefined {
  const delimiter = TABLE_DELIMITER.exec(lines[at + 1] ?? '')?.[1];
  if (!delimiter || !/[:|]/.test(delimiter) || !/^ *[^ ]/.test(lines[at]!)) return undefined;
  const align = alignments(delimiter);
  return tableCells(lines[at]!).length === align.length ? align : undefined;
}

/**
 * The token of the table whose lines are `rows` (the header row, the delimiter row, then the body),
 * each cell a leaf made by `leaf` for the inline lexer; a table past the size limits is its source
 * text. A row's cells past the header's are dropped; missing ones are empty.
 */
export function tableToken(rows: string[], align: Align[], raw: string, leaf: (text: string) => Leaf): Token {
  // Rows (header included, delimiter not) times columns: the cells drawn, short rows' padding included.
  if (align.length > MAX_TABLE_COLUMNS || (rows.length - 1) * align.length > MAX_TABLE_CELLS) return { type: 'plain', raw };
  const header = tableCells(rows[0]!).map(leaf);
  const columns = header.length;
  const body = rows.slice(2).map((row) => {
    const cells = tableCells(row);
    return Array.from({ length: columns }, (_, column) => leaf(cells[column] ?? ''));
  });
  return { type: 'table', raw, header, align, rows: body };
}
