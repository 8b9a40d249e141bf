// dist/custom-elements.json (built from the elements' JSDoc by `npm run build`) against the
// elements' own sources, read with the TypeScript parser: every element class under src/chatbot-widget and src/chatbot-usage is
// in it with its tag name, and its attributes, properties, methods, events, parts and CSS custom
// properties are exactly those of the source. Editors, Storybook and framework tools read this
// file; a stale or hand-written entry would mislead them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const manifestFile = join(root, pkg.customElements);

interface Described {
  name: string;
  type?: { text: string };
  privacy?: string;
  static?: boolean;
  kind?: string;
  description?: string;
}
interface ElementDoc extends Described {
  tagName?: string;
  customElement?: boolean;
  attributes?: Array<Described & { fieldName?: string }>;
  members?: Described[];
  events?: Described[];
  cssParts?: Described[];
  cssProperties?: Described[];
}

const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? files(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
/** The browser side's sources: both elements, what they share, and the entries that register them. */
const browserSources = () => ['chatbot-widget', 'chatbot-usage', 'ui', 'browser'].flatMap((folder) => files(join(root, 'src', folder)));
const parse = (file: string) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
const hasModifier = (node: ts.Node, kind: ts.SyntaxKind) =>
  ts.canHaveModifiers(node) && !!ts.getModifiers(node)?.some((m) => m.kind === kind);
const isInternal = (node: ts.Node) => ts.getJSDocTags(node).some((tag) => tag.tagName.text === 'internal');
const sorted = (values: Iterable<string>) => [...new Set(values)].sort();

/** What the source of one element class declares. */
interface ElementSource {
  name: string;
  file: string;
  attributes: Map<string, string>;
  properties: string[];
  methods: string[];
}

/** The options of each entry of a class's `static properties` (Lit's reactive properties), by name. */
function reactiveProperties(node: ts.ClassDeclaration, source: ts.SourceFile): Map<string, ts.ObjectLiteralExpression> {
  const declared = node.members.find(
    (member): member is ts.PropertyDeclaration =>
      ts.isPropertyDeclaration(member) && hasModifier(member, ts.SyntaxKind.StaticKeyword) && member.name.getText(source) === 'properties',
  );
  const reactive = new Map<string, ts.ObjectLiteralExpression>();
  if (!declared?.initializer || !ts.isObjectLiteralExpression(declared.initializer)) return reactive;
  for (const entry of declared.initializer.properties) {
    if (ts.isPropertyAssignment(entry) && ts.isObjectLiteralExpression(entry.initializer))
      reactive.set(entry.name.getText(source), entry.initializer);
  }
  return reactive;
}

function readElement(file: string, node: ts.ClassDeclaration, source: ts.SourceFile): ElementSource {
  const attributes = new Map<string, string>();
  const properties: string[] = [];
  const methods: string[] = [];
  const reactive = reactiveProperties(node, source);
  for (const member of node.members) {
    const name = member.name && ts.isIdentifier(member.name) ? member.name.text : undefined;
    if (
      !name ||
      hasModifier(member, ts.SyntaxKind.PrivateKeyword) ||
      hasModifier(member, ts.SyntaxKind.ProtectedKeyword) ||
      hasModifier(member, ts.SyntaxKind.StaticKeyword)
    )
      continue;
    if (ts.isMethodDeclaration(member) && !hasModifier(member, ts.SyntaxKind.OverrideKeyword) && !isInternal(member)) methods.push(name);
    if (!ts.isPropertyDeclaration(member)) continue;
    const options = reactive.get(name);
    if (!options) continue;
    const option = (key: string) =>
      options.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText(source) === key)?.initializer;
    if (option('state')?.kind === ts.SyntaxKind.TrueKeyword) continue;
    properties.push(name);
    const attribute = option('attribute');
    if (attribute?.kind === ts.SyntaxKind.FalseKeyword) continue;
    // Lit's default attribute name is the property name in lower case.
    const attributeName = attribute && ts.isStringLiteral(attribute) ? attribute.text : name.toLowerCase();
    attributes.set(attributeName, member.type ? member.type.getText(source) : typeOfInitializer(member.initializer));
  }
  return { name: node.name!.text, file, attributes, properties, methods };
}

