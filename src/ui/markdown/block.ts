/**
 * The reply lexer's block half: paragraphs, headings (ATX and setext), fenced and indented code,
 * block quotes, lists (loose or tight, nested by indentation), thematic breaks, GFM tables (kept
 * as their source text) and link reference definitions. Lines of HTML are paragraphs like any
 * other: their tags are text either way (see ./inline.ts). It reads the reply line by line,
 * shaped after `marked` (the tests hold the two together, and list where they differ), and hands
 * each paragraph's text to the inline lexer once every reference definition is known.
 *
 * Its work is linear in the length of the reply: each line is tested against a bounded number of
 * line patterns (anchored, each reading the line once), once for each container (quote, list
 * item) it is in, and containers nest at most {@link MAX_DEPTH} deep. Stripping the markers of a
 * line (`withoutMarkers`) stops at that depth too.
 */
import { lexInline } from './inline.js';
import { MAX_DEPTH, refLabel, unescape, type Leaf, type Refs, type Token } from './tokens.js';

const BLANK = /^[ \t]*$/;
const HR = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:_[ \t]*){3,}|(?:\*[ \t]*){3,})$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*)|[ \t]*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^( {0,3})(`{3,}(?=[^`]*$)|~{3,})/;
const BULLET = /^( {0,3})([*+-]|\d{1,9}[.)])([ \t].*)?$/;
const QUOTE = /^ {0,3}>/;
const INDENTED = /^(?: {4}| {0,3}\t)/;
const DEF =
  /^ {0,3}\[((?:\\.|[^[\]\\])+)\]:[ \t]*(<(?:\\.|[^\n<>\\])*>|[^<\s]\S*)(?:[ \t]+(?:"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\((?:\\.|[^()\\])*\)))?[ \t]*$/;
const TABLE_DELIMITER = /^ {0,3}((?:\| *)?:?-+:? *(?:\| *:?-+:? *)*(?:\| *)?)$/;

/** Expands the tabs in a line's indentation (to columns of 4, the line starting at `column`). */
function expandIndent(line: string, column = 0): string {
  return line.replace(/^[ \t]+/, (space) => {
    let out = '';
    for (const c of space) out += c === '\t' ? ' '.repeat(4 - ((column + out.length) % 4)) : c;
    return out;
  });
}

/**
 * Whether lines[at] and the next line start a GFM table (a header row, then its delimiter row).
 * Its cells are not counted: a table is shown as its source text anyway.
 */
function tableAt(lines: string[], at: number): boolean {
  const delimiter = TABLE_DELIMITER.exec(lines[at + 1] ?? '')?.[1];
  return !!delimiter && /[:|]/.test(delimiter) && /^ *[^ ]/.test(lines[at]!);
}

/** Whether a line (of `lines`, at `at`) ends the paragraph before it. */
function interrupts(lines: string[], at: number, anyBullet = false): boolean {
  const line = lines[at]!;
  return (
    BLANK.test(line) ||
    HR.test(line) ||
    /^ {0,3}#{1,6}(?:\s|$)/.test(line) ||
    QUOTE.test(line) ||
    /^ {0,3}(?:`{3,}[^`]*$|~~~)/.test(line) ||
    (anyBullet ? /^ {0,3}(?:[*+-]|\d{1,9}[.)])(?:[ \t]|$)/ : /^ {0,3}(?:[*+-]|1[.)])[ \t]+[^ \t]/).test(line) ||
    (!anyBullet && tableAt(lines, at))
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
function withoutMarkers(line: string): string {
  for (let marker, count = 0; count <= MAX_DEPTH && !HR.test(line) && (marker = NESTED_MARKER.exec(line)); count++)
    line = line.slice(marker[0].length);
  return line;
}

/** Whether a line starts a block that ends a paragraph: the line after it is not lazy. */
const closesParagraph = (line: string) => FENCE_OR_HEADING.test(line) || HR.test(line);

/**
 * Whether a line of a quote, `previous`, leaves a paragraph open, so that the next line may
 * continue it without the quote's `>` (a lazy line).
 */
function lazyAfter(previous: string): boolean {
  const rest = withoutMarkers(previous);
  return !BLANK.test(rest) && !INDENTED.test(rest) && !closesParagraph(rest);
}

/** Lexes lines into block tokens; `top` is false inside list items (tight items hold `text`). */
function blocks(lines: string[], refs: Refs, depth: number, top: boolean, leaves: Leaf[]): Token[] {
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
    } else if (HR.test(line)) {
      tokens.push({ type: 'hr', raw: take(end) });
      skipEmpty();
    } else if (QUOTE.test(line)) {
      const inner: string[] = [];
      for (let open = (end = i) < 0; end < lines.length; end++) {
        const next = lines[end]!;
        const marker = /^ {0,3}>/.exec(next)?.[0];
        // A line without `>` continues the quote's paragraph, if one is open (a lazy line).
        if (marker) {
          // The marker takes one space after it; a tab there counts as the spaces it stands for.
          const rest = expandIndent(next.slice(marker.length), marker.length);
          inner.push(rest.replace(/^ /, ''));
          open = lazyAfter(inner.at(-1)!);
        } else if (open && !interrupts(lines, end, true)) inner.push(next);
        else break;
      }
      tokens.push({ type: 'blockquote', raw: take(end), tokens: blocks(inner, refs, depth + 1, true, leaves) });
    } else if (BULLET.test(line)) {
      const [list, next] = lexList(lines, i, refs, depth, leaves);
      tokens.push(list);
      i = next;
    } else if ((match = DEF.exec(line)) && match[1]!.trim() && (match[2]![0] === '<' || balanced(match[2]!))) {
      const label = refLabel(match[1]!);
      if (!refs.has(label)) refs.set(label, unescape(match[2]!.replace(/^<(.*)>$/, '$1')));
      tokens.push({ type: 'def', raw: take(end) });
      skipEmpty();
    } else if (tableAt(lines, i)) {
      end = i + 2;
      while (end < lines.length && !interrupts(lines, end) && !INDENTED.test(lines[end]!)) end++;
      tokens.push({ type: 'table', raw: take(end) });
    } else {
      // Lines up to one underlined with `=` or `-` are a heading (setext).
      let underline = false;
      while (end < lines.length && !(underline = SETEXT.test(lines[end]!)) && !interrupts(lines, end)) end++;
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
function lexList(lines: string[], start: number, refs: Refs, depth: number, leaves: Leaf[]): [Token, number] {
  const bullet = BULLET.exec(lines[start]!)![2]!;
  const ordered = bullet.length > 1;
  const contents: string[][] = [];
  let loose = false;
  let k = start;
  for (let match; k < lines.length && (match = BULLET.exec(lines[k]!)) && !HR.test(lines[k]!);) {
    const marker = match[2]!;
    if (ordered ? marker.length < 2 || marker.at(-1) !== bullet.at(-1) : marker !== bullet) break;
    if (contents.length && BLANK.test(lines[k - 1]!)) loose = true;
    const column = match[1]!.length + marker.length;
    const rest = expandIndent(match[3] ?? '', column);
    const content: string[] = [];
    let indent = column + 1;
    if (rest.trim()) {
      const space = rest.search(/[^ ]/);
      content.push(rest.slice(space > 4 ? 1 : space));
      indent = column + (space > 4 ? 1 : space);
    }
    contents.push(content);
    k++;
    if (!rest.trim() && k < lines.length && BLANK.test(lines[k]!)) {
      k++;
      continue;
    }
    // Markers, fences, headings, quotes and breaks indented less than the text start new blocks.
    const outdent = Math.min(3, indent - 1);
    let previous = content[0] ?? '';
    for (let blank = !rest.trim(); k < lines.length; k++) {
      const line = lines[k]!;
      const expanded = expandIndent(line);
      const spaces = /^ */.exec(line)![0].length;
      const body = line.slice(spaces);
      if (spaces <= outdent && (/^(?:[*+-]|\d{1,9}[.)])(?:[ \t]|$)|^(?:```|~~~|#{1,6}(?:\s|$)|>)/.test(body) || HR.test(body))) break;
      if (BLANK.test(line) || expanded.search(/\S/) >= indent) content.push((previous = expanded.slice(indent)));
      // A lazy line: continues the item's last paragraph, if there is one.
      else if (!blank && lazyAfter(previous)) content.push((previous = line));
      else break;
      blank = BLANK.test(line);
    }
  }
  // Blank lines after the last item belong to what follows.
  while (k > start + 1 && BLANK.test(lines[k - 1]!)) k--;
  const last = contents.at(-1)!;
  while (last.length && BLANK.test(last.at(-1)!)) last.pop();
  if (last.length) last.push(last.pop()!.trimEnd());
  const items = contents.map((content) => {
    const tokens = blocks(content, refs, depth + 1, false, leaves);
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
  const tokens = blocks(text.replace(/\r\n?/g, '\n').split('\n'), refs, 0, true, leaves);
  for (const leaf of leaves) leaf.tokens = lexInline(leaf.text, refs);
  return tokens;
}
