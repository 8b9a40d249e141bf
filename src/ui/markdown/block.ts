/**
 * The reply lexer's block half, kept whole (about 330 lines): the line patterns decide together
 * which block a line starts (a table, a list or a break can each interrupt a paragraph), and the
 * argument below that its work is linear holds only when they are read together.
 *
 * It lexes paragraphs, headings (ATX and setext), fenced and indented code, block quotes, lists
 * (loose or tight, nested by indentation), thematic breaks, GFM tables and link reference
 * definitions. Lines of HTML are paragraphs like any other: their tags are text either way (see
 * ./inline.ts). It reads the reply line by line, shaped after `marked` (the tests hold the two
 * together, and list where they differ), and hands each paragraph's text to the inline lexer once
 * every reference definition is known.
 *
 * Its work is linear in the length of the reply: each line is tested against a bounded number of
 * line patterns (anchored, each reading the line once), once for each container (quote, list
 * item) it is in, and containers nest at most {@link MAX_DEPTH} deep. Stripping the markers of a
 * line (`withoutMarkers`) stops at that depth too. Whether a line is a thematic break is decided
 * without reading it again at each level: see {@link breakTail}.
 */
import { lexInline } from './inline.js';
import { tableAt, tableToken } from './table.js';
import { MAX_DEPTH, refLabel, unescape, type Align, type Leaf, type Refs, type Token } from './tokens.js';

const BLANK = /^[ \t]*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*)|[ \t]*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^( {0,3})(`{3,}(?=[^`]*$)|~{3,})/;
const BULLET = /^( {0,3})([*+-]|\d{1,9}[.)])([ \t].*)?$/;
const QUOTE = /^ {0,3}>/;
const INDENTED = /^(?: {4}| {0,3}\t)/;
const DEF =
  /^ {0,3}\[((?:\\.|[^[\]\\])+)\]:[ \t]*(<(?:\\.|[^\n<>\\])*>|[^<\s]\S*)(?:[ \t]+(?:"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\((?:\\.|[^()\\])*\)))?[ \t]*$/;

/**
 * How many of a line's last characters could end a thematic break: the longest end of the line
 * made of one of `-`, `_` and `*` (the same throughout) with spaces and tabs among them, or 0.
 * Read once for each line of the reply, from its end: every line a container makes of it (without
 * its markers, indentation or `>`) ends with the same characters, so the figure is carried down
 * with the line (`tails`, beside `lines`) and a line of many markers (`- - - … *`) is not read
 * again at each level of the lists it opens. A line whose end is trimmed gets its own.
 */
function breakTail(line: string): number {
  const isBlank = (k: number) => line[k] === ' ' || line[k] === '\t';
  let k = line.length - 1;
  while (k >= 0 && isBlank(k)) k--;
  const char = line[k];
  if (char !== '-' && char !== '_' && char !== '*') return 0;
  while (k >= 0 && (line[k] === char || isBlank(k))) k--;
  return line.length - 1 - k;
}

/**
 * Whether a line is a thematic break (at most three spaces, then three or more of one of `-`, `_`
 * and `*` with only spaces and tabs among them), given its {@link breakTail}: it is one when, after
 * its spaces, it lies within its tail, which holds three of the character. Reads the line only
 * when it lies within the tail, and then only up to the third character.
 */
function isBreak(line: string, tail: number): boolean {
  let k = 0;
  while (k < 3 && line[k] === ' ') k++;
  const char = line[k];
  if ((char !== '-' && char !== '_' && char !== '*') || line.length - k > tail) return false;
  let count = 0;
  for (let j = k; j < line.length && count < 3; j++) if (line[j] === char) count++;
  return count === 3;
}

/** Expands the tabs in a line's indentation (to columns of 4, the line starting at `column`). */
function expandIndent(line: string, column = 0): string {
  return line.replace(/^[ \t]+/, (space) => {
    let out = '';
    for (const c of space) out += c === '\t' ? ' '.repeat(4 - ((column + out.length) % 4)) : c;
    return out;
  });
}

/** Whether a line (of `lines`, at `at`, its {@link breakTail} in `tails`) ends the paragraph before it. */
function interrupts(lines: string[], tails: number[], at: number, anyBullet = false): boolean {
  const line = lines[at]!;
  return (
    BLANK.test(line) ||
    isBreak(line, tails[at]!) ||
    /^ {0,3}#{1,6}(?:\s|$)/.test(line) ||
    QUOTE.test(line) ||
    /^ {0,3}(?:`{3,}[^`]*$|~~~)/.test(line) ||
    (anyBullet ? /^ {0,3}(?:[*+-]|\d{1,9}[.)])(?:[ \t]|$)/ : /^ {0,3}(?:[*+-]|1[.)])[ \t]+[^ \t]/).test(line) ||
    (!anyBullet && !!tableAt(lines, at))
  );
}

