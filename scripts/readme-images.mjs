// The README's and the docs' pictures (docs/images) are screenshots of the visual tests: each is
// a copy of one approved baseline (test/screenshots/baseline), written by
// `npm run test:visual:update`, so a picture never shows a look the tests no longer approve.
// test/readme/images.test.ts checks that every copy still equals its baseline.
import { copyFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const BASELINES = 'test/screenshots/baseline';

/** docs/images/<picture> ← baseline/<screenshot>. */
export const README_IMAGES = {
  'widget.png': 'panel-greeting.png',
  'widget-history-search.png': 'history-search.png',
  'widget-inline-dark.png': 'dark-conversation.png',
  'widget-rtl.png': 'rtl-floating-panel-ar.png',
  'widget-mobile.png': 'phone-360.png',
  'admin-usage.png': 'usage.png',
};

/** Copies every picture's baseline to docs/images. */
export function writeReadmeImages() {
  for (const [picture, baseline] of Object.entries(README_IMAGES)) {
    copyFileSync(`${root}${BASELINES}/${baseline}`, `${root}docs/images/${picture}`);
    console.log(`wrote docs/images/${picture} (from ${BASELINES}/${baseline})`);
  }
}
