// The Bun and Deno binaries of the root devDependencies, which the runtime tests start. A missing
// one fails the test that needs it (never a skip), saying how to install it.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

function installed(name: 'bun' | 'deno', ...paths: string[]): string {
  const found = paths.map((path) => root + path).find((path) => existsSync(path));
  if (!found)
    throw new Error(
      `the ${name} binary is not installed: run \`npm install\` (the "${name}" devDependency, whose install script must be allowed in package.json "allowScripts")`,
    );
  return found;
}

export const bunBinary = (): string => installed('bun', 'node_modules/bun/bin/bun.exe', 'node_modules/.bin/bun');
export const denoBinary = (): string => installed('deno', 'node_modules/deno/deno', 'node_modules/.bin/deno');
