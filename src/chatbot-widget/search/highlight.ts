/**
 * A found message as the results show it: a passage around the first match, cut at word
 * boundaries, split into plain and marked pieces. Pieces are plain strings, rendered as text
 * nodes (a marked one inside `<mark>`): the message is the visitor's own text, from the cache,
 * and stays inert.
 */

/** A run of the passage; `mark`: a matched word. */
export interface Piece {
  text: string;
  mark: boolean;
}

/** A matched word's place in the text: `[start, end)`. */
export interface Mark {
  start: number;
  end: number;
}

/** Characters of a passage at most, and of context kept before its first match. */
export const PASSAGE = 160;
const BEFORE = 40;

/** Moves an index off the second half of a surrogate pair, so no character is cut in two. */
function atCharacter(text: string, index: number) {
  const code = text.charCodeAt(index);
  return code >= 0xdc00 && code <= 0xdfff ? index - 1 : index;
}

/**
 * `text` split at `marks` (`[start, end)` ranges, in any order, may overlap), shortened to
 * {@link PASSAGE} characters around the first mark with an ellipsis where it was cut.
 */
export function highlight(text: string, marks: readonly Mark[]): Piece[] {
  const ranges = [...marks].sort((a, b) => a.start - b.start);
  let from = 0;
  let to = text.length;
  if (text.length > PASSAGE) {
    const first = ranges[0]?.start ?? 0;
    from = Math.max(0, first - BEFORE);
    // Start at a word: after the last space in the context, when there is one.
    const space = text.lastIndexOf(' ', first - 1);
    if (from > 0 && space >= from) from = space + 1;
    from = atCharacter(text, from);
    to = atCharacter(text, Math.min(text.length, from + PASSAGE));
  }
  const pieces: Piece[] = [];
  const add = (piece: string, mark: boolean) => {
    if (!piece) return;
    const last = pieces[pieces.length - 1];
    if (last && last.mark === mark) last.text += piece;
    else pieces.push({ text: piece, mark });
  };
  if (from > 0) add('…', false);
  let at = from;
  for (const { start, end } of ranges) {
    const s = Math.max(start, at);
    const e = Math.min(end, to);
    if (e <= s) continue;
    add(text.slice(at, s), false);
    add(text.slice(s, e), true);
    at = e;
  }
  add(text.slice(at, to), false);
  if (to < text.length) add('…', false);
  return pieces;
}
