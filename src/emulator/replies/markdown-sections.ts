/**
 * Splits Markdown documents into sections by headings and cuts a section down to a chat-sized
 * excerpt. The knowledge base indexes these sections; a reply is one of them.
 */

/** One heading of a document and the Markdown under it, up to the next heading. */
export interface DocSection {
  /** Position in the knowledge base, in document order: also the tie-breaker between equal scores. */
  id: number;
  /** Where the section comes from, as shown to the visitor (e.g. `docs/embedding.md`). */
  source: string;
  /** 1 for `#`, 2 for `##`, … */
  level: number;
  title: string;
  /** Titles of the enclosing headings, outermost first, joined with ` › `. */
  context: string;
  /** Markdown under the heading, without it, HTML comments removed. */
  body: string;
}

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;

/** Follows fenced code blocks line by line: inside one from its opening line to its closing line. */
class Fences {
  #open: string | undefined;

  /** Reads the next line; answers whether it is a fence line (opening or closing a block). */
  read(line: string): boolean {
    const marker = FENCE.exec(line)?.[1];
    if (marker === undefined) return false;
    if (this.#open === undefined) this.#open = marker;
    else if (marker[0] === this.#open[0] && marker.length >= this.#open.length) this.#open = undefined;
    return true;
  }

  /** Whether the lines read so far leave a block open. */
  get inside(): boolean {
    return this.#open !== undefined;
  }
}
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;

/**
 * Sections of one Markdown document, in order. Headings inside fenced code blocks are ignored;
 * sections with nothing under their heading are left out (their title still gives context to
 * the sections below them).
 */
export function splitSections(markdown: string, source: string, firstId = 0): DocSection[] {
  const sections: DocSection[] = [];
  const stack: { level: number; title: string }[] = [];
  let current: { level: number; title: string; context: string; lines: string[] } | undefined;
  const preamble: string[] = [];
  const fences = new Fences();

  const flush = (): void => {
    if (!current) return;
    const body = tidy(current.lines.join('\n'));
    if (body) {
      sections.push({ id: firstId + sections.length, source, level: current.level, title: current.title, context: current.context, body });
    }
  };

  for (const line of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const fenceLine = fences.read(line);
    const heading = !fences.inside && !fenceLine ? HEADING.exec(line) : null;
    if (!heading) {
      (current ? current.lines : preamble).push(line);
      continue;
    }
    flush();
    const level = heading[1]!.length;
    const title = heading[2]!.trim();
    while (stack.length && stack[stack.length - 1]!.level >= level) stack.pop();
    current = { level, title, context: stack.map((h) => h.title).join(' › '), lines: [] };
    stack.push({ level, title });
  }
  flush();

  // Text before the first heading belongs to a section named after the file.
  const intro = tidy(preamble.join('\n'));
  if (intro) sections.unshift({ id: firstId, source, level: 1, title: source, context: '', body: intro });
  return sections.map((section, index) => ({ ...section, id: firstId + index }));
}

function tidy(markdown: string): string {
  return markdown
    .replace(/<!--[\s\S]*?-->/g, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/**
 * Links to other files of the docs, and to headings of the page a section comes from, mean
 * nothing inside a chat bubble (they would resolve against the visitor's page), so they become
 * plain text; absolute links stay.
 */
export function unlinkRelative(markdown: string): string {
  return markdown.replace(/(?<!!)\[([^\]\n]+)\]\(([^)\s]+)\)/g, (whole, text: string, href: string) =>
    /^(https?:|mailto:)/i.test(href) ? whole : text,
  );
}

/** A table's delimiter row: `|---|:--:|`, its outer pipes optional. */
const TABLE_DELIMITER = /^ {0,3}\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;

/**
 * The cells of a table row: split at each `|` that is neither escaped nor inside a code span
 * (GFM's rule, as a reader expects), outer pipes optional, `\|` read as `|`, trimmed.
 */
function tableCells(row: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let code = 0; // the length of the backtick run that opened the code span the cell is in
  const text = row.trim();
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\\' && text[i + 1] === '|') {
      cell += '|';
      i++;
    } else if (char === '`') {
      let run = 1;
      while (text[i + run] === '`') run++;
      code = code === 0 ? run : code === run ? 0 : code;
      cell += text.slice(i, i + run);
      i += run - 1;
    } else if (char === '|' && code === 0) {
      cells.push(cell);
      cell = '';
    } else {
      cell += char;
    }
  }
  cells.push(cell);
  if (text.startsWith('|')) cells.shift();
  if (text.endsWith('|') && !text.endsWith('\\|') && cells.length > 1) cells.pop();
  return cells.map((c) => c.trim());
}

