// The page side of bench/markdown.ts: the real reply lexer and renderer, bundled for Chromium.
// `renderReply(text, times)` lexes a reply and renders it into a fresh element of the page (lex +
// render to DOM, the cache of lexed replies bypassed), `times` times, and answers the milliseconds
// one took on average and the elements it drew, by tag.
import { render } from 'lit';
import { renderTokens } from '../../src/ui/markdown/render.js';
import { lexMarkdown } from '../../src/ui/markdown/block.js';

function renderReply(text: string, times = 1): { ms: number; elements: Record<string, number> } {
  let bubble = document.createElement('div');
  let ms = 0;
  for (let time = 0; time < times; time++) {
    bubble.remove();
    bubble = document.createElement('div');
    document.body.append(bubble);
    const start = performance.now();
    render(renderTokens(lexMarkdown(text)), bubble);
    ms += performance.now() - start;
  }
  const elements: Record<string, number> = {};
  for (const element of bubble.querySelectorAll('*'))
    elements[element.tagName.toLowerCase()] = (elements[element.tagName.toLowerCase()] ?? 0) + 1;
  bubble.remove();
  return { ms: ms / times, elements };
}

Object.assign(globalThis, { renderReply });
