// The reply renderer on its own, in Chromium, against a table of hostile Markdown: each payload
// is rendered into the live document (where an image would load and a script would run) and
// must leave only whitelisted elements and attributes, links to http, https, mailto or tel that open
// in a new tab without opener or referrer, no request to a third-party host and no canary set.
import { render } from 'lit';
import { MAX_MARKDOWN_LENGTH, renderMarkdown } from '../../src/ui/markdown/render.js';
import { assert, equal, quietFor } from '../helpers/browser/helpers.js';
import { ACTIVE_ELEMENTS, canary, expectNoThirdPartyRequest, inertProblems, withThirdParty } from '../helpers/browser/inert-dom.js';

interface Payload {
  name: string;
  markdown: string;
  /** Extra expectations on the rendered container. */
  check?: (root: HTMLElement) => void;
}

const links = (root: HTMLElement) => [...root.querySelectorAll('a')];
const noLink = (root: HTMLElement) => equal(links(root).length, 0, 'links');
const oneLinkTo = (href: string) => (root: HTMLElement) =>
  equal(
    links(root)
      .map((a) => a.href)
      .join(' '),
    href,
    'links',
  );
const shows = (text: string) => (root: HTMLElement) =>
  assert(root.textContent!.includes(text), `shows ${JSON.stringify(text)}: ${JSON.stringify(root.textContent)}`);
const all =
  (...checks: ((root: HTMLElement) => void)[]) =>
  (root: HTMLElement) =>
    checks.forEach((check) => check(root));
/** Deepest element nesting inside root. */
const depth = (el: Element): number => Math.max(0, ...[...el.children].map((child) => 1 + depth(child)));

