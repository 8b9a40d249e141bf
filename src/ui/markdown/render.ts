/**
 * Safe Markdown for bot replies, kept whole (about 340 lines): every token type a reply can hold
 * is drawn here, so what is never drawn as HTML can be checked in one file. Our own lexer
 * (./block.ts, ./inline.ts) turns the text into tokens; this file turns a whitelist of token
 * types into Lit templates. Nothing is ever parsed as HTML: text lands in the
 * DOM as text nodes through Lit's escaping bindings, raw HTML tokens are shown as their source
 * text, and links keep only http, https, mailto and tel targets. This holds for replies from the
 * network and from the cache alike, since both go through here.
 *
 * A reply is untrusted (an upstream model can be talked into anything), so the renderer also
 * bounds its own work: replies past {@link MAX_MARKDOWN_LENGTH} are shown as plain text, and the
 * lexer stops nesting containers (quotes, lists) past {@link MAX_DEPTH}: what lies deeper is
 * shown as its source text.
 */
import { html, nothing, type TemplateResult } from 'lit';
import { inertText } from '../inert-text.js';
import { lexMarkdown } from './block.js';
import { MAX_DEPTH, type Align, type Token } from './tokens.js';

type Part = TemplateResult | string | typeof nothing;

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:', 'tel:']);
/**
 * Longer replies are shown as plain text: a reply this long is not a chat answer, and it bounds
 * the work of lexing and rendering one.
 */
export const MAX_MARKDOWN_LENGTH = 12_000;
/** Lexing is the costly part; a reply is lexed once per page life. */
const tokenCache = new Map<string, Token[]>();
const TOKEN_CACHE_LIMIT = 400;

/**
 * The URL of a link if it is safe to follow: http(s), mailto or tel, resolved against the page (so
 * `/docs` stays on the host site). Anything else (javascript:, data:, …) yields undefined. The
 * WHATWG parser does the hard part: it drops tabs and newlines (`java\tscript:`), lowercases the
 * scheme (`JaVaScRiPt:`) and punycodes the host.
 */
function safeUrl(href: unknown, base = globalThis.document?.baseURI): URL | undefined {
  try {
    const url = new URL(inertText(href), base);
    return SAFE_PROTOCOLS.has(url.protocol) ? url : undefined;
  } catch {
    return undefined;
  }
}