/** Every element class of the browser side (a class extending LitElement or another element), and the tag names the sources map to classes. */
function readSources() {
  const elements: ElementSource[] = [];
  const tags = new Map<string, string>();
  for (const file of browserSources()) {
    const source = parse(file);
    const visit = (node: ts.Node) => {
      if (
        ts.isClassDeclaration(node) &&
        node.name &&
        /\bextends\s+LitElement\b/.test(node.heritageClauses?.map((h) => h.getText(source)).join(' ') ?? '')
      ) {
        elements.push(readElement(file, node, source));
      }
      if (ts.isInterfaceDeclaration(node) && node.name.text === 'HTMLElementTagNameMap') {
        for (const member of node.members)
          if (ts.isPropertySignature(member) && member.type) tags.set(member.type.getText(source), (member.name as ts.StringLiteral).text);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { elements, tags };
}

/** The names and detail types of ChatbotEventMap in src/ui/events.ts. */
function eventMap(): Map<string, string> {
  const source = parse(join(root, 'src/ui/events.ts'));
  const map = new Map<string, string>();
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'ChatbotEventMap') {
      for (const member of node.members)
        if (ts.isPropertySignature(member) && member.type) map.set((member.name as ts.StringLiteral).text, member.type.getText(source));
    }
  });
  return map;
}

