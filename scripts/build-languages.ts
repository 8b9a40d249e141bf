// Builds the widget's language loader (src/ui/locales/index.ts) on its own with Vite, the
// standalone widget's target and minifier, into `outDir`: the entry plus one chunk per language.
// The language tests and `npm run bench -- widget-locales` both look at this output.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

/** File name of the built loader; every other file is a language chunk. */
export const LOADER_ENTRY = 'locale-loader.js';

/** Builds into `outDir` and returns each JavaScript file's name and bytes. */
export async function buildLanguages(outDir: string): Promise<Map<string, Buffer>> {
  await build({
    configFile: false,
    root: fileURLToPath(new URL('..', import.meta.url)),
    logLevel: 'silent',
    publicDir: false,
    build: {
      outDir,
      emptyOutDir: true,
      target: 'es2022',
      minify: true,
      copyPublicDir: false,
      lib: { entry: 'src/ui/locales/index.ts', formats: ['es'], fileName: () => LOADER_ENTRY },
      rolldownOptions: { output: { minify: true } },
    },
  });
  const names = readdirSync(outDir).filter((name) => name.endsWith('.js'));
  return new Map(names.map((name) => [name, readFileSync(join(outDir, name))]));
}