const PAYLOADS: Payload[] = [
  // Raw HTML, inline and as blocks: shown as its text.
  { name: 'img onerror', markdown: '<img src=x onerror="window.__pwned=1">', check: shows('<img src=x onerror="window.__pwned=1">') },
  { name: 'img to a third party', markdown: 'see <img src="THIRD/__beacon/md-html-img"> here' },
  { name: 'script', markdown: '<script>window.__pwned=1</script>', check: shows('<script>') },
  { name: 'svg script', markdown: '<svg><script>window.__pwned=1</script></svg>' },
  { name: 'svg onload', markdown: 'x <svg onload="window.__pwned=1"></svg>' },
  { name: 'iframe srcdoc', markdown: '<iframe srcdoc="<script>parent.__pwned=1</script>"></iframe>' },
  { name: 'iframe src', markdown: '<iframe src="THIRD/__beacon/md-iframe"></iframe>' },
  { name: 'style block', markdown: '<style>*{background:url(THIRD/__beacon/md-style)}</style>' },
  { name: 'style attribute', markdown: 'a <span style="background:url(THIRD/__beacon/md-style-attr)">b</span>' },
  { name: 'link stylesheet', markdown: '<link rel="stylesheet" href="THIRD/__beacon/md-link">' },
  { name: 'object and embed', markdown: '<object data="THIRD/__beacon/md-object"></object><embed src="THIRD/__beacon/md-embed">' },
  { name: 'meta refresh', markdown: '<meta http-equiv="refresh" content="0;url=javascript:window.__pwned=1">' },
  { name: 'base href', markdown: '<base href="THIRD/"> [docs](/docs)' },
  { name: 'form action', markdown: '<form action="javascript:window.__pwned=1"><button>go</button></form>' },
  { name: 'details ontoggle', markdown: '<details open ontoggle="window.__pwned=1">x</details>' },
  { name: 'raw anchor', markdown: '<a href="javascript:window.__pwned=1">click</a>', check: all(noLink, shows('<a href=')) },
  { name: 'mutation XSS', markdown: '<math><mtext><table><mglyph><style><img src=x onerror="window.__pwned=1">' },
  { name: 'comment and CDATA', markdown: '<!-- <img src=x onerror="window.__pwned=1"> --><![CDATA[<script>window.__pwned=1</script>]]>' },
  { name: 'custom element', markdown: '<chatbot-widget endpoint="THIRD/__beacon/md-widget" open></chatbot-widget>' },
  { name: 'HTML in a table cell', markdown: '| a | b |\n|---|---|\n| <img src=x onerror="window.__pwned=1"> | 2 |' },
  {
    name: 'HTML inside code',
    markdown: '`<img src=x onerror="window.__pwned=1">`',
    check: (root) => equal(root.querySelector('code')?.textContent, '<img src=x onerror="window.__pwned=1">'),
  },
  {
    name: 'HTML in a code block',
    markdown: '```html\n<script>window.__pwned=1</script>\n```',
    check: (root) => equal(root.querySelector('pre code')?.textContent, '<script>window.__pwned=1</script>'),
  },
  // Entities: decoded to characters, which stay text.
  {
    name: 'entity-encoded img',
    markdown: '&lt;img src=x onerror="window.__pwned=1"&gt;',
    check: shows('<img src=x onerror="window.__pwned=1">'),
  },
  {
    name: 'numeric entities',
    markdown: '&#60;script&#62;window.__pwned=1&#60;/script&#62; &#x3C;b&#x3E;',
    check: shows('<script>window.__pwned=1</script> <b>'),
  },
  // Link targets: only http, https and mailto survive, however they are spelled.
  { name: 'javascript: link', markdown: '[x](javascript:window.__pwned=1)', check: all(noLink, shows('x')) },
  { name: 'mixed-case scheme', markdown: '[x](JaVaScRiPt:window.__pwned=1)', check: noLink },
  { name: 'tab in the scheme', markdown: '[x](<java\tscript:window.__pwned=1>)', check: noLink },
  { name: 'newline in the scheme', markdown: '[x](<java\nscript:window.__pwned=1>)', check: noLink },
  { name: 'leading space and control characters', markdown: '[x](< \u0001javascript:window.__pwned=1>)', check: noLink },
  { name: 'entity-encoded scheme', markdown: '[x](&#106;avascript:window.__pwned=1)', check: all(noLink, shows('x')) },
  { name: 'hex-entity scheme', markdown: '[x](&#x6A;&#x61;vascript:window.__pwned=1)', check: noLink },
  {
    name: 'entity colon',
    markdown: '[x](javascript&colon;window.__pwned=1)',
    check: (root) => links(root).forEach((a) => assert(a.protocol === 'http:' || a.protocol === 'https:')),
  },
  { name: 'data: HTML', markdown: '[x](data:text/html,<script>window.__pwned=1</script>)', check: noLink },
  { name: 'data: base64', markdown: '[x](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX19wd25lZD0xPC9zY3JpcHQ+)', check: noLink },
  { name: 'vbscript:', markdown: '[x](vbscript:msgbox(1))', check: noLink },
  { name: 'file: and blob:', markdown: '[a](file:///etc/passwd) [b](blob:https://x.example/1)', check: noLink },
  { name: 'autolink javascript:', markdown: '<javascript:window.__pwned=1>', check: all(noLink, shows('javascript:window.__pwned=1')) },
  { name: 'reference-style javascript:', markdown: '[x][r]\n\n[r]: javascript:window.__pwned=1', check: noLink },
  {
    name: 'reference-style with a quoted title',
    markdown: '[x][r]\n\n[r]: https://ok.example/ "a\\" onmouseover=\\"window.__pwned=1"',
    check: oneLinkTo('https://ok.example/'),
  },
  {
    name: 'title with quotes',
    markdown: '[x](https://ok.example/ "a\\" onmouseover=\\"window.__pwned=1")',
    check: oneLinkTo('https://ok.example/'),
  },
  {
    name: 'quote in the href',
    markdown: '[x](<https://ok.example/"onmouseover="window.__pwned=1>)',
    check: (root) => equal(links(root).length, 1),
  },
  { name: 'protocol-relative', markdown: '[x](//evil.example/path)', check: (root) => equal(links(root)[0]?.host, 'evil.example') },
  { name: 'relative link', markdown: '[docs](/docs)', check: oneLinkTo(new URL('/docs', document.baseURI).href) },
  { name: 'mailto', markdown: '[write](mailto:help@example.com)', check: oneLinkTo('mailto:help@example.com') },
  { name: 'bare URL', markdown: 'see https://ok.example/a and www.ok.example', check: (root) => equal(links(root).length, 2) },
  // Images: links, never loaded.
  {
    name: 'image to a third party',
    markdown: '![tracker](THIRD/__beacon/md-image)',
    check: all(shows('tracker'), (root) => equal(links(root).length, 1)),
  },
  { name: 'image with javascript:', markdown: '![x](javascript:window.__pwned=1)', check: noLink },
  { name: 'reference-style image', markdown: '![x][i]\n\n[i]: THIRD/__beacon/md-ref-image' },
  {
    name: 'image inside a link',
    markdown: '[![x](THIRD/__beacon/md-nested-image)](https://ok.example/)',
    check: all(oneLinkTo('https://ok.example/'), (root) => equal(root.querySelectorAll('a a').length, 0)),
  },
  // Text that lies about where a link goes.
  {
    name: 'bidi override in the link text',
    markdown: '[https://bank.example/\u202Eelpmaxe.live](https://evil.example/)',
    check: all(
      (root) => assert(!links(root)[0]!.textContent!.includes('\u202E'), 'no override in the visible text'),
      shows('(evil.example)'),
    ),
  },
  {
    name: 'bidi override before a link',
    markdown: '\u202E [moc.knab](https://evil.example/)',
    check: (root) => assert(links(root)[0]!.textContent!.endsWith('(evil.example)'), 'the host is inside the (isolated) link'),
  },
  {
    name: 'bidi override in a bare URL',
    markdown: 'https://ok.example/\u202Etxt.exe',
    check: (root) => assert(!links(root)[0]!.textContent!.includes('\u202E')),
  },
  {
    name: 'text naming another host',
    markdown: '[https://bank.example/login](https://evil.example/login)',
    check: shows('(evil.example)'),
  },
  { name: 'user info posing as the host', markdown: 'https://bank.example@evil.example/', check: shows('(evil.example)') },
  { name: 'homograph host', markdown: '[p\u0430ypal.com](https://p\u0430ypal.com/)', check: shows('(xn--') },
  {
    name: 'honest link text',
    markdown: '[docs.ok.example](https://docs.ok.example/a) and [the docs](https://ok.example/)',
    check: (root) =>
      assert(!root.textContent!.includes('(docs.ok.example)') && !root.textContent!.includes('(ok.example)'), 'no host added'),
  },
  {
    name: 'zero-width link text',
    markdown: '[\u200b](https://evil.example/) [](https://evil2.example/)',
    check: (root) =>
      equal(
        links(root)
          .map((a) => a.textContent)
          .join(' '),
        'https://evil.example/ https://evil2.example/',
      ),
  },
  { name: 'zero-width characters in text', markdown: 'pay\u200bpal \u2066isolated\u2069 \ufeffbom', check: shows('pay\u200bpal') },
  // Emphasis and code spans built to confuse the parser.
  {
    name: 'nested emphasis',
    markdown: '***__~~`x`~~__*** *a **b* c** _a *b_ c*',
    check: (root) => assert(root.querySelector('strong, em')),
  },
  { name: 'unbalanced backticks', markdown: '``` ` `` <img src=x onerror="window.__pwned=1"> ` ``' },
  { name: 'HTML across emphasis', markdown: '**<b>**</b>** *<img src=x *onerror="window.__pwned=1">*' },
  {
    name: 'link inside a link',
    markdown: '[a [b](https://b.example/) c](https://a.example/)',
    check: (root) => equal(root.querySelectorAll('a a').length, 0),
  },
  { name: 'escapes', markdown: '\\<img src=x onerror="window.__pwned=1"\\> \\[x\\](javascript:alert(1))', check: noLink },
  // Size and depth: bounded work, no stack overflow, a bounded DOM (inputs under the plain-text
  // limit, so the Markdown path is the one tested).
  // The first levels render as quotes or lists (the parser did not give up on the stack), the
  // markers past the cap as text.
  {
    name: 'deep blockquotes',
    markdown: '> '.repeat(5_000) + 'deep',
    check: (root) => assert(root.querySelector('blockquote') && depth(root) <= 40, `depth ${depth(root)}`),
  },
  {
    name: 'deep ordered lists on one line',
    markdown: '1. '.repeat(3_900) + 'deep',
    check: (root) => assert(root.querySelector('ol') && depth(root) <= 40, `depth ${depth(root)}`),
  },
  {
    name: 'deep bullet lists',
    markdown: Array.from({ length: 300 }, (_, i) => `${' '.repeat(i * 2)}- level ${i}`).join('\n'),
    check: all(shows('level 299'), (root) => assert(depth(root) <= 40, `depth ${depth(root)}`)),
  },
  {
    name: 'quotes and lists mixed',
    markdown: '> - > 1. '.repeat(1_200) + 'x',
    check: (root) => assert(root.querySelector('blockquote li') && depth(root) <= 40, `depth ${depth(root)}`),
  },
  { name: 'many open brackets', markdown: '[!['.repeat(5_000) + 'x' },
  {
    name: 'quadratic emphasis',
    markdown: '_a'.repeat(MAX_MARKDOWN_LENGTH),
    check: (root) => equal(root.querySelector('p.plain')?.textContent!.length, MAX_MARKDOWN_LENGTH * 2),
  },
  { name: 'a very long reply', markdown: 'word '.repeat(100_000) + '<img src=x onerror="window.__pwned=1">', check: shows('<img src=x') },
];