/** Part names, event names dispatched and --chatbot-* properties used in the sources of one element's folder. */
function folderUsage(folder: string) {
  const own = files(folder);
  // Styles shared between elements (theme tokens) count for every element whose styles import them.
  const shared = own.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/from '(\.\.\/[^']+\.styles)\.js'/g)].map((m) => join(dirname(file), `${m[1]}.ts`)),
  );
  const text = [...new Set([...own, ...shared])].map((file) => readFileSync(file, 'utf8')).join('\n');
  const staticParts = [...text.matchAll(/\bpart=["']([^"'$]+)["']/g)].flatMap((m) => m[1]!.trim().split(/\s+/));
  // Parts built in code, e.g. ['message', `message-${message.sender}`]: the names and fixed prefixes.
  const partPrefixes = [...text.matchAll(/`([a-z]+-)\$\{/g)].map((m) => m[1]!);
  const quoted = [...text.matchAll(/'([a-z]+(?:-[a-z]+)*)'/g)].map((m) => m[1]!);
  const cssProperties = [...text.matchAll(/var\((--chatbot-[a-z0-9-]+)/g)].map((m) => m[1]!);
  return { staticParts: sorted(staticParts), partPrefixes, quoted, cssProperties: sorted(cssProperties) };
}

/** Every `chatbot-…` string in the widget's sources that is not a tag name: the events it fires. */
function firedEvents(tagNames: Iterable<string>): string[] {
  const tags = new Set(tagNames);
  const names = browserSources().flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/'(chatbot-[a-z]+)'/g)].map((m) => m[1]!));
  return sorted(names.filter((name) => !tags.has(name)));
}

/** The type Lit's analyzer reports for a property without a type annotation. */
function typeOfInitializer(initializer: ts.Expression | undefined): string {
  if (!initializer) return 'undefined';
  if (ts.isStringLiteral(initializer) || ts.isNoSubstitutionTemplateLiteral(initializer)) return 'string';
  if (ts.isNumericLiteral(initializer)) return 'number';
  if (initializer.kind === ts.SyntaxKind.TrueKeyword || initializer.kind === ts.SyntaxKind.FalseKeyword) return 'boolean';
  return 'unknown';
}

test('package.json names the manifest, and the published files include it', () => {
  assert.equal(pkg.customElements, 'dist/custom-elements.json');
  assert.ok(
    pkg.files.some((entry: string) => pkg.customElements.startsWith(`${entry}/`)),
    'customElements is inside "files"',
  );
  assert.ok(existsSync(manifestFile), 'dist/custom-elements.json is missing: run `npm run build`');
});

test('the manifest describes every element class exactly as its source declares it', () => {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { modules: Array<{ path: string; declarations?: ElementDoc[] }> };
  const documented = manifest.modules.flatMap((module) =>
    (module.declarations ?? []).filter((d) => d.customElement).map((d) => ({ ...d, path: module.path })),
  );
  const { elements, tags } = readSources();
  assert.ok(
    elements.some((e) => e.name === 'ChatbotWidget'),
    'ChatbotWidget found in the sources',
  );
  assert.deepEqual(sorted(documented.map((d) => d.name)), sorted(elements.map((e) => e.name)), 'one manifest entry per element class');

  for (const element of elements) {
    const doc = documented.find((d) => d.name === element.name)!;
    const where = `${element.name} (${relative(root, element.file)})`;
    assert.equal(doc.tagName, tags.get(element.name), `${where}: tag name as in HTMLElementTagNameMap`);
    assert.equal(
      doc.path,
      relative(root, element.file)
        .replace(/^src\//, 'dist/lib/')
        .replace(/\.ts$/, '.js'),
      `${where}: points at the shipped module`,
    );

    assert.deepEqual(sorted((doc.attributes ?? []).map((a) => a.name)), sorted(element.attributes.keys()), `${where}: attributes`);
    for (const attribute of doc.attributes ?? []) {
      assert.equal(attribute.type?.text, element.attributes.get(attribute.name), `${where}: type of the ${attribute.name} attribute`);
      assert.ok(attribute.description, `${where}: the ${attribute.name} attribute is described`);
    }
    const publicMembers = (doc.members ?? []).filter((m) => !m.privacy || m.privacy === 'public');
    const fields = publicMembers.filter((m) => m.kind === 'field' && !m.static).map((m) => m.name);
    for (const property of element.properties) assert.ok(fields.includes(property), `${where}: property ${property}`);
    assert.deepEqual(
      sorted(publicMembers.filter((m) => m.kind === 'method' && !m.static).map((m) => m.name)),
      sorted(element.methods),
      `${where}: public methods`,
    );

    const usage = folderUsage(dirname(element.file));
    const documentedParts = (doc.cssParts ?? []).map((p) => p.name);
    for (const part of usage.staticParts)
      assert.ok(documentedParts.includes(part), `${where}: part "${part}" is rendered but not documented (@csspart)`);
    for (const part of documentedParts) {
      assert.ok(
        usage.staticParts.includes(part) || usage.quoted.includes(part) || usage.partPrefixes.some((prefix) => part.startsWith(prefix)),
        `${where}: part "${part}" is documented but never rendered`,
      );
    }
    assert.deepEqual(
      sorted((doc.cssProperties ?? []).map((p) => p.name)),
      usage.cssProperties,
      `${where}: CSS custom properties (@cssprop) against var(--chatbot-*) in its styles`,
    );
    for (const described of [...(doc.cssParts ?? []), ...(doc.cssProperties ?? []), ...(doc.events ?? [])])
      assert.ok(described.description, `${where}: ${described.name} is described`);
  }
});

test('the events of <chatbot-widget> in the manifest are those of ChatbotEventMap, with their detail types, and cover every event the widget fires', () => {
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as { modules: Array<{ declarations?: ElementDoc[] }> };
  const widget = manifest.modules.flatMap((m) => m.declarations ?? []).find((d) => d.name === 'ChatbotWidget')!;
  const map = eventMap();
  assert.deepEqual(sorted((widget.events ?? []).map((e) => e.name)), sorted(map.keys()));
  for (const event of widget.events ?? []) assert.equal(event.type?.text, map.get(event.name), `type of ${event.name}`);
  for (const fired of firedEvents(readSources().tags.values()))
    assert.ok(map.has(fired), `${fired} is fired but missing from ChatbotEventMap`);
});

test('the template typings of <chatbot-widget> name exactly its attributes and properties', () => {
  const { elements } = readSources();
  const widget = elements.find((e) => e.name === 'ChatbotWidget')!;
  const source = parse(join(root, 'src/browser/template-types.ts'));
  let attributes: string[] = [];
  let properties: string[] = [];
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === 'ChatbotWidgetAttributes') {
      attributes = node.members.map((member) => (member.name as ts.Identifier | ts.StringLiteral).text);
    }
    if (ts.isTypeAliasDeclaration(node) && node.name.text === 'ChatbotWidgetProperties') {
      properties = [...node.type.getText(source).matchAll(/'([A-Za-z]+)'/g)].map((m) => m[1]!);
    }
  });
  assert.deepEqual(sorted(attributes), sorted(widget.attributes.keys()), 'ChatbotWidgetAttributes');
  assert.deepEqual(sorted(properties), sorted(widget.properties), 'ChatbotWidgetProperties');
});
