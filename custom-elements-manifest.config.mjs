// The Custom Elements Manifest (dist/custom-elements.json, named by "customElements" in
// package.json): every element class under src/widget, read from its Lit decorators and JSDoc
// (@fires, @csspart, @cssprop, @tagname). Run by `npm run build`; test/custom-elements.test.ts
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
        }
        for (const entry of module.exports ?? []) {
          if (entry.declaration?.module) entry.declaration.module = shipped(entry.declaration.module);
        }
      }
    },
  };
}

export default {
  globs: ['src/widget/**/*.ts'],
  exclude: ['src/widget/**/*.styles.ts', 'src/widget/locales/**'],
  outdir: 'dist',
  litelement: true,
  packagejson: false,
  plugins: [shippedPaths()],
};
