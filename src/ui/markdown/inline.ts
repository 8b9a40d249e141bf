/**
 * The inline half of the reply lexer, kept whole (about 400 lines): the argument below that its
 * work is linear holds only when the scan and each look-ahead it bounds are read together.
 * Emphasis, matched in a pass of its own, is in ./emphasis.ts.
 *
 * It lexes emphasis, code spans, links, images, autolinks, bare URLs and e-mail addresses, hard
 * breaks, escapes and HTML tags (taken as their source text, so that no URL inside one becomes a
 * link; comments and the like are plain text).
 *
 * Its work is linear in the length of the text, whatever the text holds. It reads the text in one
 * left-to-right scan, then matches emphasis (./emphasis.ts), and no position is read more than a
 * constant number of times:
 * - The scan moves on after every token it takes, and from a position where none starts it moves
 *   one character on. What it reads ahead to decide is bounded or remembered:
 * - a code span's closer: a search for backticks of one length that fails fails from any later
 *   position too, so it is made once per length (`failedFrom`);
 * - a link's `]`: at most one level of brackets nests, so a search stops at the second `[` or at
 *   the `]`; a link's destination and title end where tables built once per text say
 *   (`destinationEnds`: the first `)` a destination does not open, the first quote no backslash
 *   escapes), so no attempt at a link reads the text after it again. A link's text is
 *   lexed once more inside it, and holds no brackets of its own but one level;
 * - a bare URL's run (up to a space or `<`) is read once, with the `(`s no later `)` closes
 *   (`urlEnd`): every URL starting in the same run (`www.a(www.a(…`) uses them;
 * - an e-mail address's local part is read once (`emailScanned`); tags and autolinks are sticky
 *   expressions tried at one `<`, which stop within the tag they would match.
 * Emphasis is matched in one pass over the delimiter runs: a closer looks at openers only down to
 * the floor of its kind, which a failed search raises (CommonMark's "openers bottom").
 *
 * Plain text is not collected as it is scanned: the scan lists the tokens and delimiter runs with
 * where each starts and ends, and the text between them is cut from the source once emphasis is
 * matched, one slice for each stretch between two elements (./emphasis.ts). A run that can
 * neither open nor close is never listed.
 */
import { build, matchEmphasis, type Delim, type Item } from './emphasis.js';
import { refLabel, unescape, type Refs, type Token } from './tokens.js';

/** Whitespace (or the edge of the text); ASCII without a regular expression, as it is read for most characters. */
const isSpace = (c: string | undefined) => c === undefined || c <= ' ' || (c > '~' && /\s/.test(c));
/** Punctuation or a symbol: every printable ASCII character but letters and digits, read without a regular expression. */
const isPunct = (c: string | undefined) =>
  c !== undefined &&
  (c <= '~' ? c > ' ' && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) : /[\p{P}\p{S}]/u.test(c));
