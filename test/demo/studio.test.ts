// The studio's pure parts (demo/studio/): the form's fields from the Custom Elements Manifest,
// the configuration in a link, WCAG contrast, and the snippets' escaping and CSP hash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { contrastRatio, parseHex, relativeLuminance } from '../../demo/studio/contrast.js';
import { configFromHash, configToHash, emptyConfig, type StudioConfig } from '../../demo/studio/studio-config.js';
import { styleFields, widgetFields, type Manifest } from '../../demo/studio/widget-fields.js';
import {
  allSnippets,
  cspHeader,
  reactSnippet,
  scriptTagSnippet,
  svelteSnippet,
  vueSnippet,
  widgetStylesheet,
} from '../../demo/studio/snippets.js';

const manifest = JSON.parse(readFileSync(fileURLToPath(new URL('../../dist/custom-elements.json', import.meta.url)), 'utf8')) as Manifest;
const context = { origin: 'https://help.example.com' };

test('the form has a field for every attribute and writable property of <chatbot-widget>, and one that lands in the manifest appears', () => {
  const fields = widgetFields(manifest);
  const declaration = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'chatbot-widget')!;
  assert.deepEqual(
    fields.filter((f) => f.attribute).map((f) => f.attribute),
    declaration.attributes!.map((a) => a.name),
  );
  assert.ok(
    fields.some((f) => f.name === 'strings' && !f.attribute && f.kind === 'json'),
    'strings, a property without attribute',
  );
  assert.ok(!fields.some((f) => f.name === 'text'), 'read-only members are not fields');
  assert.deepEqual(fields.find((f) => f.attribute === 'theme')?.options, ['light', 'dark', 'auto']);
  assert.equal(fields.find((f) => f.attribute === 'endpoint')?.kind, 'url');
  assert.equal(fields.find((f) => f.attribute === 'suggestions')?.kind, 'list');
  // An attribute the element gains (credentials) is a field at the next build, with no list to edit.
  const grown = structuredClone(manifest);
  const widget = grown.modules.flatMap((m) => m.declarations ?? []).find((d) => d.tagName === 'chatbot-widget')!;
  widget.attributes!.push({
    name: 'credentials',
    fieldName: 'credentials',
    type: { text: "'same-origin' | 'include'" },
    default: "'same-origin'",
  });
  assert.deepEqual(widgetFields(grown).find((f) => f.attribute === 'credentials')?.options, ['same-origin', 'include']);
  assert.ok(styleFields(manifest).some((f) => f.name === '--chatbot-accent' && f.kind === 'colour'));
  assert.equal(styleFields(manifest).find((f) => f.name === '--chatbot-radius')?.kind, 'length');
  assert.equal(styleFields(manifest).find((f) => f.name === '--chatbot-font')?.kind, 'font');
});

test('a configuration survives its link, typed as the element takes it; what does not parse is named', () => {
  const fields = widgetFields(manifest);
  const config: StudioConfig = {
    attributes: { heading: 'Ask & "us"', open: true, 'page-size': 10, suggestions: ['A?', 'B & C'], theme: 'dark' },
    properties: { strings: { send: 'Go' } },
    styles: { '--chatbot-accent': '#0f766e' },
    recipes: ['square-launcher'],
  };
  assert.deepEqual(configFromHash(configToHash(config), fields), { config, problems: [] });
  const bad = configFromHash('theme=purple&page-size=lots&suggestions=[1&nope=1&heading=ok', fields);
  assert.deepEqual(bad.config.attributes, { heading: 'ok' });
  assert.deepEqual(bad.problems, ['theme', 'page-size', 'suggestions', 'nope']);
});

test('WCAG contrast from relative luminance', () => {
  assert.equal(relativeLuminance([255, 255, 255]), 1);
  assert.equal(relativeLuminance([0, 0, 0]), 0);
  assert.equal(contrastRatio([0, 0, 0], [255, 255, 255]), 21);
  // #777777 on white is the well-known near miss: 4.48:1.
  assert.equal(contrastRatio(parseHex('#777')!, parseHex('#ffffff')!).toFixed(2), '4.48');
  // The widget's own default pairs pass AA.
  assert.ok(contrastRatio(parseHex('#ffffff')!, parseHex('#1d4ed8')!) >= 4.5);
  assert.ok(contrastRatio(parseHex('#4b5563')!, parseHex('#ffffff')!) >= 4.5);
  assert.equal(parseHex('teal'), undefined);
});

test('user text in a snippet stays inside its attribute or string; unsafe style values are left out', async () => {
  const hostile = '"></chatbot-widget><script>alert(1)</script>';
  const config: StudioConfig = {
    ...emptyConfig(),
    attributes: { heading: hostile, suggestions: ['</script><b>', "it's"] },
    properties: { strings: { send: '--></x>' } },
    styles: { '--chatbot-accent': 'red; } body { display: none', '--chatbot-radius': '4px' },
  };
  const html = scriptTagSnippet(config, context);
  assert.doesNotMatch(html, /<script>alert|<\/script><b>|display: none|--><\/x>/);
  assert.match(html, /heading='"&gt;&lt;\/chatbot-widget&gt;&lt;script&gt;alert\(1\)&lt;\/script&gt;'/);
  assert.match(html, /suggestions="\[&quot;&lt;\/script&gt;&lt;b&gt;&quot;,&quot;it's&quot;\]"/);
  assert.equal(widgetStylesheet(config), 'chatbot-widget {\n  --chatbot-radius: 4px;\n}');
  for (const text of [reactSnippet(config), vueSnippet(config), svelteSnippet(config)]) {
    assert.doesNotMatch(text, /<\/script><b>|<script>alert/, text);
  }
  assert.match(reactSnippet(config), /suggestions=\{\["\\u003c\/script>\\u003cb>","it's"\]\}/);
});

test("the CSP line names the snippet's <style> by its SHA-256, and no 'unsafe-inline'", async () => {
  const config: StudioConfig = { ...emptyConfig(), styles: { '--chatbot-accent': '#0f766e' }, recipes: ['brand-header'] };
  const style = /<style>([\s\S]*)<\/style>/.exec(scriptTagSnippet(config, context))![1]!;
  const hash = createHash('sha256').update(style).digest('base64');
  const line = await cspHeader(config, context);
  assert.ok(line.includes(`style-src 'self' 'sha256-${hash}'`), line);
  assert.doesNotMatch(line, /unsafe/);
  assert.match(line, /trusted-types lit-html chatbot-widget$/);
  assert.match(line, /connect-src 'self' https:\/\/help\.example\.com/);
  const ids = (await allSnippets(config, context)).map((s) => s.id);
  assert.deepEqual(ids, ['html', 'react', 'css', 'vue', 'svelte', 'express', 'nextjs', 'workers', 'deno', 'bun', 'csp']);
});
