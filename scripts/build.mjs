// `npm run build` (also run by `npm install` in a clone of the repository, through `prepare`;
// never by installing the package, whose tarball holds dist/ already — docs/install.md):
// 1. tsc compiles src/ to dist/lib (ES modules and .d.ts for every package entry and the commands);
// 2. the Custom Elements Manifest, custom-elements.json, from the JSDoc of every element class
//    under src/chatbot-widget and src/chatbot-usage (custom-elements-manifest.config.mjs);
// 3. Vite bundles the standalone widget, dist/chatbot-widget.js.
import { spawnSync } from 'node:child_process';
import { rmSync, chmodSync } from 'node:fs';

const root = new URL('..', import.meta.url).pathname;
const bin = (name) => `${root}node_modules/.bin/${name}`;

function step(label, command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`build: ${label} failed`);
    process.exit(result.status ?? 1);
  }
}

rmSync(`${root}dist`, { recursive: true, force: true });
step('TypeScript', bin('tsc'), ['-p', 'tsconfig.build.json']);
for (const command of ['chatbot-api', 'chatbot-emulator']) chmodSync(`${root}dist/lib/cli/${command}.js`, 0o755);
step('the Custom Elements Manifest', bin('cem'), ['analyze', '--config', 'custom-elements-manifest.config.mjs', '--quiet']);
step('the standalone widget bundle', bin('vite'), ['build', '--logLevel', 'warn']);
