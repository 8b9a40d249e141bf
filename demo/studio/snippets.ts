/**
 * The studio's snippets: a widget configuration as the text a site owner pastes, for a plain page
 * (script tag and element), React (`chatbot-widget/react`), Vue and Svelte, the matching handler
 * for each runtime (handler-snippets.ts), and the Content-Security-Policy header line. Pure
 * functions of the configuration, so what the studio shows is what the tests build and run.
 * User text only ever lands inside escaped attribute values or JSON string literals.
 */
import { attributeText, type FieldValue, type StudioConfig } from './studio-config.js';
import { recipeById } from './recipes.js';
import { HANDLER_RUNTIMES, handlerBasePath, handlerSnippet } from './handler-snippets.js';

export { handlerSnippet, handlerBasePath, HANDLER_RUNTIMES };
export type { HandlerRuntime } from './handler-snippets.js';

export interface SnippetContext {
  /** Origin of the server the studio runs on: it serves chatbot-widget.js and the handler. */
  origin: string;
}

export interface Snippet {
  id: string;
  label: string;
  /** The file it goes in, where one is meant. */
  file?: string;
  text: string;
}

/**
 * A custom property value the snippets may carry: no character that could end the declaration,
 * the rule or a `<style>` element. The studio checks values with the browser's CSS parser first;
 * this keeps a hand-edited link from writing anything else into a snippet.
 */
export const isSafeStyleValue = (value: string) => value.trim() !== '' && !/[{};<>\\@]|\/\*/.test(value);

/** The configuration's stylesheet: custom properties, then the recipes; '' when it has none. */
export function widgetStylesheet(config: StudioConfig, host = 'chatbot-widget'): string {
  const declarations = Object.entries(config.styles)
    .filter(([name, value]) => /^--chatbot-[a-z-]+$/.test(name) && isSafeStyleValue(value))
    .map(([name, value]) => `  ${name}: ${value.trim()};`);
  const rules = declarations.length ? [`${host} {\n${declarations.join('\n')}\n}`] : [];
  for (const id of config.recipes) {
    const recipe = recipeById(id);
    if (recipe) rules.push(recipe.css(host));
  }
  return rules.join('\n');
}

const camelCase = (attribute: string) => attribute.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** JSON for a code context (a `<script>` of a component file): `<` escaped, so no `</script>` can end it. */
const codeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** `name="value"` for HTML and Vue templates: single quotes around JSON, entities for the rest. */
function htmlAttribute(name: string, value: FieldValue): string {
  if (value === true) return name;
  const text = attributeText(value).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (text.includes('"') && !text.includes("'")) return `${name}='${text}'`;
  return `${name}="${text.replace(/"/g, '&quot;')}"`;
}

/** The attributes as written, in the element's order; `endpoint` always (the widget needs it). */
function attributesOf(config: StudioConfig, endpoint: string): [string, FieldValue][] {
  const rest = Object.entries(config.attributes).filter(([name, value]) => name !== 'endpoint' && value !== false && value !== '');
  return [['endpoint', endpoint], ...rest];
}

const endpointOr = (config: StudioConfig, fallback: string) =>
  typeof config.attributes.endpoint === 'string' && config.attributes.endpoint ? config.attributes.endpoint : fallback;

/** A plain page: the script tag, the stylesheet (when there is one) and the element. */
export function scriptTagSnippet(config: StudioConfig, context: SnippetContext): string {
  const lines = [`<script type="module" src="${context.origin}/chatbot-widget.js"></script>`];
  const stylesheet = widgetStylesheet(config);
  if (stylesheet) lines.push(`<style>\n${stylesheet}\n</style>`);
  const attributes = attributesOf(config, endpointOr(config, `${context.origin}/chatbot`)).map(([name, value]) =>
    htmlAttribute(name, value),
  );
  lines.push(`<chatbot-widget ${attributes.join(' ')}></chatbot-widget>`);
  for (const [name, value] of Object.entries(config.properties)) {
    // A property has no attribute: a script of the page's own sets it (an inline one would be refused under a strict CSP).
    const set = `document.querySelector('chatbot-widget').${name} = ${JSON.stringify(value)};`;
    lines.push(`<!-- In a script of your own: ${set.replace(/--/g, '-\\u002d').replace(/>/g, '\\u003e')} -->`);
  }
  return lines.join('\n') + '\n';
}

