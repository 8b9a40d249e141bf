// The Custom Elements Manifest (dist/custom-elements.json, named by "customElements" in
// package.json): every element class under src/chatbot-widget and src/chatbot-usage, read from its Lit `static properties` and
// JSDoc (@fires, @csspart, @cssprop, @tagname). Run by `npm run build`; test/custom-elements.test.ts
// checks it against the elements' sources.

/** Points the manifest at the shipped files (dist/lib/…/*.js) instead of the TypeScript sources. */
function shippedPaths() {
  const shipped = (path) => path.replace(/^src\//, 'dist/lib/').replace(/\.ts$/, '.js');
  return {
    name: 'chatbot-widget-shipped-paths',
    packageLinkPhase({ customElementsManifest }) {
      for (const module of customElementsManifest.modules) {
        module.path = shipped(module.path);
        // The unnamed subclass registerChatbotWidget defines for a second tag name is the same
        // element, not one of its own.
        const anonymous = (name) => /^anonymous_\d+$/.test(name ?? '');
        module.declarations = (module.declarations ?? []).filter((declaration) => !anonymous(declaration.name));
        module.exports = (module.exports ?? []).filter((entry) => !anonymous(entry.declaration?.name));
        for (const declaration of module.declarations ?? []) {
          // Events the analyzer found only in code whose name it could not read (a computed name).
          if (declaration.events) declaration.events = declaration.events.filter((event) => event.name);
          // The analyzer reads every entry of `static properties` as an attribute, the element's
          // own state (`state: true`, private fields) too; that state has none.
          const state = new Set((declaration.members ?? []).filter((member) => member.privacy === 'private').map((member) => member.name));
          for (const member of declaration.members ?? []) if (state.has(member.name)) delete member.attribute;
          if (declaration.attributes)
            declaration.attributes = declaration.attributes.filter((attribute) => !state.has(attribute.fieldName));
        }
        for (const entry of module.exports ?? []) {
          if (entry.declaration?.module) entry.declaration.module = shipped(entry.declaration.module);
        }
      }
    },
  };
}

export default {
  globs: ['src/chatbot-widget/**/*.ts', 'src/chatbot-usage/**/*.ts'],
  exclude: ['src/chatbot-widget/**/*.styles.ts', 'src/chatbot-usage/**/*.styles.ts'],
  outdir: 'dist',
  litelement: true,
  packagejson: false,
  plugins: [shippedPaths()],
};
