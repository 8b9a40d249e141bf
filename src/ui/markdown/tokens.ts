/**
 * The tokens the reply renderer (../markdown.ts) turns into elements: the Markdown subset a chat
 * answer uses, shaped as `marked`'s tokens are (so `marked` can check our lexer in the tests).
 * `raw` is the source a token was lexed from: tags, tables past the size the renderer draws
 * (`plain`) and what lies past {@link MAX_DEPTH} are shown as it, never interpreted.
 */
export type Token =
  | { type: 'space' | 'hr' | 'br' | 'def' | 'html' | 'plain'; raw: string }
  | { type: 'table'; raw: string; header: Leaf[]; align: Align[]; rows: Leaf[][] }
  | { type: 'code' | 'codespan' | 'escape'; raw: string; text: string }
  | Leaf
  | Span
  | { type: 'blockquote'; raw: string; tokens: Token[] }
  | { type: 'link' | 'image'; raw: string; text: string; href: string; tokens: Token[] }
  | { type: 'list'; raw: string; ordered: boolean; start: number | ''; items: { tokens: Token[] }[] };

/** Text whose inline content is lexed once the blocks are known (`text`: a tight list item's or a table cell's). */
export interface Leaf {
  type: 'text' | 'paragraph' | 'heading';
  raw: string;
  text: string;
  tokens?: Token[];
}

/** How a table column's cells are aligned (`:--`, `:-:`, `--:` in its delimiter row; null: not said). */
export type Align = 'left' | 'center' | 'right' | null;

/** Emphasis: what a matched pair of `*`, `_` or `~` delimiters becomes. */
export interface Span {
  type: 'strong' | 'em' | 'del';
  raw: string;
  tokens: Token[];
}

/** Link reference definitions of a reply (`[label]: url`), by normalized label. */
export type Refs = Map<string, string>;

/**
 * Replies are short, but a pathological one must not blow the stack: tokens nested deeper are
 * shown as their source text, and the lexer stops nesting there too.
 */
export const MAX_DEPTH = 12;

/** Labels match case-insensitively, with runs of whitespace as one space. */
export const refLabel = (label: string) => label.trim().replace(/\s+/g, ' ').toLowerCase();
/** Text without its backslash escapes (`\*` is `*`): a link's destination. */
export const unescape = (text: string) => text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
