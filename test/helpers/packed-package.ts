// The package as a user gets it before it is on a registry: the `npm pack` output of this
// checkout (dist/ as built by `npm install`), made once per test process.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
let tarball: string | undefined;

/** Path of `chatbot-widget-<version>.tgz` packed from this checkout (scripts not run: dist/ must be built). */
export function packedPackage(): string {
  if (tarball) return tarball;
  if (!existsSync(join(root, 'dist/lib'))) throw new Error('dist/ is missing: run `npm run build` (npm install runs it too).');
  const destination = mkdtempSync(join(tmpdir(), 'chatbot-widget-pack-'));
  const output = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', destination], {
    cwd: root,
    encoding: 'utf8',
  });
  const [packed] = JSON.parse(output) as Array<{ filename: string }>;
  if (!packed) throw new Error(`npm pack reported no file: ${output}`);
  tarball = join(destination, packed.filename);
  return tarball;
}
