// `npm run build` (also run by `npm install` through `prepare`):
// 1. tsc compiles src/ to dist/lib (ES modules and .d.ts for every package entry and the commands);
// 2. Vite bundles the standalone widget, dist/chatbot-widget.js, when the widget exists.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, chmodSync } from 'node:fs';

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
for (const command of ['chatbot-api', 'chatbot-emulator']) {
  const file = `${root}dist/lib/cli/${command}.js`;
  if (existsSync(file)) chmodSync(file, 0o755);
}
if (existsSync(`${root}src/widget/index.ts`) && existsSync(`${root}vite.config.ts`)) {
  step('the standalone widget bundle', bin('vite'), ['build', '--logLevel', 'warn']);
}