/** Characters an e-mail address may start with (after a character not in EMAIL_TEXT). */
const EMAIL_LOCAL = /[\w.+-]/;
const EMAIL_TEXT = /[\w.!#$%&'*+/=?`{|}~-]/;
/** An e-mail address (`name@host.example`): each part of the domain after a dot ends in a letter or digit. */
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]*[a-zA-Z0-9](?![\w-]))+/y;
const OPEN_TAG =
  /<[a-zA-Z][a-zA-Z0-9-]*(?:\s+[a-zA-Z:_][\w.:-]*(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*\s*\/?>|<\/[a-zA-Z][a-zA-Z0-9-]*\s*>/y;
const AUTOLINK =
  // eslint-disable-next-line no-control-regex -- control characters end an autolink, as in CommonMark
  /<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s\x00-\x1f<>]*|[\w.!#$%&'*+/=?^`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+(?![-_]))>/y;
const URL_START = /(?:[hH][tT][tT][pP][sS]?|[fF][tT][pP]):\/\/|www\./y;
/**
 * The part of a bare URL that is the link, as GFM (and `marked`) read it, given the URL up to
 * where a `(` never closed would cut it: without trailing punctuation (a `)` closing a `(` of the
 * URL stays) or, when the URL reaches the end of its run (`atRunEnd`), a trailing entity.
 */
function trimUrl(url: string, atRunEnd: boolean): string {
  const entity = atRunEnd ? (/&[a-zA-Z0-9]+;$/.exec(url)?.index ?? -1) : -1;
  const groupEnds = new Set<number>();
  let end = url.length;
  for (let k = 0; k < end; k++) {
    if (k === entity) end = k;
    // Every `(` here is closed: the URL was cut before the first one that is not.
    else if (url[k] === '(') groupEnds.add((k = url.indexOf(')', k)));
  }
  for (let again = true; again;) {
    const last = url[end - 1]!;
    again = /[?!.,:;*_'"~]/.test(last) || (last === ')' && !groupEnds.has(end - 1));
    if (again) end--;
  }
  return url.slice(0, end);
}

/** Lexes one paragraph's (or heading's, or link text's) inline content. */
export function lexInline(src: string, refs: Refs, inLink = false): Token[] {
  const items: Item[] = [];
  const n = src.length;
  /** By length of a code span's backticks, where a search for its closer failed: it fails from any later position too. */
  const failedFrom: number[] = [];
  const lastText = src.trimEnd().length;
  let emailScanned = 0;
  let parens: ReturnType<typeof destinationEnds> | undefined;
  /**
   * The run of characters (up to a space or `<`) bare URLs start in: where it ends, and the `(`
   * after its last `)`, which no `)` of the run closes. Every URL start inside one run shares
   * them, so that starts one after another (`www.a(www.a(…`) never scan the run again.
   */
  let runEnd = 0;
  let unclosed: number[] = [];
  /** Where a bare URL starting at `from` ends at most: the end of its run, or a `(` never closed. */
  const urlEnd = (from: number): number => {
    if (from >= runEnd) {
      unclosed = [];
      for (runEnd = from; runEnd < n && !/[\s<]/.test(src[runEnd]!); runEnd++) {
        if (src[runEnd] === ')') unclosed = [];
        else if (src[runEnd] === '(') unclosed.push(runEnd);
      }
      unclosed.reverse();
    }
    while (unclosed.length && unclosed.at(-1)! < from) unclosed.pop();
    return unclosed.at(-1) ?? runEnd;
  };
  /** Where each item starts and ends in `src`: what lies between two items is plain text. */
  const starts: number[] = [];
  const ends: number[] = [];
  let start = 0; // where the pending plain text begins
  let floor = 0; // just after the last token (or delimiter run) that was not plain text
  let i = 0;

  const push = (item: Item, end: number) => {
    items.push(item);
    starts.push(i);
    ends.push(end);
    i = start = floor = end;
  };
  /** A link's tables (see destinationEnds), made the first time a link needs them. */
  const linkTables = () => (parens ??= destinationEnds(src));
  /** The end of the code span whose opening backticks end at `from`, or -1. */
  const codeEnd = (from: number, ticks: number): number => {
    if (from >= (failedFrom[ticks] ?? Infinity)) return -1;
    for (let k = src.indexOf('`', from); k >= 0; k = src.indexOf('`', k)) {
      let end = k;
      while (src[end] === '`') end++;
      if (end - k === ticks) return end;
      k = end;
    }
    failedFrom[ticks] = Math.min(from, failedFrom[ticks] ?? Infinity);
    return -1;
  };

  while (i < n) {
    const c = src[i]!;
    if (c === '\\') {
      const next = src[i + 1];
      if (next === '\n' && i + 2 < lastText) push(hardBreak(src, i, i + 2), skipIndent(src, i + 2));
      else if (next && /[!-/:-@[-`{-~]/.test(next)) push({ type: 'escape', raw: c + next, text: next }, i + 2);
      else i++;
    } else if (c === '\n') {
      let spaces = i;
      while (spaces > start && src[spaces - 1] === ' ') spaces--;
      if (i - spaces >= 2 && i + 1 < lastText) {
        const end = skipIndent(src, i + 1);
        i = spaces;
        push(hardBreak(src, spaces, end), end);
      } else i++;
    } else if (c === '`') {
      let ticks = i;
      while (src[ticks] === '`') ticks++;
      const end = codeEnd(ticks, ticks - i);
      if (end < 0) i = ticks;
      else {
        let code = src.slice(ticks, end - (ticks - i)).replace(/\n/g, ' ');
        if (/^ .*[^ ].* $/s.test(code)) code = code.slice(1, -1);
        push({ type: 'codespan', raw: src.slice(i, end), text: code }, end);
      }
    } else if (c === '*' || c === '_' || c === '~') {
      let end = i;
      while (src[end] === c) end++;
      let run: Delim | undefined;
      if (c === '~' && end - i > 2)
        i = end; // more than two `~`: text
      else if ((run = delimiter(c, i, end - i, src[i - 1], src[end]))) push(run, end);
      // A run that can neither open nor close (`_` inside a word) stays in the text, though it
      // still ends a token as a delimiter would (a URL or an address may start after it).
      else i = floor = end;
    } else if (c === '[' || (c === '!' && src[i + 1] === '[')) {
      const link = lexLink(src, i, refs, codeEnd, linkTables);
      if (link) push(link, i + link.raw.length);
      else i++;
    } else if (c === '<') {
      AUTOLINK.lastIndex = i;
      OPEN_TAG.lastIndex = i;
      const auto = AUTOLINK.exec(src);
      if (auto) {
        const address = auto[1]!;
        const href = address.includes(':') ? address : `mailto:${address}`;
        push(linkTo(auto[0], address, href), i + auto[0].length);
      } else if (OPEN_TAG.test(src)) push({ type: 'html', raw: src.slice(i, OPEN_TAG.lastIndex) }, OPEN_TAG.lastIndex);
      else i++;
    } else if (
      !inLink &&
      (URL_START.lastIndex = i) >= 0 &&
      URL_START.test(src) &&
      /[a-zA-Z0-9-]/.test(src[URL_START.lastIndex] ?? '') &&
      (c !== 'w' || i === floor || /[\s*_~(]/.test(src[i - 1]!))
    ) {
      const end = urlEnd(i);
      const url = trimUrl(src.slice(i, end), end === runEnd);
      push(linkTo(url, url, c === 'w' ? `http://${url}` : url), i + url.length);
    } else if (!inLink && i >= emailScanned && EMAIL_LOCAL.test(c) && (i === floor || !EMAIL_TEXT.test(src[i - 1]!))) {
      EMAIL.lastIndex = i;
      const address = EMAIL.exec(src)?.[0];
      if (address) push(linkTo(address, address, `mailto:${address}`), i + address.length);
      else {
        emailScanned = i;
        while (EMAIL_LOCAL.test(src[emailScanned] ?? '')) emailScanned++;
        i++;
      }
    } else i++;
  }
  matchEmphasis(items, src);
  return build(items, starts, ends, src);
}

/**
 * A run of `len` characters `char` at `pos`, between `before` and `after`, if it may open or close
 * emphasis by CommonMark's flanking rules; undefined if it may do neither (it is plain text, and
 * nothing is made for it). As `marked` reads GFM, a `~` next to `*` or `_` counts as a letter,
 * except after a closing `_`; a `_` inside a word (flanking both ways) neither opens nor closes.
 */
function delimiter(char: string, pos: number, len: number, before: string | undefined, after: string | undefined): Delim | undefined {
  const spaceBefore = isSpace(before);
  const spaceAfter = isSpace(after);
  const punctuationBefore = isPunct(before);
  const punctuationAfter = isPunct(after);
  // Which sides are punctuation, as an opener and as a closer: a `~` beside the run counts as a
  // letter unless the run is of `~` (opener), or of `_` or `~` (closer).
  const openerPunctBefore = punctuationBefore && (char === '~' || before !== '~');
  const openerPunctAfter = punctuationAfter && (char === '~' || after !== '~');
  const closerPunctBefore = punctuationBefore && (char !== '*' || before !== '~');
  const closerPunctAfter = punctuationAfter && (char !== '*' || after !== '~');
  const leftFlanking = isLeftFlanking(spaceBefore, spaceAfter, openerPunctBefore, openerPunctAfter);
  const rightFlanking = isLeftFlanking(spaceAfter, spaceBefore, closerPunctAfter, closerPunctBefore);
  const intraword = char === '_';
  const open =
    leftFlanking && (!intraword || !isLeftFlanking(spaceAfter, spaceBefore, openerPunctAfter, openerPunctBefore) || openerPunctBefore);
  const close =
    rightFlanking && (!intraword || !isLeftFlanking(spaceBefore, spaceAfter, closerPunctBefore, closerPunctAfter) || closerPunctAfter);
  if (!open && !close) return undefined;
  return { type: 'delim', char, pos, len, left: len, open, close };
}

/**
 * Whether a run is left-flanking, given whether each side is whitespace or punctuation; with the
 * sides swapped, whether it is right-flanking.
 */
const isLeftFlanking = (spaceBefore: boolean, spaceAfter: boolean, punctBefore: boolean, punctAfter: boolean) =>
  !spaceAfter && (!punctAfter || spaceBefore || punctBefore);

/** An autolink: its text is the address as written. */
const linkTo = (raw: string, text: string, href: string): Token => ({
  type: 'link',
  raw,
  text,
  href,
  tokens: [{ type: 'text', raw: text, text }],
});

/** A hard line break from `from` (two spaces or a backslash, then the newline) to `end`. */
const hardBreak = (src: string, from: number, end: number): Token => ({ type: 'br', raw: src.slice(from, end) });
const skipIndent = (src: string, from: number) => {
  while (src[from] === ' ' || src[from] === '\t') from++;
  return from;
};

/** The `]` closing the link text opened at `open`, or -1: one level of brackets may nest inside. */
function closingBracket(src: string, open: number, codeEnd: (from: number, ticks: number) => number): number {
  let nested = false;
  for (let k = open + 1; k < src.length; k++) {
    const c = src[k];
    if (c === '\\') k++;
    else if (c === '`') {
      let ticks = k;
      while (src[ticks] === '`') ticks++;
      const end = codeEnd(ticks, ticks - k);
      k = (end < 0 ? ticks : end) - 1;
    } else if (c === '[') {
      if (nested) return -1;
      nested = true;
    } else if (c === ']') {
      if (!nested) return k;
      nested = false;
    }
  }
  return -1;
}

/**
 * A link or image at `at` (`[text](url "title")`, `[text][ref]`, `[text][]`, `[ref]`), or
 * undefined. A link whose text holds another link is not one (no link inside a link).
 */
function lexLink(
  src: string,
  at: number,
  refs: Refs,
  codeEnd: (from: number, ticks: number) => number,
  ends: () => ReturnType<typeof destinationEnds>,
): Token | undefined {
  const image = src[at] === '!';
  const open = image ? at + 1 : at;
  const close = closingBracket(src, open, codeEnd);
  if (close < 0) return undefined;
  let href: string | undefined;
  let end = close + 1;
  const dest = src[end] === '(' ? destination(src, end + 1, ends) : undefined;
  // A reference with no definitions in the reply (most replies) is no link, whatever its label.
  if (!dest && !refs.size) return undefined;
  let label = src.slice(open + 1, close);
  if (dest) [href, end] = dest;
  else {
    let named = label;
    end = close + 1;
    const ref = src[end] === '[' ? /^\[((?:\\.|[^[\]\\])*)\]/.exec(src.slice(end, src.indexOf(']', end) + 1)) : null;
    if (ref?.[1]!.trim()) [named, end] = [ref[1]!, end + ref[0].length];
    else if (ref?.[1] === '') end += 2;
    if (named === label && /[[\]]/.test(label.replace(/\\./g, ''))) return undefined;
    href = refs.get(refLabel(named));
    if (href === undefined) return undefined;
  }
  label = label.replace(/\\([[\]])/g, '$1');
  const tokens = lexInline(label, refs, true);
  if (!image && holdsLink(tokens)) return undefined;
  return { type: image ? 'image' : 'link', raw: src.slice(at, end), text: label, href, tokens };
}

const holdsLink = (tokens: Token[] | undefined): boolean =>
  !!tokens?.some((token) => token.type === 'link' || ('tokens' in token && token.type !== 'image' && holdsLink(token.tokens)));

/**
 * For each position of `src`, where a link destination starting there ends: at the first `)` it
 * does not open itself, or at the first space; and where a title opened just before it closes
 * (`titleEnd`): at the first `"`, `'` or `)` (for one opened with `(`) that no backslash escapes,
 * or at the end of the text. Computed once per text, so that no attempt at a link rescans the
 * text after it (`[a](()[a](()…` or `[a](b (…` would otherwise be quadratic). The titles' table
 * of each closer is made the first time a title needs it: a text opens titles of one kind, if any.
 */
function destinationEnds(src: string) {
  const n = src.length;
  const depth = new Int32Array(n + 1);
  const escaped = new Uint8Array(n + 1);
  for (let k = 0; k < n; k++) {
    escaped[k + 1] = +(src[k] === '\\' && k + 1 < n);
    depth[k + 1] = depth[k]! + (src[k] === '(' ? 1 : src[k] === ')' ? -1 : 0);
    if (escaped[k + 1]) depth[++k + 1] = depth[k]!;
  }
  const close = new Int32Array(n + 1);
  const space = new Int32Array(n + 1);
  // The nearest `)` closing each depth, by depth: from -n - 1 to n, so shifted by n + 1.
  const nearest = new Int32Array(2 * n + 3).fill(-1);
  close[n] = -1;
  space[n] = n;
  for (let k = n - 1; k >= 0; k--) {
    if (src[k] === ')' && depth[k + 1] === depth[k]! - 1) nearest[depth[k + 1]! + n + 1] = k;
    close[k] = nearest[depth[k]! - 1 + n + 1]!;
    space[k] = isSpace(src[k]) ? k : space[k + 1]!;
  }
  const titles = new Map<string, Int32Array>();
  /** Where a title closed by `closer` and starting at `from` ends: its closer, or the end of the text. */
  const titleEnd = (closer: string, from: number): number => {
    let ends = titles.get(closer);
    if (!ends) {
      titles.set(closer, (ends = new Int32Array(n + 1)));
      ends[n] = n;
      for (let k = n - 1; k >= 0; k--) ends[k] = src[k] === closer && !escaped[k] ? k : ends[k + 1]!;
    }
    return ends[from]!;
  };
  return { close, space, depth, titleEnd };
}

/** What closes a link title opened with each character. */
const TITLE_CLOSERS: Record<string, string> = { '"': '"', "'": "'", '(': ')' };

const isLinkSpace = (c: string | undefined) => c === ' ' || c === '\t' || c === '\n';

/**
 * `url "title")` after a link's `](`: the URL (escapes removed) and where the link ends, or
 * undefined. Nothing is cut from the text until it is a link: most attempts are not.
 */
function destination(src: string, from: number, ends: () => ReturnType<typeof destinationEnds>): [string, number] | undefined {
  let k = from;
  while (isLinkSpace(src[k])) k++;
  let hrefFrom = k;
  let hrefTo = k;
  if (src[k] === '<') {
    for (hrefTo = ++hrefFrom; src[hrefTo] !== '>'; hrefTo++) {
      if (src[hrefTo] === '\\') hrefTo++;
      else if (hrefTo >= src.length || src[hrefTo] === '\n' || src[hrefTo] === '<') return undefined;
    }
    k = hrefTo + 1;
  } else {
    const { close, space, depth } = ends();
    hrefTo = close[k]! >= 0 && close[k]! < space[k]! ? close[k]! : space[k]!;
    // An unclosed `(` in the URL: not a link.
    if (depth[hrefTo]! > depth[k]!) return undefined;
    k = hrefTo;
  }
  const afterHref = k;
  while (src[k] === ' ' || src[k] === '\t') k++;
  if (src[k] === '\n') k = skipIndent(src, k + 1);
  const quote = k > afterHref ? TITLE_CLOSERS[src[k]!] : undefined;
  if (quote) {
    const close = ends().titleEnd(quote, k + 1);
    if (close < src.length) k = close + 1;
  }
  while (isLinkSpace(src[k])) k++;
  return src[k] === ')' ? [unescape(src.slice(hrefFrom, hrefTo)), k + 1] : undefined;
}