/** A React component on `chatbot-widget/react` (properties set as properties, React 18 and 19). */
export function reactSnippet(config: StudioConfig): string {
  const props = attributesOf(config, endpointOr(config, '/chatbot')).map(([name, value]) => {
    const prop = camelCase(name);
    if (value === true) return prop;
    if (typeof value === 'string' && /^[^"{}<>&\\]*$/.test(value)) return `${prop}="${value}"`;
    return `${prop}={${codeJson(value)}}`;
  });
  for (const [name, value] of Object.entries(config.properties)) props.push(`${name}={${codeJson(value)}}`);
  const css = widgetStylesheet(config) ? "import './chatbot-widget.css';\n" : '';
  return `import { ChatbotWidget } from 'chatbot-widget/react';
${css}
export function Chat() {
  return <ChatbotWidget ${props.join(' ')} />;
}
`;
}

/** A Vue single-file component; values that are not text are bound from its script. */
export function vueSnippet(config: StudioConfig): string {
  const constants: string[] = [];
  const attributes = attributesOf(config, endpointOr(config, '/chatbot')).map(([name, value]) => {
    if (typeof value === 'string') return htmlAttribute(name, value);
    constants.push(`const ${camelCase(name)} = ${codeJson(value)};`);
    return `:${name}="${camelCase(name)}"`;
  });
  for (const [name, value] of Object.entries(config.properties)) {
    constants.push(`const ${name} = ${codeJson(value)};`);
    attributes.push(`:${name}="${name}"`);
  }
  const stylesheet = widgetStylesheet(config);
  return `<script setup lang="ts">
import 'chatbot-widget/vue';
${constants.join('\n')}
</script>

<template>
  <chatbot-widget ${attributes.join(' ')} />
</template>
${stylesheet ? `\n<style>\n${stylesheet}\n</style>\n` : ''}`;
}

/** A Svelte component; its styles are global, since the element is not the component's own markup. */
export function svelteSnippet(config: StudioConfig): string {
  const attributes = attributesOf(config, endpointOr(config, '/chatbot')).map(([name, value]) => {
    if (typeof value === 'string' && /^[^"{}<>&\\]*$/.test(value)) return `${name}="${value}"`;
    // Svelte sets a name the element has as a property: `suggestions={[…]}`, `open={true}`.
    return `${typeof value === 'string' ? name : camelCase(name)}={${codeJson(value)}}`;
  });
  for (const [name, value] of Object.entries(config.properties)) attributes.push(`${name}={${codeJson(value)}}`);
  const stylesheet = widgetStylesheet(config, ':global(chatbot-widget)').replace(
    /:global\(chatbot-widget\)(::part\([a-z-]+\))/g,
    ':global(chatbot-widget$1)',
  );
  return `<script lang="ts">
  import 'chatbot-widget/svelte';
</script>

<chatbot-widget ${attributes.join(' ')}></chatbot-widget>
${stylesheet ? `\n<style>\n${stylesheet}\n</style>\n` : ''}`;
}

async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...digest));
}

const originOf = (url: string) => (/^https?:/.test(url) ? new URL(url).origin : undefined);

/**
 * The Content-Security-Policy line for a page with the script-tag snippet: the widget's own
 * Trusted Types policies, the widget's and the handler's origins, and the snippet's `<style>` by
 * its hash (so no 'unsafe-inline').
 */
export async function cspHeader(config: StudioConfig, context: SnippetContext): Promise<string> {
  const stylesheet = widgetStylesheet(config);
  const styleHash = stylesheet ? ` 'sha256-${await sha256Base64(`\n${stylesheet}\n`)}'` : '';
  const handlerOrigin = originOf(endpointOr(config, `${context.origin}/chatbot`));
  return [
    `Content-Security-Policy: default-src 'self'`,
    `script-src 'self' ${context.origin}`,
    `style-src 'self'${styleHash}`,
    `connect-src 'self'${handlerOrigin ? ` ${handlerOrigin}` : ''}`,
    `require-trusted-types-for 'script'`,
    'trusted-types lit-html chatbot-widget',
  ].join('; ');
}

/** Every snippet for a configuration, in the order the studio shows them. */
export async function allSnippets(config: StudioConfig, context: SnippetContext): Promise<Snippet[]> {
  const stylesheet = widgetStylesheet(config);
  return [
    { id: 'html', label: 'Script tag', text: scriptTagSnippet(config, context) },
    { id: 'react', label: 'React', file: 'Chat.tsx', text: reactSnippet(config) },
    ...(stylesheet ? [{ id: 'css', label: 'React stylesheet', file: 'chatbot-widget.css', text: `${stylesheet}\n` }] : []),
    { id: 'vue', label: 'Vue', file: 'Chat.vue', text: vueSnippet(config) },
    { id: 'svelte', label: 'Svelte', file: 'Chat.svelte', text: svelteSnippet(config) },
    ...HANDLER_RUNTIMES.map((runtime) => ({
      id: runtime.id,
      label: `Handler: ${runtime.label}`,
      file: runtime.id === 'nextjs' ? runtime.file.replace('/chatbot/', `${handlerBasePath(config)}/`) : runtime.file,
      text: handlerSnippet(runtime.id, config),
    })),
    { id: 'csp', label: 'CSP header', text: `${await cspHeader(config, context)}\n` },
  ];
}