/** {@link safeUrl} as a string: the link target if it is safe to follow, else undefined. */
export function safeHref(href: unknown, base = globalThis.document?.baseURI): string | undefined {
  return safeUrl(href, base)?.href;
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

/**
 * Bidi embeddings, overrides, isolates and marks, and zero-width characters. Removed from link
 * text: there they only serve to make the visible text differ from where the link goes
 * (`[https://bank.example/\u202Eelpmaxe.live](…)`).
 */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/**
 * Characters that read as a full stop: one dot leader, small, fullwidth, ideographic and
 * halfwidth ideographic full stops, and other dots of other scripts. `bank\u2024example` looks
 * like `bank.example`, so link text is compared as if they were dots (the URL parser maps some of
 * them to dots in hosts, but link text is never parsed as a URL).
 */
const DOT_LIKE = /[\u0387\u06d4\u0701\u0702\u2024\u2027\u2e31\u2e33\u3002\ua4f8\ua60e\ufe52\uff0e\uff61]/g;

/**
 * Link text as a reader takes it: without invisible characters, compatibility forms folded
 * (fullwidth letters, digits and `＠` become plain ones) and look-alike dots made dots.
 */
function asRead(label: string): string {
  return label.replace(INVISIBLE, '').slice(0, 400).normalize('NFKC').replace(DOT_LIKE, '.');
}

/**
 * The hosts a link's text names, if any (`bank.example`, `https://bank.example/x`, the user part
 * of `https://bank.example@evil.example`), normalized as the URL parser would (lowercase,
 * punycode). Only the start of the text is looked at: a label is a few words.
 */
function claimedHosts(text: string): string[] {
  const hosts: string[] = [];
  for (const word of text.split(/[\s<>()[\]"'`*_~@,;]+/)) {
    const host = word
      .replace(/^[a-z][a-z0-9+.-]*:\/\//i, '')
      .replace(/^(?:mailto|tel):/i, '')
      .split(/[/?#:]/)[0]!;
    if (!/[^.]\.\p{L}{2,}\.?$/u.test(host)) continue;
    try {
      hosts.push(new URL(`http://${host}`).hostname);
    } catch {
      // not a host after all
    }
  }
  return hosts;
}

const sameSite = (a: string, b: string) => a.replace(/^www\./, '') === b.replace(/^www\./, '');

const EMAIL = /[^\s<>()[\]"'`*,;:]+@[^\s<>()[\]"'`*,;:]+\.[^\s<>()[\]"'`*,;:.]+/g;

/** Every recipient of a mailto link, lowercase: the address part and `to`, `cc` and `bcc`. */
function mailRecipients(url: URL): string[] {
  const fields = [url.pathname, ...['to', 'cc', 'bcc'].flatMap((name) => url.searchParams.getAll(name))];
  return fields.flatMap((field) => {
    let decoded = field;
    try {
      decoded = decodeURIComponent(field);
    } catch {
      // shown as written
    }
    return decoded
      .split(',')
      .map((address) => address.trim().toLowerCase())
      .filter(Boolean);
  });
}

/** The digits of a phone number, as dialled (`+`, then digits; separators left out). */
const dialled = (text: string) => text.replace(/[^\d+]/g, '').replace(/(?!^)\+/g, '');

/**
 * What to show after a link whose text could mislead about where it goes, or undefined:
 * - web links: text naming another host (`[https://bank.example](https://evil.example)`), also
 *   with look-alike dots (`bank\u3002example`), or a host that only looks like its text once
 *   decoded (an internationalized, `xn--` name, possibly a homograph);
 * - mailto: text naming an address or a host other than the recipients, or recipients the text
 *   does not name (a hidden `cc`/`bcc`);
 * - tel: text showing another number than the one dialled.
 */
function targetToShow(url: URL, label: string): string | undefined {
  const text = asRead(label);
  if (url.protocol === 'mailto:') {
    const recipients = mailRecipients(url);
    const named = (text.match(EMAIL) ?? []).map((address) => address.toLowerCase());
    const domains = recipients.map((address) => address.slice(address.lastIndexOf('@') + 1));
    const misleading =
      named.some((address) => !recipients.includes(address)) ||
      (named.length > 0 && recipients.some((address) => !named.includes(address))) ||
      claimedHosts(text).some((host) => !domains.some((domain) => sameSite(host, domain)));
    return misleading ? recipients.join(', ') : undefined;
  }
  if (url.protocol === 'tel:') {
    let number = url.pathname;
    try {
      number = decodeURIComponent(number);
    } catch {
      // shown as written
    }
    // Digits of other scripts would need reading; any is shown with the number dialled.
    const otherDigits = /[^\P{Nd}0-9]/u.test(text);
    const shown = dialled(text);
    const misleading =
      otherDigits || (/\d{3}/.test(text.replace(/[\s().-]/g, '')) && shown.replace('+', '') !== dialled(number).replace('+', ''));
    return misleading ? dialled(number) : undefined;
  }
  const host = url.hostname;
  if (!host) return undefined;
  if (host.split('.').some((part) => part.startsWith('xn--'))) return host;
  return claimedHosts(text).some((claimed) => !sameSite(claimed, host)) ? host : undefined;
}

function lex(text: string): Token[] {
  let tokens = tokenCache.get(text);
  if (!tokens) {
    try {
      // A single newline inside a paragraph is a soft break (a space), as in Markdown; two
      // trailing spaces or a backslash make a `br` token, a real line break.
      tokens = lexMarkdown(text);
    } catch {
      tokens = [{ type: 'paragraph', raw: text, text, tokens: [{ type: 'text', raw: text, text }] }];
    }
    if (tokenCache.size >= TOKEN_CACHE_LIMIT) tokenCache.delete(tokenCache.keys().next().value as string);
    tokenCache.set(text, tokens);
  }
  return tokens;
}

/** `inLink`: inside a link's text, where no second link may start and invisible characters go. */
function inline(tokens: Token[] | undefined, depth: number, inLink = false): Part[] {
  if (!tokens) return [];
  return tokens.map((token) => inlineToken(token, depth + 1, inLink));
}

function inlineToken(token: Token, depth: number, inLink: boolean): Part {
  if (depth > MAX_DEPTH) return token.raw;
  switch (token.type) {
    case 'text':
    case 'escape': {
      if ('tokens' in token && token.tokens) return html`${inline(token.tokens, depth, inLink)}`;
      const text = decodeEntities(token.text);
      return inLink ? text.replace(INVISIBLE, '') : text;
    }
    case 'strong':
      return html`<strong>${inline(token.tokens, depth, inLink)}</strong>`;
    case 'em':
      return html`<em>${inline(token.tokens, depth, inLink)}</em>`;
    case 'del':
      return html`<del>${inline(token.tokens, depth, inLink)}</del>`;
    case 'codespan': {
      const text = decodeEntities(token.text);
      return html`<code>${inLink ? text.replace(INVISIBLE, '') : text}</code>`;
    }
    case 'br':
      return html`<br />`;
    case 'link':
    case 'image': {
      const t = token;
      // Images become links: a reply never makes the browser fetch a third-party resource by
      // itself. An image inside a link is its text only (no link inside a link).
      const text = decodeEntities(t.text || '')
        .replace(INVISIBLE, '')
        .trim();
      // A link with no visible text (`[](…)`, `[\u200b](…)`) shows where it goes.
      const label = t.type === 'image' || inLink || !text ? text || t.href : inline(t.tokens, depth, true);
      // CommonMark decodes entities in a destination: `&#106;avascript:` is `javascript:`, judged as such.
      const url = inLink ? undefined : safeUrl(decodeEntities(t.href));
      if (!url) return html`${label}`;
      const host = targetToShow(url, text || t.href);
      // The host goes inside the link, which the styles isolate (`unicode-bidi: isolate`): an
      // override earlier in the reply cannot reorder either of them.
      return html`<a href=${url.href} target="_blank" rel="noopener noreferrer">${label}${host ? ` (${host})` : nothing}</a>`;
    }
    default:
      // html and anything unknown: shown as the text it was written as, never interpreted.
      return token.raw;
  }
}
/**
 * A column's alignment as a class: classes, not style attributes, which the widget's strict
 * content security policy would refuse. `:--` is the start of the line and `--:` its end, so a
 * right-to-left reply's table is aligned as its author wrote it.
 */
const ALIGN_CLASSES: Record<NonNullable<Align>, string> = { left: 'align-start', center: 'align-center', right: 'align-end' };

/**
 * A table in a region that scrolls sideways when wider than its bubble, which keyboard users
 * reach with Tab. The region is named by the table's column names: the reply's own words, in its
 * own language.
 */
function table(token: Extract<Token, { type: 'table' }>, depth: number): TemplateResult {
  const align = (column: number) => {
    const alignment = token.align[column];
    return alignment ? ALIGN_CLASSES[alignment] : nothing;
  };
  const label = token.header
    .map((cell) => decodeEntities(cell.text))
    .filter(Boolean)
    .join(', ');
  const header = token.header.map((cell, column) => html`<th scope="col" class=${align(column)}>${inline(cell.tokens, depth)}</th>`);
  const rows = token.rows.map(
    (row) => html`<tr>${row.map((cell, column) => html`<td class=${align(column)}>${inline(cell.tokens, depth)}</td>`)}</tr>`,
  );
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label=${label || nothing}>
    <table>
      <thead>
        <tr>${header}</tr>
      </thead>
      ${rows.length ? html`<tbody>${rows}</tbody>` : nothing}
    </table>
  </div>`;
}

/**
 * Draws a code block, given its code as text: where the widget adds its part and copy button.
 * The code is only ever a string, bound as text (inert).
 */
export type CodeBlockWrapper = (code: string) => TemplateResult;

function block(tokens: Token[], depth: number, wrap?: CodeBlockWrapper): Part[] {
  return tokens.map((token) => blockToken(token, depth + 1, wrap));
}

function blockToken(token: Token, depth: number, wrap: CodeBlockWrapper | undefined): Part {
  if (depth > MAX_DEPTH) return html`<p>${token.raw}</p>`;
  switch (token.type) {
    case 'space':
    case 'def':
      return nothing;
    case 'paragraph':
      return html`<p>${inline(token.tokens, depth)}</p>`;
    case 'heading':
      // Headings inside a chat bubble would break the page's outline: bold paragraph instead.
      return html`<p><strong>${inline(token.tokens, depth)}</strong></p>`;
    case 'code': {
      const code = token.text;
      return wrap ? wrap(code) : html`<pre><code>${code}</code></pre>`;
    }
    case 'blockquote':
      return html`<blockquote>${block(token.tokens, depth, wrap)}</blockquote>`;
    case 'hr':
      return html`<hr />`;
    case 'list': {
      const list = token;
      const items = list.items.map((item) => html`<li>${block(item.tokens, depth, wrap)}</li>`);
      return list.ordered ? html`<ol start=${typeof list.start === 'number' ? list.start : 1}>${items}</ol>` : html`<ul>${items}</ul>`;
    }
    case 'text':
      // Tight list items hold block-level `text` tokens with inline children.
      return html`${token.tokens ? inline(token.tokens, depth) : decodeEntities(token.text)}`;
    case 'table':
      return table(token, depth);
    case 'plain':
      // Its source text, a row a line.
      return html`<p class="plain">${token.raw.trim()}</p>`;
    default:
      // html blocks and anything unknown: their source text, inert.
      return html`<p>${token.raw.trim()}</p>`;
  }
}

/**
 * Renders Markdown text to a template of whitelisted elements only. Anything but a string (a
 * tampered cache entry) renders as empty; a reply longer than {@link MAX_MARKDOWN_LENGTH} as
 * plain text, its line breaks kept. `wrapCode`, when given, wraps each code block (the widget's
 * copy button); what it adds is the caller's, the reply's own text stays inert either way.
 */
export function renderMarkdown(value: unknown, wrapCode?: CodeBlockWrapper): TemplateResult {
  const text = inertText(value);
  if (text.length > MAX_MARKDOWN_LENGTH) return html`<p class="plain">${text}</p>`;
  return renderTokens(lex(text), wrapCode);
}

/** Renders lexed tokens (exported for the tests, which render `marked`'s tokens alike to compare). */
export function renderTokens(tokens: Token[], wrapCode?: CodeBlockWrapper): TemplateResult {
  return html`${block(tokens, 0, wrapCode)}`;
}
