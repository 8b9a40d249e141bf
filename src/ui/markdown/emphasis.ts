/**
 * Emphasis for the inline lexer: the runs of `*`, `_` and `~` it found are paired the CommonMark
 * way, then the scanned items are nested into `em`, `strong` and `del` tokens.
 */
import type { Span, Token } from './tokens.js';

/** A run of `*`, `_` or `~` that may open or close emphasis; what it did is filled in later. */
export interface Delim {
  type: 'delim';
  char: string;
  pos: number;
  len: number;
  /** Characters not used by a match yet. */
  left: number;
  open: boolean;
  close: boolean;
  /** The emphasis it opens or closes, innermost first: made at its first match (most runs of a hostile text match none). */
  opens?: Span[];
  closes?: Span[];
}
export type Item = Token | Delim;

/**
 * Pairs emphasis delimiters the CommonMark way (a stack of possible openers, the rule of three,
 * a floor per kind of closer below which no opener can match), recording each match on both
 * delimiters. Linear: each closer searches only above its floor, and a failed search raises it.
 */
export function matchEmphasis(items: Item[], src: string): void {
  const openers: Delim[] = [];
  const floors = new Map<string, number>();
  for (const closer of items) {
    if (closer.type !== 'delim') continue;
    // Named only for a run that closes: most runs of a hostile text (`*a **b *a …`) only open.
    const kind = closer.close ? `${closer.char}${closer.char === '~' ? closer.len : `${closer.open}${closer.len % 3}`}` : '';
    while (closer.close && closer.left > 0) {
      let at = openers.length - 1;
      const floor = floors.get(kind) ?? 0;
      for (; at >= floor; at--) {
        const opener = openers[at]!;
        if (opener.char !== closer.char) continue;
        if (
          closer.char === '~'
            ? opener.len === closer.len
            : !((opener.close || closer.open) && (opener.len + closer.len) % 3 === 0 && (opener.len % 3 || closer.len % 3))
        )
          break;
      }
      if (at < floor) {
        floors.set(kind, openers.length);
        break;
      }
      const opener = openers[at]!;
      const used = closer.char === '~' ? closer.len : opener.left > 1 && closer.left > 1 ? 2 : 1;
      const from = opener.pos + opener.left - used;
      const to = closer.pos + closer.len - closer.left + used;
      const span: Span = { type: closer.char === '~' ? 'del' : used === 2 ? 'strong' : 'em', raw: src.slice(from, to), tokens: [] };
      (opener.opens ??= []).push(span);
      (closer.closes ??= []).push(span);
      opener.left -= used;
      closer.left -= used;
      openers.length = opener.left ? at + 1 : at;
      for (const [key, value] of floors) if (value > openers.length) floors.set(key, openers.length);
    }
    if (closer.open && closer.left) openers.push(closer);
  }
}

/**
 * Nests the scanned items into tokens following the matches. `items[k]` spans `src` from
 * `starts[k]` to `ends[k]`; what lies between items is plain text, and so are the characters of
 * delimiters that no match used: each stretch of them becomes one text token, cut from `src` once.
 */
export function build(items: Item[], starts: number[], ends: number[], src: string): Token[] {
  const root: Token[] = [];
  const stack: Token[][] = [root];
  let from = 0; // where the plain text not yet added begins
  /** Adds the plain text from `from` up to `to` (none if empty). */
  const text = (to: number) => {
    if (to > from) {
      const text = src.slice(from, to);
      stack.at(-1)!.push({ type: 'text', raw: text, text });
    }
    from = to;
  };
  items.forEach((item, k) => {
    if (item.type !== 'delim') {
      text(starts[k]!);
      stack.at(-1)!.push(item);
      from = ends[k]!;
      return;
    }
    // A run no match used is plain text like the text around it.
    const { opens, closes } = item;
    if (!closes && !opens) return;
    // Its characters left over are text between the spans it closes and those it opens. They are
    // all alike, so which of them are cut does not matter: its first ones, when it closes
    // nothing (they follow the text before it), else its last ones.
    if (closes) {
      text(item.pos);
      for (const span of closes) {
        span.tokens = stack.pop()!;
        stack.at(-1)!.push(span);
      }
      from = item.pos + item.len - item.left;
    }
    if (opens) {
      text(closes ? item.pos + item.len : item.pos + item.left);
      for (const _span of opens) stack.push([]);
      from = item.pos + item.len;
    }
  });
  text(src.length);
  // Openers never closed leave no frames: every frame pushed was for a match, closed later.
  return root;
}