/**
 * Tables become lists: a chat bubble shows a table's rows as lines of pipes (the widget renders
 * no tables, as most chat widgets), and a list reads well in a narrow panel. Each row is an item:
 * its first cell, then ` — ` and the second, then `; header: cell` for the others that are not
 * empty; a row with no text is left out. Tables inside fenced code blocks are left alone.
 */
export function tablesAsLists(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  const fences = new Fences();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    fences.read(line);
    const next = lines[i + 1] ?? '';
    if (fences.inside || !line.includes('|') || !next.includes('|') || !TABLE_DELIMITER.test(next)) {
      out.push(line);
      continue;
    }
    const headers = tableCells(line);
    for (i += 2; i < lines.length && lines[i]!.includes('|') && !FENCE.test(lines[i]!); i++) {
      const [first = '', second = '', ...rest] = tableCells(lines[i]!);
      const others = rest.flatMap((cell, n) => (cell ? [`${headers[n + 2] ? `${headers[n + 2]}: ` : ''}${cell}`] : []));
      const item = [[first, second].filter(Boolean).join(' — '), ...others].filter(Boolean).join('; ');
      if (item) out.push(`- ${item}`);
    }
    i--;
  }
  return out.join('\n');
}

/**
 * Blocks of Markdown separated by blank lines, where a fenced code block (blank lines included)
 * is one block, so an excerpt never cuts through code.
 */
export function splitBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  let lines: string[] = [];
  const fences = new Fences();
  for (const line of markdown.split('\n')) {
    const fenceLine = fences.read(line);
    if (!fences.inside && !fenceLine && line.trim() === '') {
      if (lines.length) blocks.push(lines.join('\n'));
      lines = [];
    } else {
      lines.push(line);
    }
  }
  if (lines.length) blocks.push(lines.join('\n'));
  return blocks;
}

/**
 * The first blocks of `markdown` that fit in `maxChars`, cut at a block boundary. The first block
 * is always kept; when it alone is far too long it is cut at a line boundary, and a code fence it
 * opened is closed again. `truncated` says whether anything was left out.
 */
export function excerpt(markdown: string, maxChars: number): { text: string; truncated: boolean } {
  const blocks = splitBlocks(markdown);
  const kept: string[] = [];
  let length = 0;
  for (const block of blocks) {
    const added = (kept.length ? 2 : 0) + block.length;
    if (kept.length && length + added > maxChars) break;
    kept.push(block);
    length += added;
  }
  let truncated = kept.length < blocks.length;
  // A paragraph that introduces what follows ("…in src/index.ts:") is not left pointing at
  // nothing: what it introduces comes too while the excerpt stays within half again its length;
  // past that, the paragraph goes.
  if (truncated && kept.length > 1 && kept[kept.length - 1]!.trimEnd().endsWith(':')) {
    const next = blocks[kept.length]!;
    if (length + 2 + next.length <= maxChars * 1.5) kept.push(next);
    else kept.pop();
    truncated = kept.length < blocks.length;
  }
  if (kept.length === 1 && kept[0]!.length > maxChars * 1.5) {
    kept[0] = cutBlock(kept[0]!, maxChars);
    truncated = true;
  }
  return { text: kept.join('\n\n'), truncated };
}

function cutBlock(block: string, maxChars: number): string {
  const lines = block.split('\n');
  const kept: string[] = [];
  let length = 0;
  for (const line of lines) {
    if (kept.length && length + line.length + 1 > maxChars) break;
    kept.push(line.length > maxChars ? `${line.slice(0, maxChars).trimEnd()}…` : line);
    length += line.length + 1;
  }
  const opening = FENCE.exec(kept[0] ?? '');
  if (opening && kept.length > 1 && !FENCE.test(kept[kept.length - 1]!)) kept.push(opening[1]!);
  return kept.join('\n');
}
