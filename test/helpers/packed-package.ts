// The package as a user gets it before it is on a registry: the `npm pack` output of this
// checkout (dist/ as built by `npm install`). The test files that install it run in processes of
// their own, so the tarball is kept in the tests' cache (test-cache.ts), under a hash of every
// file it packs: each test file gets the same tarball, and a changed file makes a new one.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testCache as cache } from './test-cache.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
/** What npm packs whatever `files` says. */
const ALWAYS_PACKED = ['package.json', 'README.md', 'LICENSE'];

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((entry) => filesUnder(join(path, entry)));
}

/** A hash of the path and bytes of every file `npm pack` puts in the tarball. */
export function packedContentsHash(): string {
  const { files } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { files: string[] };
  const patterns = files.filter((entry) => /[*?[\]{}]/.test(entry));
  if (patterns.length) throw new Error(`packed-package.ts reads plain paths in package.json "files", not patterns: ${patterns.join(', ')}`);
  const excluded = files.filter((entry) => entry.startsWith('!')).map((entry) => join(root, entry.slice(1)));
  const paths = [...ALWAYS_PACKED, ...files.filter((entry) => !entry.startsWith('!'))]
    .flatMap((entry) => filesUnder(join(root, entry)))
    .filter((path) => !excluded.some((out) => path === out || path.startsWith(`${out}/`)));
  const hash = createHash('sha256');
  for (const path of [...new Set(paths)].sort())
    hash
      .update(`${relative(root, path)}\0`)
      .update(readFileSync(path))
      .update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** Path of `chatbot-widget-<version>.tgz` packed from this checkout (scripts not run: dist/ must be built). */
export function packedPackage(): string {
  if (!existsSync(join(root, 'dist/lib'))) throw new Error('dist/ is missing: run `npm run build` (npm install runs it too).');
  const folder = join(cache, `pack-${packedContentsHash()}`);
  const packed = () => readdirSync(folder).find((file) => file.endsWith('.tgz'));
  if (existsSync(folder)) return join(folder, packed()!);

  mkdirSync(cache, { recursive: true });
  // Packed beside the cache entry, then renamed into place: a test file running at the same
  // moment sees either no entry or a whole one.
  const scratch = mkdtempSync(join(cache, 'packing-'));
  try {
    const output = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], {
      cwd: root,
      encoding: 'utf8',
    });
    if (!(JSON.parse(output) as Array<{ filename: string }>)[0]) throw new Error(`npm pack reported no file: ${output}`);
    renameSync(scratch, folder);
  } catch (error) {
    rmSync(scratch, { recursive: true, force: true });
    // Another test file packed the same files first: its tarball is this one.
    if (!['ENOTEMPTY', 'EEXIST'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    return join(folder, packed()!);
  }
  // Tarballs of files that have changed since are of no more use.
  for (const entry of readdirSync(cache))
    if (entry.startsWith('pack-') && join(cache, entry) !== folder) rmSync(join(cache, entry), { recursive: true, force: true });
  return join(folder, packed()!);
}
