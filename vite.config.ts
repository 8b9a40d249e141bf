// Library build of the standalone widget: dist/chatbot-widget.js, one minified ES module with
// Lit and idb-keyval bundled (their notices: THIRD-PARTY-NOTICES.md), no bare imports, for
// `<script type="module" src="…/chatbot-widget.js">`. `npm run build` runs tsc first (dist/lib),
// so this build must not empty dist/. Class fields are assigned in the constructor
// (useDefineForClassFields: false in tsconfig.json, which Vite's transformer reads), so the
// elements' initial values go through Lit's reactive properties.
//
// `npm run dev` serves index.html with the widget from source; `/chatbot` is proxied to the
// signing handler of a running `npm start` (CHATBOT_DEV_BACKEND, default http://localhost:8080).
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { minify } from 'terser';
import { defineConfig, type Plugin } from 'vite';
import { minifyTemplatesPlugin } from './scripts/minify-templates.js';

const devBackend = process.env.CHATBOT_DEV_BACKEND ?? 'http://localhost:8080';

/**
 * Removes the chunks of earlier builds (`dist/chatbot-widget-*.js`, named by content hash) before
 * writing new ones: dist/ is not emptied (it holds dist/lib), and old chunks would pile up there.
 */
function removeOldChunks(): Plugin {
  return {
    name: 'remove-old-chunks',
    apply: 'build',
    buildStart() {
      if (!existsSync('dist')) return;
      for (const name of readdirSync('dist', { withFileTypes: true })) {
        if (name.isFile() && /^chatbot-widget-.+\.js$/.test(name.name)) rmSync(`dist/${name.name}`);
      }
    },
  };
}

/**
 * Fetches a lazily loaded chunk's own imports together with it: `import("./panel.js")` in the
 * entry becomes `(import("./shared.js").catch(…), import("./panel.js"))`. The browser would
 * otherwise ask for the shared chunk only once it has parsed the panel's 100 kB, a round trip
 * later (10–30 ms of a cold open on a 2-core machine). Vite's own module preload is off in
 * library mode.
 */
function fetchChunkImportsAtOnce(): Plugin {
  return {
    name: 'fetch-chunk-imports-at-once',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      for (const entry of chunks.filter((chunk) => chunk.isEntry)) {
        entry.code = entry.code.replace(/\bimport\((`|'|")\.\/([^`'"]+)\1\)/g, (call, _quote: string, name: string) => {
          const target = chunks.find((chunk) => chunk.fileName === name);
          const shared = target?.imports.filter((file) => file !== entry.fileName) ?? [];
          if (shared.length === 0) return call;
          return `(${shared.map((file) => `import("./${file}").catch(()=>{})`).join(',')},${call})`;
        });
      }
    },
  };
}

/**
 * Compresses each chunk with terser's compressor before the build's own minifier (oxc's, in
 * `output.minify`) shortens names and whitespace. The two find different savings: together they
 * make what a visitor may load 262 bytes gzip smaller than oxc's minifier alone, where terser
 * alone would be 23 bytes larger (`npm run bench -- widget-size`). Statements are left for oxc to
 * join (terser's `sequences`: 7 bytes more when both join), and names for it to shorten. Only
 * terser's safe transforms run (none of its `unsafe` options).
 */
function compressWithTerser(): Plugin {
  return {
    name: 'compress-with-terser',
    apply: 'build',
    async renderChunk(code) {
      const result = await minify(code, {
        module: true,
        compress: { passes: 3, sequences: false },
        mangle: false,
        format: { comments: false },
      });
      return { code: result.code ?? code, map: null };
    },
  };
}

export default defineConfig({
  plugins: [removeOldChunks(), minifyTemplatesPlugin(), compressWithTerser(), fetchChunkImportsAtOnce()],
  publicDir: false,
  logLevel: 'warn',
  server: {
    proxy: {
      // The browser sends Sec-Fetch-Site: same-origin, which the handler accepts behind a proxy.
      '/chatbot': { target: devBackend, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    minify: true,
    sourcemap: false,
    reportCompressedSize: false,
    copyPublicDir: false,
    lib: {
      entry: 'src/browser/standalone.ts',
      formats: ['es'],
      fileName: () => 'chatbot-widget.js',
    },
    rolldownOptions: {
      // The entry may export more than its source does, so code the lazily loaded chunks share
      // with it stays in it (one request for the first load) instead of a third, common chunk.
      preserveEntrySignatures: 'allow-extension',
      // Library mode keeps whitespace by default (for re-bundlers); this file is for browsers.
      // Chunks load from URLs relative to this file (`import("./chatbot-widget-….js")`).
      // No comments either: the `/* @__PURE__ */` marks the minifier keeps are for bundlers
      // (about 100 bytes gzip of what a visitor loads).
      output: { minify: true, comments: false, chunkFileNames: 'chatbot-widget-[name]-[hash].js' },
    },
  },
});
