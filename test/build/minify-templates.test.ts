// The build's minifier of Lit templates (scripts/minify-templates.ts): whitespace that shows, or
// that the browser reads as a separator, stays; indentation goes. The browser tests run the widget
// through the same minifier (web-test-runner.config.mjs), so its templates are checked there too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { minifyCss, minifyHtml, minifyTemplates } from '../../scripts/minify-templates.js';

test('html: indentation between tags becomes one line break; spaces within a line stay', () => {
  assert.deepEqual(minifyHtml(['\n      <p>\n        <b>a</b> <i>b</i>\n      </p>\n    ']), ['\n<p>\n<b>a</b> <i>b</i>\n</p>\n']);
  assert.deepEqual(minifyHtml(['<span>', '  and  ', '</span>']), ['<span>', '  and  ', '</span>']);
});

test('html: whitespace between attributes becomes one space, none before > or />', () => {
  assert.deepEqual(minifyHtml(['<button\n    part="x"\n    type="button"\n    @click=', '\n  >go</button><br\n />']), [
    '<button part=x type=button @click=',
    '>go</button><br/>',
  ]);
  // A binding in a tag stays apart from the attributes around it.
  assert.deepEqual(minifyHtml(['<a href=', '\n   target="_blank">x</a>']), ['<a href=', ' target=_blank>x</a>']);
});

test('html: a quoted value of letters, digits, _ and - loses its quotes, unless / or ${} would join it', () => {
  assert.deepEqual(minifyHtml(['<rect rx="2" ry=\'3\'/><p class="a-b" role="status">t</p>']), [
    "<rect rx=2 ry='3'/><p class=a-b role=status>t</p>",
  ]);
  assert.deepEqual(minifyHtml(['<rect rx="2" />']), ['<rect rx="2"/>']);
  // Before a binding (the part ends) the quotes stay; so do values with other characters.
  assert.deepEqual(minifyHtml(['<p a="b"', '>x</p>']), ['<p a="b"', '>x</p>']);
  assert.deepEqual(minifyHtml(['<p a="b" ', ' c="d e" f="g.h" i="">x</p>']), ['<p a=b ', ' c="d e" f="g.h" i="">x</p>']);
});

test('html: quoted values, comments and <pre>/<textarea> text are kept as written', () => {
  const kept = ['<p title="a\n   b" class="x  ', '  y">t</p><!--  a\n   b  --><pre>  a\n    b  ', '\n  </pre><textarea>\n  x\n</textarea>'];
  assert.deepEqual(minifyHtml(kept), kept);
});

test('css: whitespace around punctuation and comments go; spaces between values stay', () => {
  assert.deepEqual(minifyCss(['\n  :host([a]) .b > c,\n  d {\n    margin: 0 auto;\n    /* why */\n    font: 12px/1 a, "b  c";\n  }\n']), [
    ':host([a]) .b>c,d{margin:0 auto;font:12px/1 a,"b  c"}',
  ]);
  // The space before a pseudo-class is a descendant combinator: kept.
  assert.deepEqual(minifyCss([':host :focus-visible {\n  color: red !important;\n}']), [':host :focus-visible{color:red!important}']);
  assert.deepEqual(minifyCss(['a { width: calc(100% - 2 * var(--x)); }']), ['a{width:calc(100% - 2 * var(--x))}']);
});

test('css: an attribute selector whose value is an identifier loses its quotes; other strings stay as written', () => {
  assert.deepEqual(minifyCss(["[part='input'], [aria-pressed=\"true\"] a, [part~='message-bot'] { content: 'x' }"]), [
    "[part=input],[aria-pressed=true] a,[part~=message-bot]{content:'x'}",
  ]);
  // Not identifiers: a digit first, a space, a dot, an empty value; and a string not in a selector.
  assert.deepEqual(minifyCss(["[a='1x'],[a='b c'],[a='b.c'],[a=''] { content: '=' } b { content: 'ok' }"]), [
    "[a='1x'],[a='b c'],[a='b.c'],[a='']{content:'='}b{content:'ok'}",
  ]);
});

test('css: an interpolation stays apart from its neighbours; a ; before it is kept', () => {
  assert.deepEqual(minifyCss(['\n  ', '\n  a {\n    ', '\n  }\n  b { c: d; }\n  ', '\n']), ['', ' a{', '}b{c:d}', '']);
  assert.deepEqual(minifyCss(['a { b: c; ', ' d: e; }']), ['a{b:c;', ' d:e}']);
});

test('minifyTemplates rewrites only templates tagged with the html, svg or css imported from Lit', () => {
  const source = [
    "import { html as h, css } from 'lit';",
    "const note = '😀 ' + `  kept  `;",
    'const s = css`\n  a {\n    b: c;\n  }\n`;',
    'const t = h`\n  <p>\n    ${h`<b\n  >x</b>`}\n  </p>\n`;',
    'function html(s: TemplateStringsArray) { return s; }',
  ].join('\n');
  const out = minifyTemplates(source, 'x.ts')!;
  assert.ok(out.includes("const note = '😀 ' + `  kept  `;"));
  assert.match(out, /const s = css`a\{b:c\}`;/);
  assert.match(out, /const t = h`\n<p>\n\$\{h`<b>x<\/b>`\}\n<\/p>\n`;/);
  // A local `html` is not Lit's: left alone.
  assert.equal(minifyTemplates('const html = (s: TemplateStringsArray) => s;\nhtml`\n  <p>\n  </p>`;', 'y.ts'), undefined);
});