/** Container markers (list bullets, quote `>`) at the start of a line, one at a time. */
const NESTED_MARKER = /^ {0,3}(?:(?:[*+-]|\d{1,9}[.)])(?: |$)|> ?)/;
/** A fence or heading start: neither continues a paragraph. */
const FENCE_OR_HEADING = /^ {0,3}(?:```|~~~|#{1,6}(?:\s|$))/;

/**
 * A line without the container markers it starts with (not a thematic break's `- - -`), up to
 * {@link MAX_DEPTH} of them: deeper, the lexer shows the source text. So a line of many markers
 * (`- - - … *`) is tried as a break a bounded number of times, not once a marker.
 */
function withoutMarkers(line: string, tail: number): string {
  for (let marker, count = 0; count <= MAX_DEPTH && !isBreak(line, tail) && (marker = NESTED_MARKER.exec(line)); count++)
    line = line.slice(marker[0].length);
  return line;
}

/** Whether a line starts a block that ends a paragraph: the line after it is not lazy. */
const closesParagraph = (line: string, tail: number) => FENCE_OR_HEADING.test(line) || isBreak(line, tail);

/**
 * Whether a line of a quote, `previous` (its {@link breakTail} `tail`), leaves a paragraph open,
 * so that the next line may continue it without the quote's `>` (a lazy line).
 */
function lazyAfter(previous: string, tail: number): boolean {
  const rest = withoutMarkers(previous, tail);
  return !BLANK.test(rest) && !INDENTED.test(rest) && !closesParagraph(rest, tail);
}

/**
 * Lexes lines into block tokens; `tails` holds each line's {@link breakTail}; `top` is false
 * inside list items (tight items hold `text`).
 */
function blocks(lines: string[], tails: number[], refs: Refs, depth: number, top: boolean, leaves: Leaf[]): Token[] {
  // Deeper than the renderer shows: the rest is its source text, and nesting stops here.
  if (depth > MAX_DEPTH) return [{ type: 'html', raw: lines.join('\n') }];
  const tokens: Token[] = [];
  let i = 0;
  const take = (end: number) => lines.slice(i, (i = end)).join('\n');
  const skipEmpty = () => {
    while (i < lines.length && lines[i] === '') i++;
  };
  const leaf = (type: Leaf['type'], raw: string, text: string) => {
    const token: Leaf = { type, raw, text };
    leaves.push(token);
    tokens.push(token);
  };
  while (i < lines.length) {
    const line = lines[i]!;
    let match: RegExpExecArray | null;
    let align: Align[] | undefined;
    let end = i + 1;
    if (BLANK.test(line)) {
      while (end < lines.length && BLANK.test(lines[end]!)) end++;
      tokens.push({ type: 'space', raw: take(end) });
    } else if (INDENTED.test(line)) {
      while (end < lines.length && (INDENTED.test(lines[end]!) || BLANK.test(lines[end]!))) end++;
      // Blank lines after the block are not part of it.
      while (BLANK.test(lines[end - 1]!)) end--;
      const code = take(end);
      tokens.push({ type: 'code', raw: code, text: code.replace(/^(?: {0,3}\t| {1,4})/gm, '') });
    } else if ((match = FENCE.exec(line))) {
      const [, indent, fence] = match as unknown as string[];
      const closing = new RegExp(`^ {0,3}${fence![0] === '`' ? '`' : '~'}{${fence!.length},} *$`);
      while (end < lines.length && !closing.test(lines[end]!)) end++;
      const text = lines
        .slice(i + 1, end)
        .map((l) => l.replace(/^\s+/, (space) => space.slice(Math.min(space.length, indent!.length))))
        .join('\n');
      const raw = take(Math.min(end + 1, lines.length));
      tokens.push({ type: 'code', raw, text });
    } else if ((match = HEADING.exec(line))) {
      let text = (match[2] ?? '').trim();
      const unclosed = text.replace(/#+$/, '');
      if (unclosed !== text && (!unclosed || /[ \t]$/.test(unclosed))) text = unclosed.trim();
      leaf('heading', take(end), text);
      skipEmpty();
    } else if (isBreak(line, tails[i]!)) {
      tokens.push({ type: 'hr', raw: take(end) });
      skipEmpty();
    } else if (QUOTE.test(line)) {
      const inner: string[] = [];
      // The lines inside keep the ends of the lines they come from, and so their break tails.
      const innerTails: number[] = [];
      for (let open = (end = i) < 0; end < lines.length; end++) {
        const next = lines[end]!;
        const marker = /^ {0,3}>/.exec(next)?.[0];
        // A line without `>` continues the quote's paragraph, if one is open (a lazy line).
        if (marker) {
          // The marker takes one space after it; a tab there counts as the spaces it stands for.
          const rest = expandIndent(next.slice(marker.length), marker.length);
          inner.push(rest.replace(/^ /, ''));
          innerTails.push(tails[end]!);
          open = lazyAfter(inner.at(-1)!, tails[end]!);
        } else if (open && !interrupts(lines, tails, end, true)) {
          inner.push(next);
          innerTails.push(tails[end]!);
        } else break;
      }
      tokens.push({ type: 'blockquote', raw: take(end), tokens: blocks(inner, innerTails, refs, depth + 1, true, leaves) });
    } else if (BULLET.test(line)) {
      const [list, next] = lexList(lines, tails, i, refs, depth, leaves);
      tokens.push(list);
      i = next;
    } else if ((match = DEF.exec(line)) && match[1]!.trim() && (match[2]![0] === '<' || balanced(match[2]!))) {
      const label = refLabel(match[1]!);
      if (!refs.has(label)) refs.set(label, unescape(match[2]!.replace(/^<(.*)>$/, '$1')));
      tokens.push({ type: 'def', raw: take(end) });
      skipEmpty();
    } else if ((align = tableAt(lines, i))) {
      end = i + 2;
      while (end < lines.length && !interrupts(lines, tails, end) && !INDENTED.test(lines[end]!)) end++;
      const rows = lines.slice(i, end);
      tokens.push(
        tableToken(rows, align, take(end), (text) => {
          const token: Leaf = { type: 'text', raw: text, text };
          leaves.push(token);
          return token;
        }),
      );
    } else {
      // Lines up to one underlined with `=` or `-` are a heading (setext).
      let underline = false;
      while (end < lines.length && !(underline = SETEXT.test(lines[end]!)) && !interrupts(lines, tails, end)) end++;
      if (underline) {
        const text = lines.slice(i, end).join('\n').trim();
        leaf('heading', take(end + 1), text);
        skipEmpty();
      } else {
        const raw = take(end);
        leaf(top ? 'paragraph' : 'text', raw, raw);
      }
    }
  }
  return tokens;
}

/** Whether a link destination's parentheses are balanced (as `marked` requires of definitions). */
function balanced(href: string): boolean {
  let depth = 0;
  for (let k = 0; k < href.length && depth >= 0; k++) {
    if (href[k] === '\\') k++;
    else if (href[k] === '(') depth++;
    else if (href[k] === ')') depth--;
  }
  return depth === 0;
}

/**
 * The list starting at lines[start] (as `marked` reads one): its items and the line after it.
 * An item's content is indented to its text's column; a line indented less ends it, unless it
 * continues the item's paragraph. A blank line between items or blocks of an item makes the
 * list loose (its items' text in paragraphs).
 */
function lexList(lines: string[], tails: number[], start: number, refs: Refs, depth: number, leaves: Leaf[]): [Token, number] {
  const bullet = BULLET.exec(lines[start]!)![2]!;
  const ordered = bullet.length > 1;
  const contents: string[][] = [];
  // Each item's lines end as the lines they come from: their break tails are those lines'.
  const contentTails: number[][] = [];
  let loose = false;
  let k = start;
  for (let match; k < lines.length && (match = BULLET.exec(lines[k]!)) && !isBreak(lines[k]!, tails[k]!);) {
    const marker = match[2]!;
    if (ordered ? marker.length < 2 || marker.at(-1) !== bullet.at(-1) : marker !== bullet) break;
    if (contents.length && BLANK.test(lines[k - 1]!)) loose = true;
    const column = match[1]!.length + marker.length;
    const rest = expandIndent(match[3] ?? '', column);
    const content: string[] = [];
    const contentTail: number[] = [];
    let indent = column + 1;
    if (rest.trim()) {
      const space = rest.search(/[^ ]/);
      content.push(rest.slice(space > 4 ? 1 : space));
      contentTail.push(tails[k]!);
      indent = column + (space > 4 ? 1 : space);
    }
    contents.push(content);
    contentTails.push(contentTail);
    k++;
    if (!rest.trim() && k < lines.length && BLANK.test(lines[k]!)) {
      k++;
      continue;
    }
    // Markers, fences, headings, quotes and breaks indented less than the text start new blocks.
    const outdent = Math.min(3, indent - 1);
    let previous = content[0] ?? '';
    let previousTail = contentTail[0] ?? 0;
    for (let blank = !rest.trim(); k < lines.length; k++) {
      const line = lines[k]!;
      const expanded = expandIndent(line);
      const spaces = /^ */.exec(line)![0].length;
      const body = line.slice(spaces);
      if (spaces <= outdent && (/^(?:[*+-]|\d{1,9}[.)])(?:[ \t]|$)|^(?:```|~~~|#{1,6}(?:\s|$)|>)/.test(body) || isBreak(body, tails[k]!)))
        break;
      if (BLANK.test(line) || expanded.search(/\S/) >= indent) content.push((previous = expanded.slice(indent)));
      // A lazy line: continues the item's last paragraph, if there is one.
      else if (!blank && lazyAfter(previous, previousTail)) content.push((previous = line));
      else break;
      contentTail.push((previousTail = tails[k]!));
      blank = BLANK.test(line);
    }
  }
  // Blank lines after the last item belong to what follows.
  while (k > start + 1 && BLANK.test(lines[k - 1]!)) k--;
  const last = contents.at(-1)!;
  const lastTails = contentTails.at(-1)!;
  while (last.length && BLANK.test(last.at(-1)!)) {
    last.pop();
    lastTails.pop();
  }
  if (last.length) {
    const line = last.at(-1)!;
    const trimmed = line.trimEnd();
    // Trimmed, the line no longer ends as the one its tail was read from. (Once for a line: the
    // lines a list inside makes of it end trimmed already.)
    if (trimmed.length < line.length) {
      last[last.length - 1] = trimmed;
      lastTails[lastTails.length - 1] = breakTail(trimmed);
    }
  }
  const items = contents.map((content, item) => {
    const tokens = blocks(content, contentTails[item]!, refs, depth + 1, false, leaves);
    loose ||= tokens.some((token, at) => token.type === 'space' && at < tokens.length - 1);
    return { tokens };
  });
  if (loose) for (const item of items) for (const token of item.tokens) if (token.type === 'text') token.type = 'paragraph';
  const list: Token = { type: 'list', raw: lines.slice(start, k).join('\n'), ordered, start: ordered ? +bullet.slice(0, -1) : '', items };
  return [list, k];
}

/** Lexes a reply into tokens (see ./tokens.ts); links may refer to definitions anywhere in it. */
export function lexMarkdown(text: string): Token[] {
  const refs: Refs = new Map();
  const leaves: Leaf[] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  const tokens = blocks(lines, lines.map(breakTail), refs, 0, true, leaves);
  for (const leaf of leaves) leaf.tokens = lexInline(leaf.text, refs);
  return tokens;
}