describe('renderMarkdown with hostile input', () => {
  const containers: HTMLElement[] = [];
  after(() => containers.forEach((c) => c.remove()));

  for (const payload of PAYLOADS) {
    it(`renders ${payload.name} inert`, async () => {
      const container = document.createElement('div');
      document.body.append(container); // live: an image would load, a script would run
      containers.push(container);
      render(renderMarkdown(withThirdParty(payload.markdown)), container);
      await quietFor(0);
      equal(inertProblems(container).join('; '), '', 'problems:');
      equal(container.querySelectorAll(ACTIVE_ELEMENTS).length, 0, 'active elements');
      payload.check?.(container);
      equal(canary(), undefined, 'window.__pwned');
    });
  }

  it('never rendered anything that reached a third-party host or set the canary', async () => {
    await expectNoThirdPartyRequest('md-');
    equal(canary(), undefined, 'window.__pwned');
  });

  it('renders a value that is not a string (a tampered cache entry) as nothing, not as markup', async () => {
    // Shaped like a Lit template result, with the `raw` array property that structured clone
    // keeps: Lit would render this as HTML if it reached a binding unchanged.
    const strings = Object.assign(['<img src=x onerror="window.__pwned=1">'], { raw: ['<img src=x onerror="window.__pwned=1">'] });
    const forged = structuredClone({ _$litType$: 1, strings, values: [] });
    assert(Object.prototype.hasOwnProperty.call(forged.strings, 'raw'), 'structured clone keeps raw (the premise)');
    for (const value of [forged, null, undefined, 42, { text: 'x' }, ['<b>x</b>']]) {
      const container = document.createElement('div');
      document.body.append(container);
      containers.push(container);
      render(renderMarkdown(value), container);
      equal(container.querySelectorAll('*').length, value === 42 ? 1 : 0, `elements for ${JSON.stringify(value)}`);
    }
    await quietFor(0);
    equal(canary(), undefined, 'window.__pwned');
  });
});

