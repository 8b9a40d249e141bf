/**
 * Where the project's own docs are: the default knowledge base of the emulator's reply source.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'chatbot-widget';

/**
 * The root folder of the `chatbot-widget` package, found by walking up from this module (so it
 * works from `src/` under tsx and from the compiled `dist/lib/`), or undefined when not found.
 */
export function findProjectRoot(from: string = dirname(fileURLToPath(import.meta.url))): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        if ((JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown } | null)?.name === PACKAGE_NAME) return dir;
      } catch {
        // A package.json that does not parse is not ours; keep walking up.
      }
    }
    if (dirname(dir) === dir) return undefined;
  }
}

/** `README.md` and `docs/*.md` of the project root, those that exist, in a stable order. */
export function defaultDocPaths(root: string | undefined = findProjectRoot()): string[] {
  if (!root) return [];
  const paths: string[] = [];
  const readme = join(root, 'README.md');
  if (existsSync(readme)) paths.push(readme);
  const docs = join(root, 'docs');
  if (existsSync(docs)) {
    const names = readdirSync(docs)
      .filter((name) => name.toLowerCase().endsWith('.md'))
      .sort();
    paths.push(...names.map((name) => join(docs, name)));
  }
  return paths;
}
