// The page side of bench/markdown.ts: the real reply lexer and renderer, bundled for Chromium.
// `renderReply(text)` lexes a reply and renders it into a fresh element of the page (lex + render
// to DOM, the cache of lexed replies bypassed), and answers the milliseconds it took and the
// elements it drew, by tag.
import { render } from 'lit';
import { renderTokens } from '../../src/widget/markdown.js';
import { lexMarkdown } from '../../src/widget/markdown/block.js';

function renderReply(text: string): { ms: number; elements: Record<string, number> } {
  const bubble = document.createElement('div');
  document.body.append(bubble);
  const start = performance.now();
  render(renderTokens(lexMarkdown(text)), bubble);
  const ms = performance.now() - start;
  const elements: Record<string, number> = {};
  for (const element of bubble.querySelectorAll('*'))
    elements[element.tagName.toLowerCase()] = (elements[element.tagName.toLowerCase()] ?? 0) + 1;
  bubble.remove();
  return { ms, elements };
}

Object.assign(globalThis, { renderReply });
