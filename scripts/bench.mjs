// `npm run bench`: runs every bench/*.ts in turn (through tsx); each prints its own figures and
// the ratio against its baseline. `npm run bench -- handler` runs the files whose name contains "handler";
// options (`--by-module`) go to each file run.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const args = process.argv.slice(2);
const filters = args.filter((arg) => !arg.startsWith('--'));
const options = args.filter((arg) => arg.startsWith('--'));
const files = readdirSync(`${root}bench`)
  .filter((f) => f.endsWith('.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();

if (files.length === 0) {
  console.error(`No benchmark matches ${filters.join(', ') || 'bench/*.ts'}.`);
  process.exit(2);
}

let failed = 0;
for (const file of files) {
  console.log(`\n=== bench/${file}`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', `bench/${file}`, ...options], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
