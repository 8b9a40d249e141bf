/**
 * Safe Markdown for bot replies. `marked`'s Lexer turns the text into tokens; this file turns a
 * whitelist of token types into Lit templates. Nothing is ever parsed as HTML: text lands in the
 * DOM as text nodes through Lit's escaping bindings, raw HTML tokens are shown as their source
 * text, and links keep only http, https and mailto targets. This holds for replies from the
 * network and from the cache alike, since both go through here.
 */
import { Lexer, type Token, type Tokens } from 'marked';
import { html, nothing, type TemplateResult } from 'lit';

type Part = TemplateResult | string | typeof nothing;

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);
/** Replies are short, but a pathological one must not blow the stack. */
const MAX_DEPTH = 12;
/** Lexing is the costly part; a reply is lexed once per page life. */
const tokenCache = new Map<string, Token[]>();
const TOKEN_CACHE_LIMIT = 400;

/**
 * The link target if it is safe to follow: http(s) or mailto, resolved against the page
 * (so `/docs` stays on the host site). Anything else (javascript:, data:, …) yields undefined.
 */
export function safeHref(href: string, base = globalThis.document?.baseURI): string | undefined {
  try {
    const url = new URL(href, base);
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : undefined;
  } catch {
    return undefined;
  }
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** Markdown text may carry entity references; they become the characters they name. */
function decodeEntities(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : '\ufffd';
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? whole;
  });
}

function lex(text: string): Token[] {
  let tokens = tokenCache.get(text);
  if (!tokens) {
    try {
      // `breaks: false`: a single newline inside a paragraph is a soft break (a space), as in
      // Markdown; two trailing spaces or a backslash make a `br` token, a real line break.
      tokens = Lexer.lex(text, { gfm: true, breaks: false });
    } catch {
      tokens = [{ type: 'paragraph', raw: text, text, tokens: [{ type: 'text', raw: text, text }] } as Token];
    }
    if (tokenCache.size >= TOKEN_CACHE_LIMIT) tokenCache.delete(tokenCache.keys().next().value as string);
    tokenCache.set(text, tokens);
  }
  return tokens;
}

function inline(tokens: Token[] | undefined, depth: number): Part[] {
  if (!tokens) return [];
  return tokens.map((token) => inlineToken(token, depth + 1));
}

function inlineToken(token: Token, depth: number): Part {
  if (depth > MAX_DEPTH) return token.raw;
  switch (token.type) {
    case 'text':
    case 'escape': {
      const t = token as Tokens.Text;
      return t.tokens ? html`${inline(t.tokens, depth)}` : decodeEntities(t.text);
    }
    case 'strong':
      return html`<strong>${inline((token as Tokens.Strong).tokens, depth)}</strong>`;
    case 'em':
      return html`<em>${inline((token as Tokens.Em).tokens, depth)}</em>`;
    case 'del':
      return html`<del>${inline((token as Tokens.Del).tokens, depth)}</del>`;
    case 'codespan':
      return html`<code>${decodeEntities((token as Tokens.Codespan).text)}</code>`;
    case 'br':
      return html`<br />`;
    case 'link':
    case 'image': {
      const t = token as Tokens.Link | Tokens.Image;
      const href = safeHref(t.href);
      // Images become links: a reply never makes the browser fetch a third-party resource by itself.
      const label = t.type === 'image' ? decodeEntities(t.text || t.href) : inline(t.tokens, depth);
      if (!href) return html`${label}`;
      return html`<a href=${href} target="_blank" rel="noopener noreferrer">${label}</a>`;
    }
    default:
      // html and anything unknown: shown as the text it was written as, never interpreted.
      return token.raw;
  }
}

function block(tokens: Token[], depth: number): Part[] {
  return tokens.map((token) => blockToken(token, depth + 1));
}

function blockToken(token: Token, depth: number): Part {
  if (depth > MAX_DEPTH) return html`<p>${token.raw}</p>`;
  switch (token.type) {
    case 'space':
    case 'def':
      return nothing;
    case 'paragraph':
      return html`<p>${inline((token as Tokens.Paragraph).tokens, depth)}</p>`;
    case 'heading':
      // Headings inside a chat bubble would break the page's outline: bold paragraph instead.
      return html`<p><strong>${inline((token as Tokens.Heading).tokens, depth)}</strong></p>`;
    case 'code':
      return html`<pre><code>${(token as Tokens.Code).text}</code></pre>`;
    case 'blockquote':
      return html`<blockquote>${block((token as Tokens.Blockquote).tokens, depth)}</blockquote>`;
    case 'hr':
      return html`<hr />`;
    case 'list': {
      const list = token as Tokens.List;
      const items = list.items.map((item) => html`<li>${block(item.tokens, depth)}</li>`);
      return list.ordered
        ? html`<ol start=${typeof list.start === 'number' ? list.start : 1}>${items}</ol>`
        : html`<ul>${items}</ul>`;
    }
    case 'text': {
      // Tight list items hold block-level `text` tokens with inline children.
      const t = token as Tokens.Text;
      return html`${t.tokens ? inline(t.tokens, depth) : decodeEntities(t.text)}`;
    }
    default:
      // html blocks, tables and anything unknown: their source text, inert.
      return html`<p>${token.raw.trim()}</p>`;
  }
}

/** Renders Markdown text to a template of whitelisted elements only. */
export function renderMarkdown(text: string): TemplateResult {
  return html`${block(lex(text), 0)}`;
}
