// `npm run test:visual:update`: runs the screenshot tests approving what they see as the new
// baselines (UPDATE_SCREENSHOTS=1; look at the images in test/screenshots/baseline before
// committing them), then writes the README's pictures from those baselines (readme-images.mjs).
import { spawnSync } from 'node:child_process';
import { root, writeReadmeImages } from './readme-images.mjs';

const run = spawnSync(process.execPath, ['scripts/test.mjs', '--browser-only', 'visual-states', 'visual-catches', 'rtl-visual'], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, UPDATE_SCREENSHOTS: '1' },
});
if (run.status !== 0) process.exit(run.status ?? 1);
writeReadmeImages();
