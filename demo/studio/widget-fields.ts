/**
 * The studio's form comes from the package's Custom Elements Manifest (custom-elements.json):
 * every attribute and writable public property of <chatbot-widget>, with its type, description
 * and default, and every `--chatbot-*` custom property. An attribute added to the element appears
 * in the studio at the next build, with no list here to keep in step. Pure: no DOM.
 */

export type FieldKind = 'text' | 'url' | 'number' | 'boolean' | 'choice' | 'list' | 'json';

export interface WidgetField {
  /** Property name (`pageSize`). */
  name: string;
  /** Attribute name (`page-size`), absent for a property without one (`strings`). */
  attribute?: string;
  kind: FieldKind;
  /** The choices of a union of string literals (`'light' | 'dark' | 'auto'`). */
  options: string[];
  type: string;
  description: string;
  /** The default as the manifest writes it (`'floating'`, `20`, `[]`). */
  default: string;
}

export interface StyleField {
  name: string;
  description: string;
  default: string;
  kind: 'colour' | 'font' | 'length' | 'number';
}

interface ManifestMember {
  kind?: string;
  name: string;
  privacy?: string;
  static?: boolean;
  readonly?: boolean;
  attribute?: string;
  type?: { text?: string };
  description?: string;
  default?: string;
}
interface ManifestDeclaration {
  tagName?: string;
  customElement?: boolean;
  members?: ManifestMember[];
  attributes?: { name: string; fieldName?: string; type?: { text?: string }; description?: string; default?: string }[];
  cssProperties?: { name: string; description?: string; default?: string }[];
}
export interface Manifest {
  modules: { declarations?: ManifestDeclaration[] }[];
}

function declarationOf(manifest: Manifest, tagName: string): ManifestDeclaration {
  for (const module of manifest.modules) {
    for (const declaration of module.declarations ?? []) if (declaration.tagName === tagName) return declaration;
  }
  throw new Error(`custom-elements.json has no <${tagName}>: run npm run build`);
}

/** `'light' | 'dark'` → ['light', 'dark']; anything else → undefined. */
function literalUnion(type: string): string[] | undefined {
  const options = type.split('|').map((part) => /^\s*'([^']*)'\s*$/.exec(part)?.[1]);
  return options.every((option) => option !== undefined) ? (options as string[]) : undefined;
}

function kindOf(name: string, type: string): Pick<WidgetField, 'kind' | 'options'> {
  const options = literalUnion(type);
  if (options) return { kind: 'choice', options };
  // The handler's address: checked as a URL, not any text.
  if (name === 'endpoint') return { kind: 'url', options: [] };
  if (type === 'boolean') return { kind: 'boolean', options: [] };
  if (type === 'number') return { kind: 'number', options: [] };
  if (type === 'string') return { kind: 'text', options: [] };
  if (type === 'string[]') return { kind: 'list', options: [] };
  return { kind: 'json', options: [] };
}

/** The element's attributes, then its writable properties that have none (`strings`). */
export function widgetFields(manifest: Manifest, tagName = 'chatbot-widget'): WidgetField[] {
  const declaration = declarationOf(manifest, tagName);
  const fields: WidgetField[] = [];
  for (const attribute of declaration.attributes ?? []) {
    const type = attribute.type?.text ?? 'string';
    fields.push({
      name: attribute.fieldName ?? attribute.name,
      attribute: attribute.name,
      ...kindOf(attribute.fieldName ?? attribute.name, type),
      type,
      description: attribute.description ?? '',
      default: attribute.default ?? '',
    });
  }
  const withAttribute = new Set(fields.map((field) => field.name));
  for (const member of declaration.members ?? []) {
    const isProperty = member.kind === 'field' && !member.static && !member.readonly && (member.privacy ?? 'public') === 'public';
    if (!isProperty || withAttribute.has(member.name) || member.name.startsWith('_')) continue;
    const type = member.type?.text ?? 'unknown';
    fields.push({
      name: member.name,
      ...kindOf(member.name, type),
      type,
      description: member.description ?? '',
      default: member.default ?? '',
    });
  }
  return fields;
}

/** The `--chatbot-*` custom properties, each with the kind of value it takes. */
export function styleFields(manifest: Manifest, tagName = 'chatbot-widget'): StyleField[] {
  return (declarationOf(manifest, tagName).cssProperties ?? []).map((property) => ({
    name: property.name,
    description: property.description ?? '',
    default: property.default ?? '',
    kind: styleKind(property.name, property.default ?? ''),
  }));
}

function styleKind(name: string, defaultValue: string): StyleField['kind'] {
  if (name.endsWith('-font')) return 'font';
  if (/^-?\d+(\.\d+)?(px|em|rem|%)$/.test(defaultValue)) return 'length';
  if (/^\d+$/.test(defaultValue)) return 'number';
  return 'colour';
}

/** A manifest default as a form shows it: `'floating'` → floating, `''` → nothing. */
export function defaultText(field: WidgetField): string {
  const quoted = /^'(.*)'$/.exec(field.default);
  return quoted ? quoted[1]! : field.default;
}
