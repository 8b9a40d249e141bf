// @web/test-runner-visual-regression 0.10 ships its browser API's types as browser/commands.d.ts
// beside commands.mjs, which TypeScript does not pair with the .mjs its index.d.ts names; this
// declares that one function as the package documents it.
declare module '@web/test-runner-visual-regression' {
  /** Screenshots `element` and compares it with the approved baseline named `name`; rejects on a difference. */
  export function visualDiff(element: Node, name: string): Promise<void>;
}