/** What a link shows after its text: ` (target)` when the text could mislead, else nothing. */
function linkSuffix(markdown: string): { text: string; href: string } {
  const container = document.createElement('div');
  render(renderMarkdown(markdown), container);
  const link = container.querySelector('a');
  assert(link, `a link in ${JSON.stringify(markdown)}`);
  return { text: link.textContent!, href: link.getAttribute('href')! };
}

describe('renderMarkdown link warnings', () => {
  // Text that reads as another host with a dot that is not U+002E.
  const LOOK_ALIKE_DOTS: Record<string, string> = {
    'one dot leader': '\u2024',
    'small full stop': '\ufe52',
    'fullwidth full stop': '\uff0e',
    'ideographic full stop': '\u3002',
    'halfwidth ideographic full stop': '\uff61',
  };
  for (const [name, dot] of Object.entries(LOOK_ALIKE_DOTS)) {
    it(`names the real host when the text names another with the ${name}`, () => {
      const { text } = linkSuffix(`[bank${dot}example/login](https://evil.example/login)`);
      assert(text.endsWith('(evil.example)'), `warned: ${JSON.stringify(text)}`);
    });
    it(`adds nothing when the ${name} names the link's own host`, () => {
      const { text } = linkSuffix(`[docs${dot}ok${dot}example](https://docs.ok.example/)`);
      equal(text, `docs${dot}ok${dot}example`, 'unchanged');
    });
  }

  it('folds fullwidth letters before comparing', () => {
    const { text } = linkSuffix('[ｂａｎｋ.example](https://evil.example/)');
    assert(text.endsWith('(evil.example)'), text);
  });

  it('mailto: names the real recipient when the text shows another address or host', () => {
    equal(linkSuffix('[help@bank.example](mailto:thief@evil.example)').text, 'help@bank.example (thief@evil.example)');
    equal(linkSuffix('[help＠bank\u3002example](mailto:thief@evil.example)').text, 'help＠bank\u3002example (thief@evil.example)');
    equal(linkSuffix('[write to bank.example](mailto:thief@evil.example)').text, 'write to bank.example (thief@evil.example)');
  });

  it('mailto: shows every recipient when some are hidden in cc or bcc', () => {
    equal(
      linkSuffix('[help@ok.example](mailto:help@ok.example?bcc=spy@evil.example)').text,
      'help@ok.example (help@ok.example, spy@evil.example)',
    );
  });

  it('mailto: adds nothing when the text is the address, or names none', () => {
    equal(linkSuffix('[Help@OK.example](mailto:help@ok.example)').text, 'Help@OK.example');
    equal(linkSuffix('[write to us](mailto:help@ok.example)').text, 'write to us');
  });

  it('tel: names the number dialled when the text shows another', () => {
    const { text, href } = linkSuffix('[+1 (555) 010-0000](tel:+19005550199)');
    equal(href, 'tel:+19005550199');
    equal(text, '+1 (555) 010-0000 (+19005550199)');
    equal(linkSuffix('[＋１ ５５５ ０１０ ００００](tel:+19005550199)').text, '＋１ ５５５ ０１０ ００００ (+19005550199)');
  });

  it('tel: adds nothing when the text shows the number dialled, however grouped, or no number', () => {
    equal(linkSuffix('[+1 (900) 555-0199](tel:+1-900-555-0199)').text, '+1 (900) 555-0199');
    equal(linkSuffix('[call us](tel:+19005550199)').text, 'call us');
  });
});
