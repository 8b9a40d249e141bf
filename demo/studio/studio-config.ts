/**
 * What a site owner chose in the studio, and how it travels in the page's address: the fragment
 * (`#heading=Help&theme=dark&--chatbot-accent=%230f766e&recipe=square-launcher`), which browsers
 * never send to a server, so a shared link carries the whole configuration. Pure: no DOM.
 */
import type { WidgetField } from './widget-fields.js';

/** A value as the element's property takes it. */
export type FieldValue = string | number | boolean | string[];

export interface StudioConfig {
  /** Attributes by attribute name (`page-size`); left out while at their default. */
  attributes: Record<string, FieldValue>;
  /** Members that have no attribute (`strings`), by property name, as parsed JSON. */
  properties: Record<string, unknown>;
  /** `--chatbot-*` custom properties. */
  styles: Record<string, string>;
  /** `::part()` recipes switched on, by id (recipes.ts). */
  recipes: string[];
}

export const emptyConfig = (): StudioConfig => ({ attributes: {}, properties: {}, styles: {}, recipes: [] });

/** The attribute's text for a value: what a page would write in the markup. */
export function attributeText(value: FieldValue): string {
  if (Array.isArray(value)) return JSON.stringify(value);
  return String(value);
}

/** The configuration as the fragment of a shareable link (without the `#`). */
export function configToHash(config: StudioConfig): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(config.attributes)) {
    if (value === false) continue;
    params.append(name, value === true ? '' : attributeText(value));
  }
  for (const [name, value] of Object.entries(config.properties)) params.append(`.${name}`, JSON.stringify(value));
  for (const [name, value] of Object.entries(config.styles)) params.append(name, value);
  for (const recipe of config.recipes) params.append('recipe', recipe);
  return params.toString();
}

/**
 * The configuration a link's fragment holds, read through the element's own fields (so a value
 * is typed as the element takes it). What does not parse, or names no field, is left out and
 * named in `problems`: a hand-edited link restores what it can.
 */
export function configFromHash(hash: string, fields: readonly WidgetField[]): { config: StudioConfig; problems: string[] } {
  const config = emptyConfig();
  const problems: string[] = [];
  const byAttribute = new Map(fields.filter((f) => f.attribute).map((f) => [f.attribute!, f]));
  const byProperty = new Map(fields.filter((f) => !f.attribute).map((f) => [f.name, f]));
  for (const [key, text] of new URLSearchParams(hash.replace(/^#/, ''))) {
    if (key === 'recipe') {
      config.recipes.push(text);
    } else if (key.startsWith('--chatbot-')) {
      config.styles[key] = text;
    } else if (key.startsWith('.')) {
      const field = byProperty.get(key.slice(1));
      const parsed = field ? parseFieldText(field, text) : undefined;
      if (field && parsed?.ok) config.properties[field.name] = parsed.value;
      else problems.push(key.slice(1));
    } else {
      const field = byAttribute.get(key);
      const parsed = field ? parseFieldText(field, field.kind === 'boolean' ? 'true' : text) : undefined;
      if (field && parsed?.ok) config.attributes[key] = parsed.value as FieldValue;
      else problems.push(key);
    }
  }
  return { config, problems };
}

export type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/** Reads a field's text as the element would take it, or says what is wrong with it. */
export function parseFieldText(field: WidgetField, text: string): Parsed {
  switch (field.kind) {
    case 'boolean':
      return { ok: true, value: text === 'true' };
    case 'number': {
      const value = Number(text);
      return text.trim() !== '' && Number.isFinite(value) ? { ok: true, value } : { ok: false, message: 'Enter a number.' };
    }
    case 'choice':
      return field.options.includes(text) ? { ok: true, value: text } : { ok: false, message: `One of ${field.options.join(', ')}.` };
    case 'list':
      return parseJson(text, (value) =>
        Array.isArray(value) && value.every((item) => typeof item === 'string') ? undefined : 'A JSON array of strings, e.g. ["Pricing?"].',
      );
    case 'json':
      return parseJson(text, (value) =>
        value !== null && typeof value === 'object' && !Array.isArray(value) ? undefined : 'A JSON object, e.g. {"send": "Ask"}.',
      );
    case 'url':
      return isEndpoint(text) ? { ok: true, value: text } : { ok: false, message: 'A path on this site (/chatbot) or an http(s) URL.' };
    case 'text':
      return { ok: true, value: text };
  }
}

function parseJson(text: string, shapeProblem: (value: unknown) => string | undefined): Parsed {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `Not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const problem = shapeProblem(value);
  return problem ? { ok: false, message: problem } : { ok: true, value };
}

/** A handler's base path on this site (`/chatbot`) or an absolute http(s) URL. */
export function isEndpoint(text: string): boolean {
  if (/^\/(?!\/)\S*$/.test(text)) return true;
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
