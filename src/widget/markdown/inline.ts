/**
 * The inline half of the reply lexer: emphasis, code spans, links, images, autolinks, bare URLs
 * and e-mail addresses, hard breaks, escapes and HTML tags (kept whole as their source text, so
 * that no URL inside one becomes a link; comments and the like are plain text).
 * One left-to-right scan, then emphasis matched with a delimiter stack in the CommonMark way, so
 * the work stays linear in the length of the text whatever it holds: every search that fails is
 * remembered, and no regular expression here can backtrack over more than one tag or word.
 */
import { build, matchEmphasis, type Item } from './emphasis.js';
import { refLabel, unescape, type Refs, type Token } from './tokens.js';

const isSpace = (c: string | undefined) => c === undefined || /\s/.test(c);
const isPunct = (c: string | undefined) => c !== undefined && /[\p{P}\p{S}]/u.test(c);
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
 * The part of a bare URL that is the link, as GFM (and `marked`) read it: up to a `(` never
 * closed, then without trailing punctuation (a `)` closing a `(` of the URL stays) or entity.
 */
function trimUrl(url: string): string {
  const entity = /&[a-zA-Z0-9]+;$/.exec(url)?.index ?? -1;
  const groupEnds = new Set<number>();
  let end = url.length;
  for (let k = 0; k < end; k++) {
    if (k === entity) end = k;
    else if (url[k] === '(') {
      const close = url.indexOf(')', k);
      if (close < 0) end = k;
      else groupEnds.add((k = close));
    }
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
  let start = 0; // where the pending plain text begins
  let floor = 0; // just after the last token that was not plain text
  let i = 0;

  const text = (s: string) => {
    const last = items.at(-1);
    if (last?.type === 'text') last.raw = last.text += s;
    else if (s) items.push({ type: 'text', raw: s, text: s });
  };
  const push = (item: Item, end: number) => {
    text(src.slice(start, i));
    items.push(item);
    i = start = floor = end;
  };
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
      // As `marked` reads GFM: a `~` next to `*` or `_` counts as a letter, except after a closing `_`.
      const before = src[i - 1];
      const after = src[end];
      const flanking = (tilde: boolean) => {
        const punct = (x: string | undefined) => isPunct(x) && (tilde || x !== '~');
        const left = !isSpace(after) && (!punct(after) || isSpace(before) || punct(before));
        const right = !isSpace(before) && (!punct(before) || isSpace(after) || punct(after));
        return [left, right, punct(before), punct(after)] as const;
      };
      const [leftFlanking, rightAsOpener, punctBefore] = flanking(c === '~');
      const [leftAsCloser, rightFlanking, , punctAfter] = flanking(c !== '*');
      // `_` inside a word (flanking both ways) neither opens nor closes.
      const intraword = c === '_';
      if (c === '~' && end - i > 2) i = end;
      else
        push(
          {
            type: 'delim',
            char: c,
            pos: i,
            len: end - i,
            left: end - i,
            open: leftFlanking && (!intraword || !rightAsOpener || punctBefore),
            close: rightFlanking && (!intraword || !leftAsCloser || punctAfter),
            opens: [],
            closes: [],
          },
          end,
        );
    } else if (c === '[' || (c === '!' && src[i + 1] === '[')) {
      const link = lexLink(src, i, refs, codeEnd, () => (parens ??= destinationEnds(src)));
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
      let end = URL_START.lastIndex;
      while (end < n && !/[\s<]/.test(src[end]!)) end++;
      const url = trimUrl(src.slice(i, end));
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
  text(src.slice(start));
  matchEmphasis(items, src);
  return build(items);
}

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
  let label = src.slice(open + 1, close);
  let href: string | undefined;
  let end = close + 1;
  const dest = src[end] === '(' ? destination(src, end + 1, ends) : undefined;
  if (dest) [href, end] = dest;
  if (href === undefined) {
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
 * does not open itself, or at the first space. Computed once per text, so that no attempt at a
 * link rescans the text after it (`[a](()[a](()…` would otherwise be quadratic).
 */
function destinationEnds(src: string): { close: Int32Array; space: Int32Array; depth: Int32Array } {
  const n = src.length;
  const depth = new Int32Array(n + 1);
  for (let k = 0; k < n; k++) {
    const escaped = src[k] === '\\' && k + 1 < n;
    depth[k + 1] = depth[k]! + (src[k] === '(' ? 1 : src[k] === ')' ? -1 : 0);
    if (escaped) depth[++k + 1] = depth[k]!;
  }
  const close = new Int32Array(n + 1).fill(-1);
  const space = new Int32Array(n + 1).fill(n);
  const nearest = new Map<number, number>();
  for (let k = n - 1; k >= 0; k--) {
    if (src[k] === ')' && depth[k + 1] === depth[k]! - 1) nearest.set(depth[k + 1]!, k);
    close[k] = nearest.get(depth[k]! - 1) ?? -1;
    space[k] = src[k]! <= ' ' || /\s/.test(src[k]!) ? k : space[k + 1]!;
  }
  return { close, space, depth };
}

/** `url "title")` after a link's `](`: the URL (escapes removed) and where the link ends, or undefined. */
function destination(src: string, from: number, ends: () => ReturnType<typeof destinationEnds>): [string, number] | undefined {
  let k = from;
  while (/[ \t\n]/.test(src[k] ?? '')) k++;
  let href: string;
  let j = k;
  if (src[k] === '<') {
    for (j = k + 1; src[j] !== '>'; j++) {
      if (src[j] === '\\') j++;
      else if (j >= src.length || src[j] === '\n' || src[j] === '<') return undefined;
    }
    href = src.slice(k + 1, j++);
  } else {
    const { close, space, depth } = ends();
    j = close[k]! >= 0 && close[k]! < space[k]! ? close[k]! : space[k]!;
    // An unclosed `(` in the URL: not a link.
    if (depth[j]! > depth[k]!) return undefined;
    href = src.slice(k, j);
  }
  k = j;
  while (src[k] === ' ' || src[k] === '\t') k++;
  if (src[k] === '\n') k = skipIndent(src, k + 1);
  const quote = k > j ? ({ '"': '"', "'": "'", '(': ')' } as Record<string, string>)[src[k]!] : undefined;
  if (quote) {
    let t = k + 1;
    while (t < src.length && src[t] !== quote) t += src[t] === '\\' ? 2 : 1;
    if (t < src.length) k = t + 1;
  }
  while (/[ \t\n]/.test(src[k] ?? '')) k++;
  return src[k] === ')' ? [unescape(href), k + 1] : undefined;
}
