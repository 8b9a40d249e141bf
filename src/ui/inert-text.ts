/**
 * Text from outside the widget's own code (the network, IndexedDB, the host page's `strings`) is
 * typed as a string but not guaranteed to be one. IndexedDB in particular returns whatever was
 * stored, through the structured clone algorithm, which keeps an array's own extra properties:
 * it can hand back an object shaped like a Lit template result (`{ _$litType$, strings: […]
 * with a `raw` property }`), the one thing Lit's escaping bindings would render as HTML (Lit's
 * own guard against such objects assumes JSON, which cannot make an array with `raw`). Every
 * untrusted value goes through {@link inertText} before it reaches a template.
 */

/** A string as it is, a number or boolean as its text, anything else (objects, null) as ''. */
export function inertText(value: unknown): string {
  if (typeof value === 'string') return value;
  return typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
}
